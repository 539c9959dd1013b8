// chrdev model, fs/inode.c: iput, iput_final, prune_icache_sb /
// inode_lru_isolate, evict, destroy_inode. See chrdev.h for what the model
// follows and leaves out (here: lazytime, writeback, I_REFERENCED, the
// list_lru locks).

#include "chrdev.h"

namespace vfsmc {
namespace chrdev {

void ChrdevRun::iput() {
    KFUNC("iput");
    // Fast path: not the last reference.
    if (atomic_add_unless(inode->i_count, -1, 1)) return;
    // I_DIRTY_TIME (lazytime) retry: not modelled.
    spin_lock(inode->i_lock);
    if (!atomic_dec_and_test(inode->i_count)) {
        spin_unlock(inode->i_lock);
        return;
    }
    iput_final();
}

void ChrdevRun::iput_final() {
    KFUNC("iput_final");
    // generic_drop_inode: drop when unlinked (or unhashed).
    bool drop = plain_load(inode->i_nlink) == 0;
    if (!drop) {
        // Cached with count 0; i_cdev and the list membership stay.
        plain_store(inode->i_lru, 1);  // inode_add_lru
        kstep("iput_final:cached", inode->id, "%s cached on the LRU with i_count 0", inode->name());
        spin_unlock(inode->i_lock);
        return;
    }
    // I_WILL_FREE + write_inode_now for a clean drop: not modelled.
    if (!MUTATION("iput-final-no-i-freeing")) WRITE_ONCE(inode->i_state, plain_load(inode->i_state) | I_FREEING);  // inode_state_set
    kstep("iput_final:I_FREEING", inode->id, "%s: I_FREEING", inode->name());
    if (plain_load(inode->i_lru)) plain_store(inode->i_lru, 0);  // inode_lru_list_del
    spin_unlock(inode->i_lock);
    evict();
}

// prune_icache_sb -> list_lru walk -> inode_lru_isolate -> dispose_list.
void ChrdevRun::prune_icache_sb() {
    KFUNC("prune_icache_sb");
    if (!spin_trylock(inode->i_lock)) return;  // LRU_SKIP
    if (!plain_load(inode->i_lru)) {  // not on the LRU: the walk does not see it
        spin_unlock(inode->i_lock);
        return;
    }
    // A referenced or busy inode is taken off the LRU, not freed: this
    // recheck under i_lock is what keeps an inode with i_count >= 1
    // away from evict.
    if ((!MUTATION("inode-lru-isolate-no-i-count-recheck") && atomic_read(inode->i_count)) || (plain_load(inode->i_state) & ~I_REFERENCED)) {
        plain_store(inode->i_lru, 0);
        spin_unlock(inode->i_lock);
        return;
    }
    WRITE_ONCE(inode->i_state, plain_load(inode->i_state) | I_FREEING);
    kstep("inode_lru_isolate:I_FREEING", inode->id, "%s: I_FREEING (i_count 0, on the LRU)", inode->name());
    plain_store(inode->i_lru, 0);
    spin_unlock(inode->i_lock);
    evict();  // dispose_list
}

void ChrdevRun::evict() {
    KFUNC("evict");
    // BUG_ON(!(inode_state_read_once(inode) & I_FREEING)): both callers set it.
    // inode_sb_list_del, writeback waits, truncate_inode_pages_final: not modelled.
    // clear_inode: no concurrent modifications to i_state once I_FREEING.
    WRITE_ONCE(inode->i_state, I_FREEING | I_CLEAR);
    // S_ISCHR(inode->i_mode) && inode->i_cdev: an unlocked plain read;
    // list_del_init makes a forget after a purge harmless (reference C4).
    if (plain_load(inode->i_cdev) != NONE) forget_cdev();
    // remove_inode_hash, wake_up_bit(__I_NEW): not modelled.
    destroy_inode();
}

void ChrdevRun::destroy_inode() {
    KFUNC("destroy_inode");
    inode_freed = true;
    // i_callback after an RCU grace period; nobody here reads the inode
    // under rcu_read_lock, so it is freed at once. check_free() looks at
    // its list in the free's step.
    call_rcu_free(inode->id);
}

}  // namespace chrdev
}  // namespace vfsmc
