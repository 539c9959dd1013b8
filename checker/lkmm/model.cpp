// lkmm: the LKMM's relations and axioms, in the order linux-kernel.bell,
// lock.cat and linux-kernel.cat define them (mainline: the Mb tags of
// full-barrier RMWs, `Noreturn`, SRCU read sections matched by the data
// dependency of the index, po-unlock-lock-po through po or rf, and
// lock.cat's LF/RU events for spin_trylock() and spin_is_locked()). Each
// definition carries its cat text in a comment; the C++ beneath is that
// text in relation.h's operators.
#include "lkmm/model.h"

#include <algorithm>

namespace vfsmc {
namespace lkmm {

const std::vector<MutationName> kMutations = {
    {Mutation::NoCoherence, "no-coherence"},
    {Mutation::NoAtomicity, "no-atomicity"},
    {Mutation::NoHappensBefore, "no-happens-before"},
    {Mutation::NoPropagation, "no-propagation"},
    {Mutation::NoRcu, "no-rcu"},
    {Mutation::NoPlainCoherence, "no-plain-coherence"},
    {Mutation::NoRfeInHb, "no-rfe-in-hb"},
    {Mutation::NoGpInStrongFence, "no-gp-in-strong-fence"},
    {Mutation::NoACumul, "no-a-cumul"},
    {Mutation::NoPoRelInCumulFence, "no-po-rel-in-cumul-fence"},
    {Mutation::NoDepInPpo, "no-dep-in-ppo"},
    {Mutation::NoFenceInPpo, "no-fence-in-ppo"},
    {Mutation::NoRmwMb, "no-rmw-mb"},
    {Mutation::NoUnlockLockPo, "no-unlock-lock-po"},
    {Mutation::NoLockAcquire, "no-lock-acquire"},
    {Mutation::NoRcuReadSection, "no-rcu-read-section"},
    {Mutation::NoSrcuLoc, "no-srcu-loc"},
};

std::vector<std::string> flag_names(uint32_t f) {
    // herd7 prints its flags in the order of their names.
    std::vector<std::string> out;
    if (f & FLAG_DATA_RACE) out.push_back("data-race");
    if (f & FLAG_INVALID_SLEEP) out.push_back("invalid-sleep");
    if (f & FLAG_MIXED_ACCESSES) out.push_back("mixed-accesses");
    if (f & FLAG_MIXED_LOCK_ACCESSES) out.push_back("mixed-lock-accesses");
    if (f & FLAG_MULTIPLE_SRCU_MATCHES) out.push_back("multiple-srcu-matches");
    if (f & FLAG_SRCU_BAD_VALUE_MATCH) out.push_back("srcu-bad-value-match");
    if (f & FLAG_UNMATCHED_RCU_LOCK) out.push_back("unmatched-rcu-lock");
    if (f & FLAG_UNMATCHED_RCU_UNLOCK) out.push_back("unmatched-rcu-unlock");
    if (f & FLAG_UNMATCHED_SRCU_LOCK) out.push_back("unmatched-srcu-lock");
    if (f & FLAG_UNMATCHED_SRCU_UNLOCK) out.push_back("unmatched-srcu-unlock");
    if (f & FLAG_UNMATCHED_UNLOCK) out.push_back("unmatched-unlock");
    return out;
}

// One function, about 360 lines, on purpose: it is linux-kernel.bell,
// lock.cat and linux-kernel.cat transcribed definition by definition, in
// their order, each under its cat text, and a later definition reads the
// earlier ones as the cat files' `let`s do. Split into functions it would
// no longer read against those files line for line.
Judgement judge(const Execution& x, Mutation mut) {
    const int n = x.n;
    Judgement J;
    auto fail = [&](const char* axiom) {
        J.allowed = false;
        J.failed = axiom;
        return J;
    };
    Set all;
    for (int i = 0; i < n; i++) all[i] = true;
    auto id = [&](const Set& s) { return Rel::id(n, s); };
    auto cross = [&](const Set& a, const Set& b) { return Rel::cross(n, a, b); };

    // ---- The events, by herd7's classes.
    Set IW, Rb, Wb, Fence, LKR, LKW, UL, LF, RU, SrcuLock, SrcuUnlock, SyncSrcu, RMWs, ONCEt, ACQt, RELt, MBt, NORETt;
    Set Rmb, Wmb, Barrier, RcuLock, RcuUnlock, SyncRcu, BeforeAtomic, AfterAtomic, AfterSpinlock, AfterUnlockLock,
        AfterSrcuReadUnlock;
    for (int i = 0; i < n; i++) {
        const Event& e = x.ev[i];
        uint32_t t = e.tags;
        if (e.thread < 0) IW[i] = true;
        if (e.kind == Kind::R && e.lock == LockOp::None) Rb[i] = true;
        if (e.kind == Kind::W && e.lock == LockOp::None) Wb[i] = true;
        if (e.kind == Kind::F) Fence[i] = true;
        if (e.kind == Kind::SyncSrcu) SyncSrcu[i] = true;
        switch (e.lock) {
            case LockOp::LKR: LKR[i] = true; break;
            case LockOp::LKW: LKW[i] = true; break;
            case LockOp::UL: UL[i] = true; break;
            case LockOp::LF: LF[i] = true; break;
            case LockOp::RU: RU[i] = true; break;
            case LockOp::None: break;
        }
        RMWs[i] = t & RMW;
        ONCEt[i] = t & ONCE;
        ACQt[i] = t & ACQUIRE;
        RELt[i] = t & RELEASE;
        MBt[i] = t & MB;
        NORETt[i] = t & NORETURN;
        SrcuLock[i] = t & SRCU_LOCK;
        SrcuUnlock[i] = t & SRCU_UNLOCK;
        Rmb[i] = t & F_RMB;
        Wmb[i] = t & F_WMB;
        Barrier[i] = t & F_BARRIER;
        RcuLock[i] = t & F_RCU_LOCK;
        RcuUnlock[i] = t & F_RCU_UNLOCK;
        SyncRcu[i] = t & F_SYNC_RCU;
        BeforeAtomic[i] = t & F_BEFORE_ATOMIC;
        AfterAtomic[i] = t & F_AFTER_ATOMIC;
        AfterSpinlock[i] = t & F_AFTER_SPINLOCK;
        AfterUnlockLock[i] = t & F_AFTER_UNLOCK_LOCK;
        AfterSrcuReadUnlock[i] = t & F_AFTER_SRCU_READ_UNLOCK;
    }
    const Set Mb0 = Rb | Wb;  // the bell's M: ordinary accesses only

    // ---- herd7's structural relations: po, int/ext, loc.
    Rel po(n), intr(n), loc(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const Event &a = x.ev[i], &b = x.ev[j];
            if (a.thread >= 0 && a.thread == b.thread) {
                intr.add(i, j);
                if (x.pos[i] < x.pos[j]) po.add(i, j);
            }
            if (a.loc >= 0 && a.loc == b.loc) loc.add(i, j);
        }
    const Rel ext = cross(all, all) - intr - id(all);
    const Rel poloc = po & loc;
    auto fencerel = [&](const Set& s) { return po.to(s).seq(po); };  // fencerel(S) = (po & (_ * S)) ; po

    // ---- linux-kernel.bell
    const Rel rmw0 = x.rmw;
    // let FailedRMW = RMW \ (domain(rmw) | range(rmw))
    const Set FailedRMW = RMWs & ~(rmw0.domain() | rmw0.range());
    // let Acquire = ACQUIRE \ W \ FailedRMW ;  let Release = RELEASE \ R \ FailedRMW
    Set Acquire = ACQt & ~Wb & ~FailedRMW;
    Set Release = RELt & ~Rb & ~FailedRMW;
    // let Mb = MB \ FailedRMW ;  let Noreturn = NORETURN \ W
    const Set Mb = MBt & ~FailedRMW;
    const Set Noreturn = NORETt & ~Wb;
    const Rel rf0 = x.rf;
    const Rel data0 = x.data;
    // let rcu-rscs = let rec ... matched  (nested rcu_read_lock/unlock pairs)
    Rel rcu_rscs(n);
    {
        std::vector<std::vector<int>> stack(8);
        std::vector<int> order(n);
        for (int i = 0; i < n; i++) order[i] = i;
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return x.ev[a].thread != x.ev[b].thread ? x.ev[a].thread < x.ev[b].thread : x.pos[a] < x.pos[b];
        });
        for (int i : order) {
            int t = x.ev[i].thread;
            if (t < 0) continue;
            if ((int)stack.size() <= t) stack.resize(t + 1);
            if (RcuLock[i]) stack[t].push_back(i);
            else if (RcuUnlock[i] && !stack[t].empty()) {
                rcu_rscs.add(stack[t].back(), i);
                stack[t].pop_back();
            }
        }
    }
    // flag ~empty Rcu-lock \ domain(rcu-rscs) as unmatched-rcu-lock (and -unlock)
    uint32_t flags = 0;
    if ((RcuLock & ~rcu_rscs.domain()).any()) flags |= FLAG_UNMATCHED_RCU_LOCK;
    if ((RcuUnlock & ~rcu_rscs.range()).any()) flags |= FLAG_UNMATCHED_RCU_UNLOCK;
    // let carry-srcu-data = (data ; [~ Srcu-unlock] ; rf)*
    const Rel carry_srcu_data = data0.to(~SrcuUnlock).seq(rf0).star();
    // let srcu-rscs = ([Srcu-lock] ; carry-srcu-data ; data ; [Srcu-unlock]) & loc
    const Rel srcu_rscs = carry_srcu_data.seq(data0).restrict(SrcuLock, SrcuUnlock) & loc;
    if ((SrcuLock & ~srcu_rscs.domain()).any()) flags |= FLAG_UNMATCHED_SRCU_LOCK;
    if ((SrcuUnlock & ~srcu_rscs.range()).any()) flags |= FLAG_UNMATCHED_SRCU_UNLOCK;
    // flag ~empty (srcu-rscs^-1 ; srcu-rscs) \ id as multiple-srcu-matches
    if (!(srcu_rscs.inv().seq(srcu_rscs) - id(all)).empty()) flags |= FLAG_MULTIPLE_SRCU_MATCHES;
    // flag ~empty rcu-rscs & (po ; [Sync-srcu] ; po) as invalid-sleep
    if (!(rcu_rscs & po.to(SyncSrcu).seq(po)).empty()) flags |= FLAG_INVALID_SLEEP;
    // flag ~empty different-values(srcu-rscs) as srcu-bad-value-match
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (srcu_rscs.has(i, j) && x.ev[i].value != x.ev[j].value) flags |= FLAG_SRCU_BAD_VALUE_MATCH;
    // let Marked = (~M) | IW | ONCE | RELEASE | ACQUIRE | MB | RMW |
    //         LKR | LKW | UL | LF | RL | RU | Srcu-lock | Srcu-unlock
    const Set Marked = ~Mb0 | IW | ONCEt | RELt | ACQt | MBt | RMWs | LKR | LKW | UL | LF | RU | SrcuLock | SrcuUnlock;
    // let Plain = M \ Marked
    const Set Plain = Mb0 & ~Marked & all;
    // let carry-dep = (data ; [~ Srcu-unlock] ; rfi)*
    const Rel carry_dep = data0.to(~SrcuUnlock).seq(rf0 & intr).star();
    // let addr = carry-dep ; addr ;  let ctrl = carry-dep ; ctrl ;  let data = carry-dep ; data
    Rel addr = carry_dep.seq(x.addr);
    Rel ctrl = carry_dep.seq(x.ctrl);
    Rel data = carry_dep.seq(data0);

