/*
 * dcache_shared_creat.pml: NTHREADS O_CREAT opens of "foo" with the parent's
 * i_rwsem held shared (seed 001, "vfs: allow the parent lock to be shared for
 * O_CREAT"), the filesystem publishing its dentry with d_splice_alias().
 *
 * An independent Promela model of the protocol that vfsmc's `dcache` model
 * checks in scenarios/dcache/shared-d-splice-alias.json (2 threads) and
 * three-shared-d-splice-alias.json (3 threads); written from
 * ../shared/reference/dcache-in-lookup.md (sections 1-3, 6.3, 9) and the
 * step list of models/dcache/, not translated from the C++.
 *
 *   spin -a -DNTHREADS=3 dcache_shared_creat.pml
 *   gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000
 *
 * Memory model: sequential consistency (SPIN has no other). Each Promela
 * statement or atomic{} block is one step. Grouping rules (see
 * bench/results.md, "SPIN side by side"):
 *  - a section under a lock that touches only data that lock protects is one
 *    step (lock, body and unlock), e.g. d_lookup's per-dentry d_lock section,
 *    __d_lookup_unhash under the in-lookup bucket lock, d_alloc_parallel's
 *    recheck + scan + publish under the in-lookup bucket lock;
 *  - every access a lockless reader can observe (i_dir_seq, the main-hash
 *    head, lockref's cmpxchg fast paths, d_seq) is its own step;
 *  - ghost bookkeeping rides on the step next to it.
 *
 * Invariants (the names are vfsmc's dcache invariants):
 *  INV_ONE_HASHED    one-hashed-dentry-per-name: at most one dentry for "foo"
 *                    in the main hash (checked where the chain grows)
 *  INV_CREATE_EXCL   create-exclusion: no two O_CREAT ->atomic_open calls for
 *                    "foo" overlap
 *  INV_AO_IN_LOOKUP  atomic-open-in-lookup: ->atomic_open(O_CREAT) under the
 *                    shared lock is handed an in-lookup dentry (the seed's
 *                    VFS_WARN_ON_ONCE)
 *  INV_DAP_RESULT    d-alloc-parallel-result: d_alloc_parallel returns a
 *                    hashed dentry, or its caller's own in-lookup one
 *  INV_ONE_FS_CALL   one-fs-call-per-dentry: one thread at a time inside
 *                    ->atomic_open on a dentry
 *  INV_REF_UNDERFLOW dentry-ref-underflow: dput never sees count <= 0
 *  INV_UAF           dentry-use-after-free: no access to a dentry after its
 *                    RCU-delayed free
 *  INV_REF_LEAK      ref-leak (at the end): every dentry not killed has count
 *                    0, is not in-lookup, and is hashed
 *  INV_ONE_INODE     (at the end) every opener that succeeded holds a
 *                    positive dentry with the server's one inode, and exactly
 *                    one dentry for "foo" is hashed
 *  deadlock / lost wakeup: pan's invalid end states (a thread asleep or
 *                    blocked when nothing else can run)
 *
 * Broken variants (each must make pan report an error; tests/spin_test.sh):
 *  -DBROKEN / -DBUG_NO_RECHECK  no i_dir_seq re-check under the in-lookup
 *                               bucket lock (vfsmc dir_seq_recheck false)
 *  -DBUG_NO_PARITY              an odd i_dir_seq sample is not retried
 *  -DBUG_REHASH                 publish with d_instantiate + d_rehash (the
 *                               seed's Notes race; vfsmc publish d_rehash)
 *  -DBUG_REHASH_EARLY           d_rehash of the negative in-lookup dentry
 *                               before the OPEN (vfsmc publish d_rehash-early)
 *  -DBUG_NO_WAIT                d_wait_lookup returns without sleeping
 *  -DBUG_EARLY_LOOKUP_DONE      lookup_open ends the in-lookup state before
 *                               ->atomic_open
 *  -DBUG_DOUBLE_DPUT            close puts the dentry twice
 *  -DBUG_MISSING_DPUT           a waiter never puts its unused new dentry
 *  -DBUG_WAITER_NO_REF          a waiter sleeps on the in-lookup dentry
 *                               without a reference (needs -DRPC_ERROR)
 *  -DBUG_NO_WAKE                end_dir_add does not wake the waiters
 *  -DBUG_PUBLISH_NEGATIVE       the filesystem hashes the dentry without its
 *                               inode and reports success
 *  -DRPC_ERROR                  (not a bug) the OPEN may fail, as vfsmc's
 *                               rpc_error knob
 * Assertions can be switched off one by one (-DNO_INV_ONE_HASHED, ...) so a
 * variant can be shown to reach a later one.
 */

