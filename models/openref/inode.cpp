// openref model, fs/inode.c: ihold, iput, iput_final, evict (reduced to the
// RCU free). See openref.h for what the model follows and leaves out.

#include "openref.h"

namespace vfsmc {
namespace openref {

void OpenrefRun::ihold(Inode* i) {
    KFUNC("ihold");
    atomic_inc(i->i_count);
}

void OpenrefRun::iput(Inode* i) {
    KFUNC("iput");
    if (atomic_add_unless(i->i_count, -1, 1)) return;
    spin_lock(i->i_lock);
    if (!atomic_dec_and_test(i->i_count)) {
        spin_unlock(i->i_lock);
        return;
    }
    iput_final(i);
}

void OpenrefRun::iput_final(Inode* i) {
    KFUNC("iput_final");
    if (READ_ONCE(i->i_nlink)) {
        spin_unlock(i->i_lock);
        kstep("iput_final:cached", i->id, "%s stays cached with i_count 0", i->name());
        return;
    }
    // I_FREEING, then evict: no links and no references left.
    spin_unlock(i->i_lock);
    KFUNC("evict");
    call_rcu_free(i->id);  // destroy_inode -> i_callback after a grace period
}

}  // namespace openref
}  // namespace vfsmc