    // ---- lock.cat
    // let lk-rmw = ([LKR] ; po-loc ; [LKW]) \ (po ; po)
    const Rel lk_rmw = poloc.restrict(LKR, LKW) - po.seq(po);
    // let rmw = rmw | lk-rmw
    const Rel rmw = rmw0 | lk_rmw;
    // empty ([LKW] ; po-loc ; [LKR]) \ (po-loc ; [UL] ; po-loc) as lock-nest
    if (!(poloc.restrict(LKW, LKR) - poloc.to(UL).seq(poloc)).empty()) return fail("lock-nest");
    // empty ([LKW] ; po-loc ; [RU]) \ (po-loc ; [UL] ; po-loc) as nested-is-locked
    if (!(poloc.restrict(LKW, RU) - poloc.to(UL).seq(poloc)).empty()) return fail("nested-is-locked");
    // let ALL-LOCKS = LKR | LKW | UL | LF | RU | Srcu-lock | Srcu-unlock | Sync-srcu
    // flag ~empty [M \ IW \ ALL-LOCKS] ; loc ; [ALL-LOCKS] as mixed-lock-accesses
    {
        const Set all_locks = LKR | LKW | UL | LF | RU | SrcuLock | SrcuUnlock | SyncSrcu;
        if (!loc.restrict(Mb0 & ~IW & ~all_locks, all_locks).empty()) flags |= FLAG_MIXED_LOCK_ACCESSES;
    }
    // let R = R | LKR | LF | RU ;  let W = W | LKW
    const Set R = Rb | LKR | LF | RU;
    Set W = Wb | LKW | IW;
    // let Release = Release | UL ;  let Acquire = Acquire | LKR
    if (mut != Mutation::NoLockAcquire) {
        Release |= UL;
        Acquire |= LKR;
    }
    // let critical = ([LKW] ; po-loc ; [UL]) \ (po-loc ; [LKW | UL] ; po-loc)
    const Rel critical = poloc.restrict(LKW, UL) - poloc.to(LKW | UL).seq(poloc);
    // flag ~empty UL \ range(critical) as unmatched-unlock
    if ((UL & ~critical.range()).any()) flags |= FLAG_UNMATCHED_UNLOCK;
    // let UNMATCHED-LKW = LKW \ domain(critical)
    const Set UnmatchedLKW = LKW & ~critical.domain();
    // empty ([UNMATCHED-LKW] ; loc ; [UNMATCHED-LKW]) \ id as unmatched-locks
    if (!(loc.restrict(UnmatchedLKW, UnmatchedLKW) - id(all)).empty()) return fail("unmatched-locks");
    // let co0 = co0 | ([IW] ; loc ; [LKW]) | (([LKW] ; loc ; [UNMATCHED-LKW]) \ [UNMATCHED-LKW])
    // (co is generated to contain co0: a candidate whose co does not is not generated)
    {
        Rel co0 = loc.restrict(IW, LKW) | (loc.restrict(LKW, UnmatchedLKW) - id(UnmatchedLKW));
        if (!(co0 - x.co).empty()) return fail("co0");
    }
    // let W = W | UL ;  let M = R | W
    W |= UL;
    const Set M = R | W;
    // let co = (co | critical | (critical^-1 ; co))+
    const Rel co = (x.co | critical | critical.inv().seq(x.co)).plus();
    // let rf = rf | ([IW | UL] ; singlestep(co) ; lk-rmw^-1)
    const Rel singlestep_co = co - co.seq(co);
    const Rel rf = rf0 | singlestep_co.from(IW | UL).seq(lk_rmw.inv());
    const Rel rfe = rf & ext, rfi = rf & intr;
    const Rel coe = co & ext;
    // let fr = rf^-1 ; co
    const Rel fr = rf.inv().seq(co);
    const Rel fre = fr & ext;
    J.rf = rf;
    J.co = co;