#ifndef NTHREADS
#define NTHREADS 2
#endif
#ifdef BROKEN
#define BUG_NO_RECHECK 1
#endif
/* dentries each thread may allocate (one per d_alloc_parallel call) */
#ifndef MAXALLOC
#define MAXALLOC 1
#endif
#define ND (NTHREADS * MAXALLOC)
/* after d_wait_lookup: the dentry waited for is not hashed */
#ifndef BUG_NO_WAIT
#define WAITED_FOR_FAILED (!pinned)
#else
#define WAITED_FOR_FAILED (!pinned && !d[m].par_lookup)
#endif
#define NONE 255
#define ME (1 << me)

#ifndef NO_INV_ONE_HASHED
#define CHECK_ONE_HASHED(c) assert(c)
#else
#define CHECK_ONE_HASHED(c) skip
#endif
#ifndef NO_INV_CREATE_EXCL
#define CHECK_CREATE_EXCL(c) assert(c)
#else
#define CHECK_CREATE_EXCL(c) skip
#endif
#ifndef NO_INV_AO_IN_LOOKUP
#define CHECK_AO_IN_LOOKUP(c) assert(c)
#else
#define CHECK_AO_IN_LOOKUP(c) skip
#endif
#ifndef NO_INV_DAP_RESULT
#define CHECK_DAP_RESULT(c) assert(c)
#else
#define CHECK_DAP_RESULT(c) skip
#endif
#ifndef NO_INV_ONE_FS_CALL
#define CHECK_ONE_FS_CALL(c) assert(c)
#else
#define CHECK_ONE_FS_CALL(c) skip
#endif
#ifndef NO_INV_REF_UNDERFLOW
#define CHECK_REF_UNDERFLOW(c) assert(c)
#else
#define CHECK_REF_UNDERFLOW(c) skip
#endif
#ifndef NO_INV_UAF
#define CHECK_UAF(x) assert(!d[x].freed)
#else
#define CHECK_UAF(x) skip
#endif
#ifndef NO_INV_REF_LEAK
#define CHECK_REF_LEAK(c) assert(c)
#else
#define CHECK_REF_LEAK(c) skip
#endif
#ifndef NO_INV_ONE_INODE
#define CHECK_ONE_INODE(c) assert(c)
#else
#define CHECK_ONE_INODE(c) skip
#endif

typedef dentry_t {
	byte cnt;		/* d_lockref.count */
	bit dead;		/* d_lockref.count == -128 (lockref_mark_dead) */
	bit dlock;		/* d_lockref's spinlock: d_lock */
	bit par_lookup;		/* DCACHE_PAR_LOOKUP in d_flags */
	bit hashed;		/* d_hash.pprev != NULL */
	bit positive;		/* d_inode != NULL (the server's one inode) */
	byte dseq;		/* d_seq */
	byte hnext;		/* d_hash.next */
	byte inext;		/* d_u.d_in_lookup_hash.next */
	bit killed;		/* __dentry_kill ran, call_rcu queued */
	bit freed;		/* the RCU callback freed it */
	byte gp;		/* readers the free still waits for (thread bits) */
	byte fs_call;		/* ghost: thread inside ->atomic_open on it, or NONE */
}
dentry_t d[ND];

