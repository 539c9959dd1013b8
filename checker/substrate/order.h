// vfsmc: the C++11 memory orders the layer gives its accesses, as a type of
// our own (no Relacy here): the memory-model table (kernel/memory_model.h)
// is written in them, and substrate/sim.h maps them onto Relacy's.
#pragma once

#include <cstdint>

namespace vfsmc {

enum class MemOrder : uint8_t { relaxed, consume, acquire, release, acq_rel, seq_cst };

inline const char* mo_name(MemOrder mo) {
    switch (mo) {
        case MemOrder::relaxed: return "relaxed";
        case MemOrder::consume: return "consume";
        case MemOrder::acquire: return "acquire";
        case MemOrder::release: return "release";
        case MemOrder::acq_rel: return "acq_rel";
        case MemOrder::seq_cst: return "seq_cst";
    }
    return "?";
}

}  // namespace vfsmc