    // ---- linux-kernel.cat: basic relations
    // let acq-po = [Acquire] ; po ; [M] ;  let po-rel = [M] ; po ; [Release]
    const Rel acq_po = po.restrict(Acquire, M);
    const Rel po_rel = po.restrict(M, Release);
    // let po-unlock-lock-po = po ; [UL] ; (po|rf) ; [LKR] ; po
    Rel po_unlock_lock_po = po.to(UL).seq((po | rf).to(LKR)).seq(po);
    if (mut == Mutation::NoUnlockLockPo) po_unlock_lock_po = Rel(n);
    // let R4rmb = R \ Noreturn
    const Set R4rmb = R & ~Noreturn;
    // let rmb = [R4rmb] ; fencerel(Rmb) ; [R4rmb]
    const Rel rmb = fencerel(Rmb).restrict(R4rmb, R4rmb);
    // let wmb = [W] ; fencerel(Wmb) ; [W]
    const Rel wmb = fencerel(Wmb).restrict(W, W);
    // let mb = ([M] ; fencerel(Mb) ; [M]) |
    //     ([M] ; po ; [Mb & R]) | ([Mb & W] ; po ; [M]) |
    //     ([M] ; fencerel(Before-atomic) ; [RMW] ; po? ; [M]) |
    //     ([M] ; po? ; [RMW] ; fencerel(After-atomic) ; [M]) |
    //     ([M] ; po? ; [LKW] ; fencerel(After-spinlock) ; [M]) |
    //     ([M] ; po-unlock-lock-po ; [After-unlock-lock] ; po ; [M]) |
    //     ([M] ; po? ; [Srcu-unlock] ; fencerel(After-srcu-read-unlock) ; [M])
    const Set MbUsed = mut == Mutation::NoRmwMb ? Mb & Fence : Mb;
    Rel mb = fencerel(MbUsed).restrict(M, M);
    if (mut != Mutation::NoRmwMb) mb |= po.restrict(M, Mb & R) | po.restrict(Mb & W, M);
    mb |= fencerel(BeforeAtomic).to(RMWs).seq(po.opt()).restrict(M, M);
    mb |= po.opt().to(RMWs).seq(fencerel(AfterAtomic)).restrict(M, M);
    mb |= po.opt().to(LKW).seq(fencerel(AfterSpinlock)).restrict(M, M);
    mb |= po_unlock_lock_po.to(AfterUnlockLock).seq(po).restrict(M, M);
    mb |= po.opt().to(SrcuUnlock).seq(fencerel(AfterSrcuReadUnlock)).restrict(M, M);
    // let gp = po ; [Sync-rcu | Sync-srcu] ; po?
    const Rel gp = po.to(SyncRcu | SyncSrcu).seq(po.opt());
    // let strong-fence = mb | gp
    const Rel strong_fence = mut == Mutation::NoGpInStrongFence ? mb : mb | gp;
    // let nonrw-fence = strong-fence | po-rel | acq-po
    const Rel nonrw_fence = strong_fence | po_rel | acq_po;
    // let fence = nonrw-fence | wmb | rmb
    const Rel fence = nonrw_fence | wmb | rmb;