byte rwsem;			/* P->i_rwsem: readers (no writer in this scenario) */
byte dir_seq;			/* P->i_dir_seq */
bit main_lock;			/* dentry_hashtable["foo"] bit lock */
byte main_first = NONE;		/* dentry_hashtable["foo"] first */
bit inl_lock;			/* in_lookup_hashtable["foo"] bit lock */
byte inl_first = NONE;		/* in_lookup_hashtable["foo"] first */
byte wq[NTHREADS];		/* each thread's on-stack wait queue: sleeper bits */
bit sleeping[NTHREADS];		/* TASK_UNINTERRUPTIBLE, not yet woken */
byte rcu;			/* threads inside rcu_read_lock() (bits) */
bit server;			/* the server's entry for "foo" exists */
byte nhashed;			/* ghost: dentries on the main-hash chain for "foo" */
byte in_create;			/* ghost: O_CREAT ->atomic_open calls in flight */
byte ndone;			/* ghost: openers finished */
byte nok;			/* ghost: openers that succeeded */
byte nfail;			/* ghost: openers whose OPEN failed */
byte nalloc[NTHREADS];		/* dentries each thread allocated so far */

/* -------------------------------------------------------------------- */
/* RCU: a killed dentry is freed once every reader that was inside a      */
/* read-side section at call_rcu time has left it.                        */
/* -------------------------------------------------------------------- */
inline rcu_unlock_body() {
	rcu = rcu & ~ME;
	i = 0;
	do
	:: i < ND ->
		if
		:: d[i].killed && !d[i].freed ->
			d[i].gp = d[i].gp & ~ME;
			if
			:: d[i].gp == 0 -> d[i].freed = 1
			:: else -> skip
			fi
		:: else -> skip
		fi;
		i++
	:: else -> break
	od;
	i = 0
}

inline rcu_read_unlock() {
	d_step { rcu_unlock_body() }
}

/* __dentry_kill (d_lock held): mark dead, unlock, call_rcu(__d_free). */
inline dentry_kill(x) {
	d[x].dead = 1;
	d[x].cnt = 0;
	d[x].killed = 1;
	d[x].dlock = 0;
	d[x].gp = rcu;
	if
	:: d[x].gp == 0 -> d[x].freed = 1
	:: else -> skip
	fi
}

/* dput: fast_dput under rcu_read_lock, then retain_dentry or kill. */
inline dput(x) {
	atomic {
		CHECK_UAF(x);
		rcu = rcu | ME;
		/* lockref_put_return: a cmpxchg that fails if locked or count <= 0 */
		if
		:: !d[x].dlock && !d[x].dead && d[x].cnt > 0 ->
			d[x].cnt--;
			r = d[x].cnt
		:: else -> r = NONE
		fi
	};
	if
	:: r != NONE && r > 0 -> rcu_read_unlock()
	:: else ->
		atomic {
			!d[x].dlock -> CHECK_UAF(x); d[x].dlock = 1;
			if
			:: r == NONE ->
				/* WARN_ON_ONCE(d_lockref.count <= 0) */
				CHECK_REF_UNDERFLOW(!d[x].dead && d[x].cnt > 0);
				if
				:: !d[x].dead && d[x].cnt > 0 -> d[x].cnt--
				:: else -> skip
				fi
			:: else -> skip
			fi
		};
		d_step {
			if
			:: d[x].dead || d[x].cnt != 0 || d[x].hashed ->
				/* referenced meanwhile, already dead, or retained (hashed) */
				d[x].dlock = 0;
				rcu_unlock_body()
			:: else ->
				rcu_unlock_body();
				dentry_kill(x)
			fi
		}
	fi
}

