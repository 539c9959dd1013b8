// vfsmc: the model registry. Each file in models/ adds itself with a static
// ModelRegistrar; this file is linked with them.
#include "contract/model.h"

namespace vfsmc {

std::vector<Model*>& models() {
    static std::vector<Model*> m;
    return m;
}

static std::vector<Model*>& runtime_models() {
    static std::vector<Model*> m;
    return m;
}

void register_runtime_model(Model* m) { runtime_models().push_back(m); }
void unregister_runtime_model(Model* m) {
    auto& v = runtime_models();
    for (size_t i = 0; i < v.size(); i++)
        if (v[i] == m) {
            v.erase(v.begin() + (long)i);
            return;
        }
}

Model* find_model(const std::string& name) {
    for (Model* m : models())
        if (m->spec().name == name) return m;
    for (Model* m : runtime_models())
        if (m->spec().name == name) return m;
    return nullptr;
}

}  // namespace vfsmc