    // ---- coherence and atomicity
    // let com = rf | co | fr ;  acyclic po-loc | com as coherence
    if (mut != Mutation::NoCoherence && !(poloc | rf | co | fr).acyclic()) return fail("coherence");
    // empty rmw & (fre ; coe) as atomic
    if (mut != Mutation::NoAtomicity && !(rmw & fre.seq(coe)).empty()) return fail("atomic");

    // ---- preserved program order
    if (mut == Mutation::NoDepInPpo) addr = data = ctrl = Rel(n);
    // let dep = addr | data ;  let rwdep = (dep | ctrl) ; [W]
    const Rel dep = addr | data;
    const Rel rwdep = (dep | ctrl).to(W);
    // let overwrite = co | fr
    const Rel overwrite = co | fr;
    // let to-w = rwdep | (overwrite & int) | (addr ; [Plain] ; wmb)
    const Rel to_w = rwdep | (overwrite & intr) | addr.to(Plain).seq(wmb);
    // let to-r = (addr ; [R]) | (dep ; [Marked] ; rfi)
    const Rel to_r = addr.to(R) | dep.to(Marked).seq(rfi);
    // let ppo = to-r | to-w | (fence & int) | (po-unlock-lock-po & int)
    Rel ppo = to_r | to_w | (po_unlock_lock_po & intr);
    if (mut != Mutation::NoFenceInPpo) ppo |= fence & intr;