/* lockref_get_not_dead: one cmpxchg (or the locked slow path). */
inline lockref_get_not_dead(x, ok) {
	atomic {
		!d[x].dlock -> CHECK_UAF(x);
		if
		:: d[x].dead -> ok = 0
		:: else -> d[x].cnt++; ok = 1
		fi
	}
}

/* -------------------------------------------------------------------- */
/* Main hash.                                                             */
/* -------------------------------------------------------------------- */
/* __d_lookup_rcu: lockless walk of the bucket (caller in an RCU section):
 * per dentry, raw_seqcount_begin(d_seq), the name compare and the
 * d_unhashed() test after it, then the next link. */
inline d_lookup_rcu(hit, dseq_s) {
	hit = NONE;
	id = main_first;	/* rcu_dereference(b->first) */
	do
	:: id == NONE -> break
	:: else ->
		atomic {
			CHECK_UAF(id);
			dseq_s = d[id].dseq & 254;
			if
			:: d[id].hashed -> hit = id
			:: else -> id = d[id].hnext
			fi
		};
		if
		:: hit != NONE -> break
		:: else -> skip
		fi
	od;
	id = NONE
}

/* d_lookup -> __d_lookup: walk, take each candidate's d_lock, check it is
 * still hashed, take a reference. */
inline d_lookup(res) {
	res = NONE;
	atomic { rcu = rcu | ME; id = main_first };
	do
	:: id == NONE -> break
	:: else ->
		atomic {
			!d[id].dlock -> CHECK_UAF(id);
			if
			:: d[id].hashed -> d[id].cnt++; res = id
			:: else -> id = d[id].hnext
			fi
		};
		if
		:: res != NONE -> break
		:: else -> skip
		fi
	od;
	id = NONE;
	rcu_read_unlock()
}

/* __d_rehash (d_lock held): hlist_bl_add_head_rcu under the bucket lock;
 * n->next and n->pprev before the rcu_assign_pointer of the head. */
inline d_rehash_body(x) {
	CHECK_ONE_HASHED(!d[x].hashed);
	d[x].hnext = main_first;
	d[x].hashed = 1;
	main_first = x;
	nhashed++;
	CHECK_ONE_HASHED(nhashed <= 1)
}

/* d_drop (d_lock + bucket lock): unlink, pprev = NULL, then
 * write_seqcount_invalidate(d_seq). A removed dentry keeps its next. */
inline d_drop(x) {
	atomic {
		!d[x].dlock -> CHECK_UAF(x);
		if
		:: d[x].hashed ->
			d[x].dlock = 1;
			!main_lock;
			if
			:: main_first == x -> main_first = d[x].hnext
			:: else ->
				id = main_first;
				do
				:: id == NONE -> break
				:: d[id].hnext == x -> d[id].hnext = d[x].hnext; break
				:: else -> id = d[id].hnext
				od;
				id = NONE
			fi;
			d[x].hashed = 0;
			nhashed--;
			r = 1
		:: else -> r = 0	/* unhashed: nothing, unlock */
		fi
	};
	if
	:: r == 1 -> atomic { d[x].dseq = d[x].dseq + 2; d[x].dlock = 0 }
	:: else -> skip
	fi
}

/* -------------------------------------------------------------------- */
/* In-lookup hash.                                                        */
/* -------------------------------------------------------------------- */
/* __d_lookup_unhash (d_lock held), under the in-lookup bucket lock: clear
 * PAR_LOOKUP, leave the chain, take ->d_wait (the owner's queue). */
inline d_lookup_unhash_body(x) {
	d[x].par_lookup = 0;
	if
	:: inl_first == x -> inl_first = d[x].inext
	:: else ->
		id = inl_first;
		do
		:: id == NONE -> break
		:: d[id].inext == x -> d[id].inext = d[x].inext; break
		:: else -> id = d[id].inext
		od;
		id = NONE
	fi;
	d[x].inext = NONE
}

