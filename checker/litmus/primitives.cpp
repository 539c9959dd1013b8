// vfsmc litmus: the table of primitives (primitives.h).
#include "litmus/primitives.h"

namespace vfsmc {
namespace litmus {

const std::map<std::string, Named>& functions() {
    static std::map<std::string, Named> m = [] {
        std::map<std::string, Named> t;
        t["READ_ONCE"] = {Fn::ReadOnce, 1};
        t["WRITE_ONCE"] = {Fn::WriteOnce, 2};
        t["smp_load_acquire"] = {Fn::LoadAcquire, 1};
        t["smp_store_release"] = {Fn::StoreRelease, 2};
        t["smp_mb"] = {Fn::Mb, 0};
        t["smp_rmb"] = {Fn::Rmb, 0};
        t["smp_wmb"] = {Fn::Wmb, 0};
        t["smp_mb__before_atomic"] = {Fn::MbBeforeAtomic, 0};
        t["smp_mb__after_atomic"] = {Fn::MbAfterAtomic, 0};
        t["smp_mb__after_spinlock"] = {Fn::MbAfterSpinlock, 0};
        t["smp_mb__after_unlock_lock"] = {Fn::MbAfterUnlockLock, 0};
        t["smp_mb__after_srcu_read_unlock"] = {Fn::MbAfterSrcuReadUnlock, 0};
        t["barrier"] = {Fn::Barrier, 0};
        t["smp_store_mb"] = {Fn::StoreMb, 2};
        t["spin_lock"] = {Fn::SpinLock, 1};
        t["spin_unlock"] = {Fn::SpinUnlock, 1};
        t["spin_trylock"] = {Fn::SpinTrylock, 1};
        t["spin_is_locked"] = {Fn::SpinIsLocked, 1};
        t["rcu_read_lock"] = {Fn::RcuReadLock, 0};
        t["rcu_read_unlock"] = {Fn::RcuReadUnlock, 0};
        t["synchronize_rcu"] = {Fn::SynchronizeRcu, 0};
        t["synchronize_rcu_expedited"] = {Fn::SynchronizeRcu, 0};
        t["rcu_dereference"] = {Fn::RcuDereference, 1};
        t["rcu_assign_pointer"] = {Fn::RcuAssignPointer, 2};
        t["srcu_read_lock"] = {Fn::SrcuReadLock, 1};
        t["srcu_read_unlock"] = {Fn::SrcuReadUnlock, 2};
        t["synchronize_srcu"] = {Fn::SynchronizeSrcu, 1};
        t["synchronize_srcu_expedited"] = {Fn::SynchronizeSrcu, 1};
        t["srcu_down_read"] = {Fn::SrcuDownRead, 1};
        t["srcu_up_read"] = {Fn::SrcuUpRead, 2};
        t["atomic_add_unless"] = {Fn::AddUnless, 3};
        t["atomic_and"] = {Fn::AtomicOp, 2, RmwOrder::Relaxed, ArithOp::And};
        t["atomic_or"] = {Fn::AtomicOp, 2, RmwOrder::Relaxed, ArithOp::Or};
        t["atomic_xor"] = {Fn::AtomicOp, 2, RmwOrder::Relaxed, ArithOp::Xor};
        t["atomic_andnot"] = {Fn::AtomicOp, 2, RmwOrder::Relaxed, ArithOp::AndNot};
        t["atomic_read"] = {Fn::AtomicRead, 1};
        t["atomic_set"] = {Fn::AtomicSet, 2};
        t["atomic_read_acquire"] = {Fn::AtomicReadAcquire, 1};
        t["atomic_set_release"] = {Fn::AtomicSetRelease, 2};
        t["atomic_inc"] = {Fn::AtomicOp, 1, RmwOrder::Relaxed, ArithOp::Add, RetKind::New, 1, true};
        t["atomic_dec"] = {Fn::AtomicOp, 1, RmwOrder::Relaxed, ArithOp::Sub, RetKind::New, 1, true};
        t["atomic_add"] = {Fn::AtomicOp, 2, RmwOrder::Relaxed, ArithOp::Add};
        t["atomic_sub"] = {Fn::AtomicOp, 2, RmwOrder::Relaxed, ArithOp::Sub};
        t["atomic_inc_and_test"] = {Fn::AtomicOpReturn, 1, RmwOrder::Full, ArithOp::Add, RetKind::IsZero, 1, true};
        t["atomic_dec_and_test"] = {Fn::AtomicOpReturn, 1, RmwOrder::Full, ArithOp::Sub, RetKind::IsZero, 1, true};
        t["atomic_sub_and_test"] = {Fn::AtomicOpReturn, 2, RmwOrder::Full, ArithOp::Sub, RetKind::IsZero};
        const std::pair<const char*, RmwOrder> sfx[] = {
            {"", RmwOrder::Full}, {"_relaxed", RmwOrder::Relaxed}, {"_acquire", RmwOrder::Acquire}, {"_release", RmwOrder::Release}};
        for (const auto& s : sfx) {
            std::string x = s.first;
            t["atomic_add_return" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Add, RetKind::New};
            t["atomic_sub_return" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Sub, RetKind::New};
            t["atomic_inc_return" + x] = {Fn::AtomicOpReturn, 1, s.second, ArithOp::Add, RetKind::New, 1, true};
            t["atomic_dec_return" + x] = {Fn::AtomicOpReturn, 1, s.second, ArithOp::Sub, RetKind::New, 1, true};
            t["atomic_fetch_add" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Add, RetKind::Old};
            t["atomic_fetch_sub" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Sub, RetKind::Old};
            t["atomic_fetch_inc" + x] = {Fn::AtomicOpReturn, 1, s.second, ArithOp::Add, RetKind::Old, 1, true};
            t["atomic_fetch_dec" + x] = {Fn::AtomicOpReturn, 1, s.second, ArithOp::Sub, RetKind::Old, 1, true};
            t["xchg" + x] = {Fn::Xchg, 2, s.second};
            t["atomic_xchg" + x] = {Fn::Xchg, 2, s.second};
            t["cmpxchg" + x] = {Fn::Cmpxchg, 3, s.second};
            t["atomic_add_negative" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Add, RetKind::IsNegative};
            t["atomic_fetch_and" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::And, RetKind::Old};
            t["atomic_fetch_or" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Or, RetKind::Old};
            t["atomic_fetch_xor" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::Xor, RetKind::Old};
            t["atomic_fetch_andnot" + x] = {Fn::AtomicOpReturn, 2, s.second, ArithOp::AndNot, RetKind::Old};
            t["atomic_cmpxchg" + x] = {Fn::Cmpxchg, 3, s.second};
        }
        return t;
    }();
    return m;
}

bool is_type_word(const std::string& s) {
    static const char* words[] = {"int", "long", "unsigned", "signed", "short", "char", "intptr_t", "uintptr_t",
                                  "bool", "_Bool", "atomic_t", "spinlock_t", "struct", "u8", "u16", "u32", "u64",
                                  "s8", "s16", "s32", "s64", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
                                  "uint16_t", "uint32_t", "uint64_t", "size_t", "ssize_t", "void", "const", "volatile"};
    for (const char* w : words)
        if (s == w) return true;
    return false;
}

}  // namespace litmus
}  // namespace vfsmc