    // ---- propagation
    // let A-cumul(r) = (rfe ; [Marked])? ; r
    auto a_cumul = [&](const Rel& r) { return mut == Mutation::NoACumul ? r : rfe.to(Marked).opt().seq(r); };
    // let rmw-sequence = (rf ; rmw)*
    const Rel rmw_sequence = rf.seq(rmw).star();
    // let cumul-fence = [Marked] ; (A-cumul(strong-fence | po-rel) | wmb |
    //         po-unlock-lock-po) ; [Marked] ; rmw-sequence
    const Rel cumul_base = mut == Mutation::NoPoRelInCumulFence ? strong_fence : strong_fence | po_rel;
    const Rel cumul_fence = (a_cumul(cumul_base) | wmb | po_unlock_lock_po).restrict(Marked, Marked).seq(rmw_sequence);
    // let prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ; [Marked] ; rfe? ; [Marked]
    const Rel prop = (overwrite & ext).opt().from(Marked).seq(cumul_fence.star()).to(Marked).seq(rfe.opt()).to(Marked);
    // let hb = [Marked] ; (ppo | rfe | ((prop \ id) & int)) ; [Marked]
    Rel hb_body = ppo | ((prop - id(all)) & intr);
    if (mut != Mutation::NoRfeInHb) hb_body |= rfe;
    const Rel hb = hb_body.restrict(Marked, Marked);
    // acyclic hb as happens-before
    if (mut != Mutation::NoHappensBefore && !hb.acyclic()) return fail("happens-before");
    const Rel hb_star = hb.star();
    // let pb = prop ; strong-fence ; hb* ; [Marked]
    const Rel pb = prop.seq(strong_fence).seq(hb_star).to(Marked);
    // acyclic pb as propagation
    if (mut != Mutation::NoPropagation && !pb.acyclic()) return fail("propagation");
    const Rel pb_star = pb.star();

