// vfsmc: step accesses (deps.h) and watch sets (blocking.h).
#include "substrate/blocking.h"
#include "substrate/deps.h"

namespace vfsmc {

Deps g_deps;
Blocking g_blocking;

void Blocking::begin_execution() {
    for (int t = 0; t < kMaxThreads; t++) {
        wait_ws[t].clear();
        wait_ws[t].active = false;
        pass_ws[t].clear();
        pass_ws[t].active = false;
        pass_writes[t].clear();
        parked_on[t] = nullptr;
    }
    nparked = 0;
}

void Deps::begin_execution() {
    nstep = 0;
    step_overflow = false;
    steps = 0;
    next_writes = 0;
}

// Field keys: a hash of the owner's id and the field name's address (a
// string literal: the same in every execution). Two fields that collide
// only become dependent, which costs executions, never soundness. The
// address is taken from an anchor in the same image, so that every process
// running this binary gives a field the same key whatever address the
// loader put the image at: the workers of a parallel search under MPI
// (search/parallel.h) exchange steps' keys.
static Key mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    Key k = (Key)x;
    return k < kGlobalKeys ? k + kGlobalKeys : k;
}
static const char kKeyAnchor[] = "vfsmc field keys";
Key field_key(int owner, const char* name) {
    return mix(((uint64_t)(uint16_t)owner << 48) ^ (uint64_t)((uintptr_t)name - (uintptr_t)kKeyAnchor));
}
Key alive_key(int owner) { return mix(((uint64_t)(uint16_t)owner << 48) ^ 0xa11feULL); }

}  // namespace vfsmc