inline wake_up_all(q) {
	i = 0;
	do
	:: i < NTHREADS ->
		if
		:: wq[q] & (1 << i) -> sleeping[i] = 0
		:: else -> skip
		fi;
		i++
	:: else -> break
	od;
	i = 0
}

/* d_lookup_done -> __d_lookup_unhash_wake: no i_dir_seq, no main hash. */
inline d_lookup_done(x) {
	if
	:: d[x].par_lookup ->
		atomic { !d[x].dlock -> CHECK_UAF(x); d[x].dlock = 1 };
		atomic { !inl_lock -> d_lookup_unhash_body(x) };
		d_step { wake_up_all(x % NTHREADS); d[x].dlock = 0 }
	:: else -> skip
	fi
}

/* __d_add (d_splice_alias of a regular file): for an in-lookup dentry,
 * open the i_dir_seq window, leave the in-lookup hash, attach the inode,
 * enter the main hash, close the window, wake; all under d_lock. */
inline d_add(x, ino) {
	atomic { !d[x].dlock -> CHECK_UAF(x); d[x].dlock = 1; inl = d[x].par_lookup };
	if
	:: inl ->
		/* start_dir_add: spin while odd; cmpxchg even -> odd */
		atomic { (dir_seq & 1) == 0 -> n = dir_seq; dir_seq++ };
		atomic { !inl_lock -> d_lookup_unhash_body(x) }
	:: else -> skip
	fi;
	/* write_seqcount_begin; d_inode = inode; write_seqcount_end;
	 * then __d_rehash: the dentry is not reachable before the head store */
	atomic {
		!main_lock ->
		if
		:: ino -> d[x].dseq = d[x].dseq + 2; d[x].positive = 1
		:: else -> skip
		fi;
		d_rehash_body(x)
	};
	if
	:: inl ->
		dir_seq = n + 2;	/* end_dir_add: smp_store_release */
#ifndef BUG_NO_WAKE
		/* smp_mb(); if (waitqueue_active(d_wait)) wake_up_all(d_wait) */
		d_step { wake_up_all(x % NTHREADS); d[x].dlock = 0 }
#else
		d[x].dlock = 0
#endif
	:: else -> d[x].dlock = 0
	fi;
	inl = 0; n = 0
}

/* d_rehash: d_lock; __d_rehash. PAR_LOOKUP stays, no window, no wake. */
inline d_rehash(x) {
	atomic { !d[x].dlock && !main_lock -> CHECK_UAF(x); d_rehash_body(x) }
}

/* d_instantiate: d_lock; d_seq write section around d_inode. */
inline d_instantiate(x) {
	atomic { !d[x].dlock -> CHECK_UAF(x); d[x].dseq = d[x].dseq + 2; d[x].positive = 1 }
}