    // ---- RCU
    // let rcu-gp = [Sync-rcu] ;  let srcu-gp = [Sync-srcu]
    const Rel rcu_gp = id(SyncRcu), srcu_gp = id(SyncSrcu);
    // let rcu-rscsi = rcu-rscs^-1 ;  let srcu-rscsi = srcu-rscs^-1
    const Rel rcu_rscsi = rcu_rscs.inv(), srcu_rscsi = srcu_rscs.inv();
    // let rcu-link = po? ; hb* ; pb* ; prop ; po
    const Rel rcu_link = po.opt().seq(hb_star).seq(pb_star).seq(prop).seq(po);
    // let rec rcu-order = rcu-gp | srcu-gp |
    //     (rcu-gp ; rcu-link ; rcu-rscsi) | ((srcu-gp ; rcu-link ; srcu-rscsi) & loc) |
    //     (rcu-rscsi ; rcu-link ; rcu-gp) | ((srcu-rscsi ; rcu-link ; srcu-gp) & loc) |
    //     (rcu-gp ; rcu-link ; rcu-order ; rcu-link ; rcu-rscsi) |
    //     ((srcu-gp ; rcu-link ; rcu-order ; rcu-link ; srcu-rscsi) & loc) |
    //     (rcu-rscsi ; rcu-link ; rcu-order ; rcu-link ; rcu-gp) |
    //     ((srcu-rscsi ; rcu-link ; rcu-order ; rcu-link ; srcu-gp) & loc) |
    //     (rcu-order ; rcu-link ; rcu-order)
    const Rel sloc = mut == Mutation::NoSrcuLoc ? cross(all, all) : loc;
    Rel rcu_order(n);
    for (;;) {
        Rel next = rcu_gp | srcu_gp;
        if (mut != Mutation::NoRcuReadSection) {
            const Rel gl = rcu_gp.seq(rcu_link), sgl = srcu_gp.seq(rcu_link);
            const Rel rl = rcu_rscsi.seq(rcu_link), srl = srcu_rscsi.seq(rcu_link);
            const Rel lo = rcu_link.seq(rcu_order).seq(rcu_link);
            next |= gl.seq(rcu_rscsi) | (sgl.seq(srcu_rscsi) & sloc) | rl.seq(rcu_gp) | (srl.seq(srcu_gp) & sloc);
            next |= rcu_gp.seq(lo).seq(rcu_rscsi) | (srcu_gp.seq(lo).seq(srcu_rscsi) & sloc) |
                    rcu_rscsi.seq(lo).seq(rcu_gp) | (srcu_rscsi.seq(lo).seq(srcu_gp) & sloc);
        }
        next |= rcu_order.seq(rcu_link).seq(rcu_order);
        if (next == rcu_order) break;
        rcu_order = next;
    }
    // let rcu-fence = po ; rcu-order ; po?
    const Rel rcu_fence = po.seq(rcu_order).seq(po.opt());
    // let fence = fence | rcu-fence ;  let strong-fence = strong-fence | rcu-fence
    const Rel fence2 = fence | rcu_fence;
    const Rel strong_fence2 = strong_fence | rcu_fence;
    // let rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
    const Rel rb = prop.seq(rcu_fence).seq(hb_star).seq(pb_star).to(Marked);
    // irreflexive rb as rcu
    if (mut != Mutation::NoRcu && !rb.irreflexive()) return fail("rcu");

