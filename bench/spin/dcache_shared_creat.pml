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
 *   gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 * (bench/spin.sh runs 2..5 threads; tests/spin_test.sh the broken variants.)
 *
 * Memory model: sequential consistency (SPIN has no other). Each Promela
 * statement or atomic{} block is one step. What is one step:
 *  - a section under a lock that touches only data that lock protects:
 *    lock, body and unlock together (d_lookup's d_lock section; the
 *    in-lookup bucket section of d_alloc_parallel: i_dir_seq re-check, scan,
 *    publish; __d_lookup_unhash; dput's locked part);
 *  - __d_lookup_rcu's walk of the main-hash chain, as reference 9.2 has it;
 *  - a lock acquisition joins the step after it, an rcu_read_unlock or a
 *    lock release the step before it (Lipton: acquires move right, releases
 *    left), e.g. lockref_get_not_dead + rcu_read_unlock + spin_lock(d_lock)
 *    + the in-lookup test of d_wait_lookup;
 *  - the put, kill and free of d_alloc_parallel's own unused dentry, which
 *    no other thread ever saw;
 *  - ghost bookkeeping rides on the step next to it.
 * Every access another thread can observe without a lock is its own step:
 * the i_dir_seq sample, the start_dir_add cmpxchg, end_dir_add's store, the
 * main-hash head store of __d_rehash, lockref's cmpxchg fast paths, the
 * d_seq re-check, the server's OPEN.
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
 *                               inode and reports success (with -DMAXALLOC=3:
 *                               the others reject the negative and allocate
 *                               again)
 *  -DRPC_ERROR                  (not a bug) the OPEN may fail, as vfsmc's
 *                               rpc_error knob
 * Assertions can be switched off one by one (-DNO_INV_ONE_HASHED, ...) so a
 * variant can be shown to reach a later one. pan names a failed assertion by
 * its expression; tests/spin_test.sh lists which expression is which.
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

/* The two hlist_bl bucket bit locks (main hash and in-lookup hash of "foo")
 * are not variables: every section under one of them is a single atomic
 * step here, so no other thread ever sees one held. */
byte rwsem;			/* P->i_rwsem: readers (no writer in this scenario) */
byte dir_seq;			/* P->i_dir_seq */
byte main_first = NONE;		/* dentry_hashtable["foo"] first */
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

/* The end of the run: the last opener checks the final state. */
inline finish() {
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
		i = 0;
		CHECK_ONE_INODE(nok + nfail == NTHREADS);
		CHECK_ONE_INODE(nok == 0 || nhashed == 1)
	:: else -> skip
	fi
}

/* __dentry_kill (d_lock held, RCU section left): mark dead, call_rcu. */
inline dentry_kill(x) {
	d[x].dead = 1;
	d[x].cnt = 0;
	d[x].killed = 1;
	d[x].gp = rcu;
	if
	:: d[x].gp == 0 -> d[x].freed = 1
	:: else -> skip
	fi
}

/* dput: fast_dput (lockref_put_return under rcu_read_lock), then, if the
 * count went to zero or the fast path failed, the d_lock section that
 * retains a hashed dentry or kills an unhashed one. fin: this is the
 * opener's last step. */
inline dput(x, fin) {
	atomic {
		CHECK_UAF(x);
		/* lockref_put_return: a cmpxchg that fails if locked or count <= 0 */
		if
		:: !d[x].dlock && !d[x].dead && d[x].cnt > 1 ->
			d[x].cnt--; r = 1	/* still referenced: done */
			if
			:: fin -> finish()
			:: else -> skip
			fi
		:: !d[x].dlock && !d[x].dead && d[x].cnt == 1 ->
			d[x].cnt = 0; r = 0; rcu = rcu | ME
		:: else -> r = NONE; rcu = rcu | ME
		fi
	};
	if
	:: r == 1 -> skip
	:: else ->
		/* spin_lock(d_lock); [the slow put]; retain or __dentry_kill */
		atomic {
			!d[x].dlock -> CHECK_UAF(x);
			if
			:: r == NONE ->
				/* WARN_ON_ONCE(d_lockref.count <= 0) */
				CHECK_REF_UNDERFLOW(!d[x].dead && d[x].cnt > 0);
				if
				:: !d[x].dead && d[x].cnt > 0 -> d[x].cnt--
				:: else -> skip
				fi
			:: else -> skip
			fi;
			if
			:: d[x].dead || d[x].cnt != 0 || d[x].hashed ->
				rcu_unlock_body()
			:: else ->
				rcu_unlock_body();
				dentry_kill(x)
			fi;
			if
			:: fin -> finish()
			:: else -> skip
			fi
		}
	fi;
	r = 0
}

/* dput of d_alloc_parallel's own new dentry when it is not used: nobody
 * else ever saw it, so the put, the kill and the RCU free are one step. */
inline dput_private(x) {
	CHECK_UAF(x);
	CHECK_REF_UNDERFLOW(d[x].cnt == 1);
	d[x].cnt = 0;
	d[x].dead = 1;
	d[x].killed = 1;
	d[x].freed = 1
}

/* -------------------------------------------------------------------- */
/* Main hash.                                                             */
/* -------------------------------------------------------------------- */
/* __d_lookup_rcu, one step (reference 9.2): the first dentry on the chain
 * that is still hashed (raw_seqcount_begin(d_seq) sampled), or NONE. */
inline d_lookup_rcu_walk(hit, dseq_s) {
	hit = NONE;
	id = main_first;
	do
	:: id == NONE -> break
	:: else ->
		CHECK_UAF(id);
		if
		:: d[id].hashed -> hit = id; dseq_s = d[id].dseq & 254; break
		:: else -> id = d[id].hnext
		fi
	od;
	id = NONE
}

/* __d_rehash (d_lock held), under the main bucket lock. */
inline d_rehash_body(x) {
	CHECK_ONE_HASHED(!d[x].hashed);
	d[x].hnext = main_first;
	d[x].hashed = 1;
	main_first = x;
	nhashed++;
	CHECK_ONE_HASHED(nhashed <= 1)
}

/* d_drop / d_invalidate: under d_lock and the bucket lock unlink and clear
 * pprev, then write_seqcount_invalidate(d_seq) and unlock. A removed
 * dentry keeps its next. Unhashed: lock, test, unlock (one step). */
inline d_drop(x) {
	atomic {
		!d[x].dlock -> CHECK_UAF(x);
		if
		:: d[x].hashed ->
			d[x].dlock = 1;
			if
			:: main_first == x -> main_first = d[x].hnext
			:: else ->
				id = main_first;
				do
				:: id == NONE -> break
				:: id != NONE && d[id].hnext == x -> d[id].hnext = d[x].hnext; break
				:: else -> id = d[id].hnext
				od;
				id = NONE
			fi;
			d[x].hashed = 0;
			nhashed--;
			r = 1
		:: else -> r = 0
		fi
	};
	if
	:: r == 1 -> atomic { d[x].dseq = d[x].dseq + 2; d[x].dlock = 0; r = 0 }
	:: else -> skip
	fi
}

/* -------------------------------------------------------------------- */
/* In-lookup hash.                                                        */
/* -------------------------------------------------------------------- */
/* __d_lookup_unhash (d_lock held), under the in-lookup bucket lock: clear
 * PAR_LOOKUP, leave the chain (->d_wait is the owner's queue). */
inline d_lookup_unhash_body(x) {
	d[x].par_lookup = 0;
	if
	:: inl_first == x -> inl_first = d[x].inext
	:: else ->
		id = inl_first;
		do
		:: id == NONE -> break
		:: id != NONE && d[id].inext == x -> d[id].inext = d[x].inext; break
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

/* d_lookup_done -> __d_lookup_unhash_wake: d_lock, unhash, wake, unlock;
 * never i_dir_seq or the main hash. */
inline d_lookup_done(x) {
	atomic {
		!d[x].dlock -> CHECK_UAF(x); d[x].dlock = 1;
		d_lookup_unhash_body(x)
	};
	atomic { wake_up_all(x % NTHREADS); d[x].dlock = 0 }
}

/* __d_add (d_splice_alias of a regular file): for an in-lookup dentry,
 * open the i_dir_seq window, leave the in-lookup hash, attach the inode,
 * enter the main hash, close the window and wake; all under d_lock. */
inline d_add(x, ino) {
	/* spin_lock(d_lock); start_dir_add: spin while odd, cmpxchg even -> odd */
	atomic {
		!d[x].dlock && (!d[x].par_lookup || (dir_seq & 1) == 0) ->
		CHECK_UAF(x); d[x].dlock = 1; inl = d[x].par_lookup;
		if
		:: inl -> n = dir_seq; dir_seq++
		:: else -> skip
		fi
	};
	if
	:: inl -> atomic { d_lookup_unhash_body(x) }
	:: else -> skip
	fi;
	/* d_seq write section around d_inode; __d_rehash: the dentry is not
	 * reachable from the main hash before the head store */
	atomic {
		if
		:: ino -> d[x].dseq = d[x].dseq + 2; d[x].positive = 1
		:: else -> skip
		fi;
		d_rehash_body(x)
	};
	/* end_dir_add: smp_store_release(i_dir_seq, n + 2); smp_mb();
	 * waitqueue_active(d_wait) -> wake_up_all; spin_unlock(d_lock) */
	atomic {
		if
		:: inl ->
			dir_seq = n + 2;
#ifndef BUG_NO_WAKE
			wake_up_all(x % NTHREADS);
#endif
			skip
		:: else -> skip
		fi;
		d[x].dlock = 0;
		inl = 0; n = 0
	}
}

/* d_rehash: d_lock; __d_rehash. PAR_LOOKUP stays, no window, no wake. */
inline d_rehash(x) {
	atomic { !d[x].dlock -> CHECK_UAF(x); d_rehash_body(x) }
}

/* d_instantiate: d_lock; d_seq write section around d_inode. */
inline d_instantiate(x) {
	atomic { !d[x].dlock -> CHECK_UAF(x); d[x].dseq = d[x].dseq + 2; d[x].positive = 1 }
}

/* -------------------------------------------------------------------- */
/* d_alloc_parallel (v6.17..7.0, wq variant). Returns a hashed dentry     */
/* with a reference, or its own new dentry published in-lookup.          */
/* -------------------------------------------------------------------- */
inline d_alloc_parallel(res) {
	res = NONE;
	do
	:: res != NONE -> break
	:: else ->
		/* [first pass: __d_alloc, count 1, PAR_LOOKUP set (e95db51c)]
		 * retry: rcu_read_lock; seq = smp_load_acquire(&dir->i_dir_seq) */
		atomic {
			if
			:: nw == NONE ->
				assert(nalloc[me] < MAXALLOC);	/* the model's table bound */
				nw = me + NTHREADS * nalloc[me];
				nalloc[me]++;
				d[nw].cnt = 1;
				d[nw].par_lookup = 1;
				d[nw].hnext = NONE;
				d[nw].inext = NONE;
				d[nw].fs_call = NONE
			:: else -> skip
			fi;
			rcu = rcu | ME;
			seq = dir_seq
		};
		/* __d_lookup_rcu; on a miss, an odd sample retries */
		atomic {
			d_lookup_rcu_walk(hit, dseq_s);
			ok = 1;
#ifndef BUG_NO_PARITY
			if
			:: hit == NONE && (seq & 1) -> rcu_unlock_body(); ok = 0
			:: else -> skip
			fi
#endif
		};
		if
		:: !ok -> skip	/* retry */
		:: ok && hit != NONE ->
			/* lockref_get_not_dead(hit) */
			atomic {
				!d[hit].dlock -> CHECK_UAF(hit);
				if
				:: d[hit].dead -> ok = 0; rcu_unlock_body()
				:: else -> d[hit].cnt++
				fi
			};
			if
			:: !ok -> skip	/* retry */
			:: else ->
				/* read_seqcount_retry(&hit->d_seq, dseq); rcu_read_unlock */
				atomic {
					CHECK_UAF(hit);
					ok = (d[hit].dseq == dseq_s);
					pinned = d[hit].hashed;
					rcu_unlock_body();
					if
					:: ok ->
						CHECK_DAP_RESULT(pinned);
						dput_private(nw);
						res = hit
					:: else -> skip
					fi
				};
				if
				:: !ok -> dput(hit, 0)	/* retry */
				:: else -> skip
				fi
			fi
		:: ok && hit == NONE ->
			/* bit_spin_lock(b); re-check i_dir_seq; scan the chain;
			 * publish ours (rcu_read_unlock first) or take the match */
			atomic {
#ifndef BUG_NO_RECHECK
				if
				:: dir_seq != seq -> ok = 0; rcu_unlock_body()
				:: else ->
#endif
					m = inl_first;	/* every chain entry is "foo" */
					if
					:: m == NONE ->
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
			:: !ok -> skip		/* i_dir_seq moved: retry */
			:: res != NONE -> skip	/* our own in-lookup dentry */
			:: else ->
				/* found m in-lookup: bit_spin_unlock; lockref_get_not_dead;
				 * rcu_read_unlock; spin_lock(d_lock); d_wait_lookup: if
				 * still in-lookup, add_wait_queue, TASK_UNINTERRUPTIBLE,
				 * unlock, schedule() */
				atomic {
					!d[m].dlock -> CHECK_UAF(m);
#ifndef BUG_WAITER_NO_REF
					if
					:: d[m].dead -> ok = 0
					:: else -> d[m].cnt++
					fi;
#endif
					rcu_unlock_body();
					if
					:: ok ->
						inl = d[m].par_lookup;
#ifndef BUG_NO_WAIT
						if
						:: inl ->
							wq[m % NTHREADS] = wq[m % NTHREADS] | ME;
							sleeping[me] = 1
						:: else -> skip
						fi
#endif
					:: else -> skip
					fi
				};
				if
				:: !ok -> skip	/* dead: retry */
				:: else ->
#ifndef BUG_NO_WAIT
					do
					:: inl ->
						/* woken: spin_lock(d_lock); still in-lookup? */
						atomic {
							!sleeping[me] && !d[m].dlock -> CHECK_UAF(m);
							inl = d[m].par_lookup;
							if
							:: inl -> sleeping[me] = 1
							:: else -> skip
							fi
						}
					:: else -> break
					od;
#endif
					/* remove_wait_queue; not hashed after the wait: retry;
					 * spin_unlock(d_lock) */
					atomic {
						CHECK_UAF(m);
						wq[m % NTHREADS] = wq[m % NTHREADS] & ~ME;
						pinned = d[m].hashed;
						if
						:: WAITED_FOR_FAILED -> ok = 0
						:: else ->
							CHECK_DAP_RESULT(pinned || (d[m].par_lookup && m % NTHREADS == me));
#ifndef BUG_MISSING_DPUT
							dput_private(nw);
#endif
							res = m
						fi
					};
					if
					:: !ok -> dput(m, 0)	/* retry */
					:: else -> skip
					fi
				fi
			fi
		fi
	od;
	nw = NONE; hit = NONE; m = NONE; seq = 0; dseq_s = 0; ok = 0; pinned = 0; inl = 0
}

/* -------------------------------------------------------------------- */
/* The opener: path_openat -> lookup_open (seed 001: create_shared, the   */
/* parent shared) -> atomic_open -> nfs_atomic_open; then close (dput).   */
/* -------------------------------------------------------------------- */
active [NTHREADS] proctype opener()
{
	byte me = _pid;
	byte dent = NONE;	/* the dentry lookup_open works on */
	byte nw = NONE, hit = NONE, m = NONE, id = NONE;
	byte seq, dseq_s, n, r, i;
	bit ok, pinned, inl, failed, own;

	/* inode_lock_shared(dir); d_lookup: the walk under rcu_read_lock,
	 * d_lock on the candidate, d_unhashed test, a reference (one step) */
	atomic {
		rwsem++;
		id = main_first;
		do
		:: id == NONE -> break
		:: else ->
			!d[id].dlock -> CHECK_UAF(id);
			if
			:: d[id].hashed -> d[id].cnt++; dent = id; break
			:: else -> id = d[id].hnext
			fi
		od;
		id = NONE
	};
	do
	:: dent == NONE -> d_alloc_parallel(dent)
	:: else ->
		/* d_in_lookup(dentry): ours, break; else d_revalidate: positive
		 * valid, negative valid for LOOKUP_CREATE but rejected under the
		 * shared lock (seed). Ours: VFS_WARN_ON_ONCE(create_shared &&
		 * !d_in_lookup), ->atomic_open begins (ghost). Positive: goto out,
		 * inode_unlock_shared. */
		atomic {
			if
			:: d[dent].par_lookup -> own = 1;
#ifndef BUG_EARLY_LOOKUP_DONE
				CHECK_AO_IN_LOOKUP(d[dent].par_lookup);
				CHECK_ONE_FS_CALL(d[dent].fs_call == NONE || d[dent].fs_call == me);
				d[dent].fs_call = me;
				CHECK_CREATE_EXCL(in_create == 0);
				in_create++
#endif
			:: !d[dent].par_lookup && d[dent].positive ->
				own = 0; ok = 1;
				rwsem--;
				CHECK_ONE_INODE(d[dent].positive && server);
				nok++
			:: else -> own = 0; ok = 0	/* rejected */
			fi
		};
		if
		:: own || ok -> break
		:: else ->
			/* d_invalidate; dput; dentry = NULL */
			d_drop(dent);
			dput(dent, 0);
			dent = NONE
		fi
	od;
	if
	:: own ->
#ifdef BUG_EARLY_LOOKUP_DONE
		d_lookup_done(dent);
		atomic {
			CHECK_AO_IN_LOOKUP(d[dent].par_lookup);
			CHECK_ONE_FS_CALL(d[dent].fs_call == NONE || d[dent].fs_call == me);
			d[dent].fs_call = me;
			CHECK_CREATE_EXCL(in_create == 0);
			in_create++
		};
#endif
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
		/* ->atomic_open returns (ghost); atomic_open: d_lookup_done if
		 * still in-lookup; on success, out: inode_unlock_shared */
		atomic {
			if
			:: d[dent].fs_call == me -> d[dent].fs_call = NONE
			:: else -> skip
			fi;
			in_create--;
			inl = d[dent].par_lookup;
			if
			:: !inl && !failed ->
				rwsem--;
				CHECK_ONE_INODE(d[dent].positive && server);
				nok++
			:: else -> skip
			fi
		};
		if
		:: inl ->
			d_lookup_done(dent);
			if
			:: !failed -> atomic { rwsem--; CHECK_ONE_INODE(d[dent].positive && server); nok++ }
			:: else -> skip
			fi
		:: else -> skip
		fi;
		inl = 0;
		if
		:: failed -> atomic { rwsem--; nfail++ }; dput(dent, 1); dent = NONE
		:: else -> skip
		fi
	:: else -> skip
	fi;
	/* close: __fput -> dput */
	if
	:: dent != NONE ->
#ifdef BUG_DOUBLE_DPUT
		dput(dent, 0);
#endif
		dput(dent, 1)
	:: else -> skip
	fi
}