/* -------------------------------------------------------------------- */
/* d_alloc_parallel (v6.17..7.0, wq variant).                             */
/* -------------------------------------------------------------------- */
inline d_alloc_parallel(res) {
	/* __d_alloc: count 1, unhashed, negative, PAR_LOOKUP already set */
	d_step {
		assert(nalloc[me] < MAXALLOC);	/* the model's table bound, not an invariant */
		nw = me + NTHREADS * nalloc[me];
		nalloc[me]++;
		d[nw].cnt = 1;
		d[nw].par_lookup = 1;
		d[nw].hnext = NONE;
		d[nw].inext = NONE;
		d[nw].fs_call = NONE;
		res = NONE
	};
	do
	:: res != NONE -> break
	:: else ->
		/* retry: rcu_read_lock; seq = smp_load_acquire(&dir->i_dir_seq) */
		atomic { rcu = rcu | ME; seq = dir_seq };
		d_lookup_rcu(hit, dseq_s);
		if
		:: hit != NONE ->
			lockref_get_not_dead(hit, ok);
			if
			:: !ok -> rcu_read_unlock()	/* goto retry */
			:: else ->
				/* read_seqcount_retry(&hit->d_seq, dseq) */
				atomic { CHECK_UAF(hit); ok = (d[hit].dseq == dseq_s); pinned = d[hit].hashed };
				rcu_read_unlock();
				if
				:: !ok -> dput(hit)	/* goto retry */
				:: else ->
					CHECK_DAP_RESULT(pinned);
					dput(nw);
					res = hit
				fi
			fi
#ifndef BUG_NO_PARITY
		:: hit == NONE && (seq & 1) -> rcu_read_unlock()	/* add in progress: retry */
		:: hit == NONE && !(seq & 1) ->
#else
		:: hit == NONE ->
#endif
			/* bit_spin_lock(b); re-check i_dir_seq; scan; publish or match */
			atomic {
				!inl_lock ->
#ifndef BUG_NO_RECHECK
				if
				:: dir_seq != seq -> m = NONE; ok = 0
				:: else ->
#endif
					ok = 1;
					m = inl_first;	/* every chain entry is "foo" */
					if
					:: m == NONE ->
						/* rcu_read_unlock; publish; unlock */
						rcu_unlock_body();
						d[nw].inext = inl_first;
						inl_first = nw;
						res = nw
					:: else -> skip
					fi
#ifndef BUG_NO_RECHECK
				fi
#endif
			};
			if
			:: res != NONE -> skip		/* (b): own in-lookup dentry */
			:: !ok -> rcu_read_unlock()	/* i_dir_seq moved: retry */
			:: else ->
				/* found m in-lookup: bit_unlock; lockref_get_not_dead */
#ifndef BUG_WAITER_NO_REF
				lockref_get_not_dead(m, ok);
#else
				ok = 1;
#endif
				rcu_read_unlock();
				if
				:: !ok -> skip	/* dead: retry */
				:: else ->
					/* spin_lock(&m->d_lock); d_wait_lookup(m) */
					atomic { !d[m].dlock -> CHECK_UAF(m); d[m].dlock = 1 };
					do
#ifndef BUG_NO_WAIT
					:: d[m].par_lookup ->
						/* add_wait_queue; TASK_UNINTERRUPTIBLE; unlock */
						atomic { wq[m % NTHREADS] = wq[m % NTHREADS] | ME; sleeping[me] = 1; d[m].dlock = 0 };
						/* schedule(); spin_lock(&m->d_lock) */
						atomic { !sleeping[me] && !d[m].dlock -> CHECK_UAF(m); d[m].dlock = 1 }
#endif
					:: else -> break
					od;
					/* remove_wait_queue; the d_unhashed re-check; unlock */
					atomic {
						CHECK_UAF(m);
						wq[m % NTHREADS] = wq[m % NTHREADS] & ~ME;
						pinned = d[m].hashed;
						d[m].dlock = 0
					};
					if
					:: WAITED_FOR_FAILED -> dput(m)	/* lookup failed: retry */
					:: else ->
						CHECK_DAP_RESULT(pinned || (d[m].par_lookup && m % NTHREADS == me));
#ifndef BUG_MISSING_DPUT
						dput(nw);
#endif
						res = m
					fi
				fi
			fi
		fi
	od;
	nw = NONE; hit = NONE; m = NONE; seq = 0; dseq_s = 0; ok = 0; pinned = 0
}