    // ---- plain accesses and data races
    // let xbstar = (hb | pb | rb)*
    const Rel xbstar = (hb | pb | rb).star();
    // let vis = cumul-fence* ; rfe? ; [Marked] ;
    //     ((strong-fence ; [Marked] ; xbstar) | (xbstar & int))
    const Rel vis = cumul_fence.star().seq(rfe.opt()).to(Marked).seq(strong_fence2.to(Marked).seq(xbstar) | (xbstar & intr));
    // let w-pre-bounded = [Marked] ; (addr | fence)?
    const Rel w_pre_bounded = (addr | fence2).opt().from(Marked);
    // let r-pre-bounded = [Marked] ; (addr | nonrw-fence | ([R4rmb] ; fencerel(Rmb) ; [~Noreturn]))?
    const Rel r_pre_bounded = (addr | nonrw_fence | fencerel(Rmb).restrict(R4rmb, ~Noreturn)).opt().from(Marked);
    // let w-post-bounded = fence? ; [Marked] ; rmw-sequence
    const Rel w_post_bounded = fence2.opt().to(Marked).seq(rmw_sequence);
    // let r-post-bounded = (nonrw-fence | ([~Noreturn] ; fencerel(Rmb) ; [R4rmb]))? ; [Marked]
    const Rel r_post_bounded = (nonrw_fence | fencerel(Rmb).restrict(~Noreturn, R4rmb)).opt().to(Marked);
    // let ww-vis = fence | (strong-fence ; xbstar ; w-pre-bounded) | (w-post-bounded ; vis ; w-pre-bounded)
    const Rel ww_vis = fence2 | strong_fence2.seq(xbstar).seq(w_pre_bounded) | w_post_bounded.seq(vis).seq(w_pre_bounded);
    // let wr-vis = fence | (strong-fence ; xbstar ; r-pre-bounded) | (w-post-bounded ; vis ; r-pre-bounded)
    const Rel wr_vis = fence2 | strong_fence2.seq(xbstar).seq(r_pre_bounded) | w_post_bounded.seq(vis).seq(r_pre_bounded);
    // let rw-xbstar = fence | (r-post-bounded ; xbstar ; w-pre-bounded)
    const Rel rw_xbstar = fence2 | r_post_bounded.seq(xbstar).seq(w_pre_bounded);
    // let pre-race = ext & ((Plain * M) | ((M \ IW) * Plain))
    const Rel pre_race = ext & (cross(Plain, M) | cross(M & ~IW, Plain));
    if (mut != Mutation::NoPlainCoherence) {
        // let wr-incoh = pre-race & rf & rw-xbstar^-1
        // let rw-incoh = pre-race & fr & wr-vis^-1
        // let ww-incoh = pre-race & co & ww-vis^-1
        // empty (wr-incoh | rw-incoh | ww-incoh) as plain-coherence
        const Rel incoh = (pre_race & rf & rw_xbstar.inv()) | (pre_race & fr & wr_vis.inv()) | (pre_race & co & ww_vis.inv());
        if (!incoh.empty()) return fail("plain-coherence");
    }
    // let ww-nonrace = ww-vis & ((Marked * W) | rw-xbstar) & ((W * Marked) | wr-vis)
    const Rel ww_nonrace = ww_vis & (cross(Marked, W) | rw_xbstar) & (cross(W, Marked) | wr_vis);
    // let ww-race = (pre-race & co) \ ww-nonrace
    const Rel ww_race = (pre_race & co) - ww_nonrace;
    // let wr-race = (pre-race & (co? ; rf)) \ wr-vis \ rw-xbstar^-1
    const Rel wr_race = (pre_race & co.opt().seq(rf)) - wr_vis - rw_xbstar.inv();
    // let rw-race = (pre-race & fr) \ rw-xbstar
    const Rel rw_race = (pre_race & fr) - rw_xbstar;
    // flag ~empty (ww-race | wr-race | rw-race) as data-race
    if (!(ww_race | wr_race | rw_race).empty()) flags |= FLAG_DATA_RACE;

    // let barrier = fencerel(Barrier | Rmb | Wmb | Mb | Sync-rcu | Sync-srcu |
    //         Before-atomic | After-atomic | Acquire | Release |
    //         Rcu-lock | Rcu-unlock | Srcu-lock | Srcu-unlock) |
    //     (po ; [Release]) | ([Acquire] ; po)
    const Rel barrier = fencerel(Barrier | Rmb | Wmb | Mb | SyncRcu | SyncSrcu | BeforeAtomic | AfterAtomic | Acquire |
                                 Release | RcuLock | RcuUnlock | SrcuLock | SrcuUnlock) |
                        po.to(Release) | po.from(Acquire);
    // let mixed-accesses = ([Plain & W] ; (po-loc \ barrier) ; [Marked]) |
    //     ([Marked] ; (po-loc \ barrier) ; [Plain & W])
    const Rel pl = poloc - barrier;
    if (!(pl.restrict(Plain & W, Marked & M) | pl.restrict(Marked & M, Plain & W)).empty()) flags |= FLAG_MIXED_ACCESSES;

    J.allowed = true;
    J.flags = flags;
    return J;
}

}  // namespace lkmm
}  // namespace vfsmc
