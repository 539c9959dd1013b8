// vfsmc: the model registry. Each file in models/ adds itself with a static
// ModelRegistrar; this file is linked with them.
#include "kernel/model.h"

namespace vfsmc {

std::vector<Model*>& models() {
    static std::vector<Model*> m;
    return m;
}

Model* find_model(const std::string& name) {
    for (Model* m : models())
        if (m->spec().name == name) return m;
    return nullptr;
}

}  // namespace vfsmc