/* -------------------------------------------------------------------- */
/* The opener: path_openat -> lookup_open (seed 001) -> atomic_open ->    */
/* nfs_atomic_open; then close (dput).                                    */
/* -------------------------------------------------------------------- */
active [NTHREADS] proctype opener()
{
	byte me = _pid;
	byte dent = NONE;	/* the dentry lookup_open works on */
	byte nw = NONE, hit = NONE, m = NONE, id = NONE;
	byte seq, dseq_s, n, r, i;
	bit ok, pinned, inl, failed;

	/* lookup_open: create_shared (the fs opted in, no SB_I_NAMES_COLLIDE):
	 * inode_lock_shared(dir) */
	atomic { rwsem++ };
	d_lookup(dent);
	do
	:: dent == NONE -> d_alloc_parallel(dent)
	:: dent != NONE && d[dent].par_lookup -> break	/* we own it */
	:: dent != NONE && !d[dent].par_lookup ->
		/* d_revalidate: positive valid; negative valid for LOOKUP_CREATE.
		 * The seed: under the shared lock a valid negative is rejected. */
		if
		:: d[dent].positive -> break
		:: else ->
			/* d_invalidate; dput; d_alloc_parallel again */
			d_drop(dent);
			dput(dent);
			dent = NONE
		fi
	od;
	if
	:: d[dent].positive -> skip	/* goto out: opened by f_op->open */
	:: else ->
#ifdef BUG_EARLY_LOOKUP_DONE
		d_lookup_done(dent);
#endif
		/* VFS_WARN_ON_ONCE(create_shared && !d_in_lookup(dentry));
		 * nfs_atomic_open: fs_call_enter, create_begin (ghost) */
		atomic {
			CHECK_AO_IN_LOOKUP(d[dent].par_lookup);
			CHECK_ONE_FS_CALL(d[dent].fs_call == NONE || d[dent].fs_call == me);
			d[dent].fs_call = me;
			CHECK_CREATE_EXCL(in_create == 0);
			in_create++
		};
#ifdef BUG_REHASH_EARLY
		if
		:: d[dent].par_lookup -> d_rehash(dent)
		:: else -> skip
		fi;
#endif
		/* the OPEN(CREATE) round trip: one step on the server */
		atomic {
#ifdef RPC_ERROR
			if
			:: failed = 1
			:: failed = 0; server = 1
			fi
#else
			server = 1
#endif
		};
		if
		:: failed -> d_drop(dent)	/* -EIO */
		:: else ->
			/* _nfs4_open_and_get_state: d_drop; d_splice_alias(inode) */
#if defined(BUG_REHASH)
			d_drop(dent);
			d_instantiate(dent);
			d_rehash(dent)
#elif defined(BUG_REHASH_EARLY)
			d_instantiate(dent)
#elif defined(BUG_PUBLISH_NEGATIVE)
			d_drop(dent);
			d_add(dent, 0)
#else
			d_drop(dent);
			d_add(dent, 1)
#endif
		fi;
		/* fs_call_exit, create_end (ghost) */
		atomic {
			if
			:: d[dent].fs_call == me -> d[dent].fs_call = NONE
			:: else -> skip
			fi;
			in_create--
		};
		/* atomic_open: d_lookup_done as soon as the method returns */
		d_lookup_done(dent);
		if
		:: failed -> dput(dent); dent = NONE
		:: else -> skip
		fi
	fi;
	/* out: inode_unlock_shared(dir) */
	atomic { rwsem-- };
	/* path_openat done; close: __fput -> dput */
	if
	:: dent != NONE ->
		atomic {
			CHECK_ONE_INODE(d[dent].positive && server);
			nok++
		};
		dput(dent)
#ifdef BUG_DOUBLE_DPUT
		; dput(dent)
#endif
	:: else -> atomic { nfail++ }
	fi;
	/* the last opener checks the final state */
	d_step {
		ndone++;
		if
		:: ndone == NTHREADS ->
			i = 0;
			do
			:: i < ND ->
				if
				:: nalloc[i % NTHREADS] > i / NTHREADS && !d[i].killed ->
					CHECK_REF_LEAK(d[i].cnt == 0 && !d[i].dead);
					CHECK_REF_LEAK(!d[i].par_lookup);
					CHECK_REF_LEAK(d[i].hashed)
				:: else -> skip
				fi;
				i++
			:: else -> break
			od;
			CHECK_ONE_INODE(nok + nfail == NTHREADS);
			CHECK_ONE_INODE(nok == 0 || nhashed == 1)
		:: else -> skip
		fi
	}
}
