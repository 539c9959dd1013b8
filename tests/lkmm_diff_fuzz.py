#!/usr/bin/env python3
"""Differential test of the `kernel` memory model against the executable LKMM.

    tests/lkmm_diff_fuzz.py VFSMC COUNT SEED [-j N] [--keep DIR]

Writes COUNT random litmus tests (2 to 4 threads over two or three
locations: WRITE_ONCE, READ_ONCE, smp_store_release, smp_load_acquire,
xchg_relaxed, smp_mb, smp_wmb, smp_rmb, and synchronize_rcu or a spinlock
around some accesses; an exists clause over registers and final values)
from SEED, answers each with `vfsmc litmus --oracle` (linux-kernel.cat in
C++) and with `vfsmc litmus` (the operational model), and compares them.
The generated set (`vfsmc litmus --generate`) covers the classic cycles
with one ordering per thread; these tests cover what it does not: several
orderings in one thread, several stores to one location, conditions on
final values, four threads.

The condition names every register and every location, so that the
States lines list every final outcome. A finished search whose outcomes
differ from the oracle's fails the test: an outcome the LKMM allows and
vfsmc never reaches (a miss), or one vfsmc reaches and the LKMM forbids (a
false alarm); so does a decided answer that differs. An `inconclusive` answer (the 60 s limit, or the value bound), or a test the oracle does not judge within its own limit,
is counted and printed; more than 3% of them fails the test too. A run of
vfsmc that gives no answer at all (an error) fails the test, on one line.

--locks puts spinlock critical sections of two locks in every test,
several per thread, with control dependencies: load buffering into and
out of sections, and a lock taken after the thread's own unlock.
--max-miss-tests N lets up to N tests miss outcomes (the class
docs/memory-model.md documents: a conditional RMW reads the latest store,
which --wide tests reach); a false alarm always fails. --wide adds
cmpxchg, the atomic RMWs, smp_mb__{before,after}_atomic, data and control
dependencies and RCU read-side sections. --plain adds C plain loads and
stores, and compares herd7's data-race flag too: an answer that differs
only in the flag is a miss (the oracle flags, vfsmc does not) or a false
alarm (the other way). A search cut by the time limit after both kinds
of outcome (its Sometimes is from the states it saw) counts as
inconclusive. --mutation NAME runs the operational model with a layer
mutation (`vfsmc list --mutations`), and --expect-false-alarm inverts the
verdict: the test then passes only when some outcome is a false alarm,
which shows that this comparison notices a broken memory-model rule.
"""
import argparse
import concurrent.futures as cf
import os
import random
import re
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("vfsmc")
ap.add_argument("count", type=int)
ap.add_argument("seed", type=int)
ap.add_argument("-j", "--jobs", type=int, default=2)
ap.add_argument("--keep", help="write the tests into this directory and keep them")
ap.add_argument("--mutation", help="run the operational model with this layer mutation")
ap.add_argument("--max-miss-tests", type=int, default=0, help="tests that may miss outcomes (and nothing else)")
ap.add_argument("--expect-false-alarm", action="store_true", help="pass only if some outcome is a false alarm")
ap.add_argument("--plain", action="store_true",
                help="draw plain loads and stores too (r = *x; *x = v;), and compare the data-race flag")
ap.add_argument("--locks", action="store_true",
                help="draw spinlock critical sections in every test, of two locks, several per thread "
                     "(load buffering into and out of sections, a lock after the thread's own unlock)")
ap.add_argument("--wide", action="store_true",
                help="draw from more primitives: cmpxchg, the atomic RMWs with their orderings, "
                     "smp_mb__{before,after}_atomic, data and control dependencies, RCU read-side sections")
args = ap.parse_args()

LOCS = ["x", "y", "z"]


def program(rng, name):
    """One random test, or None when it has no register to ask about."""
    nthr = rng.choice([2, 3, 3, 4])
    locs = LOCS[: rng.choice([2, 2, 3])]
    val = {l: 0 for l in locs}
    locked = args.locks or rng.random() < 0.25
    locks = ["s", "t"] if args.locks else ["s"]
    kinds = ["w", "w", "r", "r", "rel", "acq", "mb", "wmb", "rmb", "xchg", "lock" if locked else "sync"]
    if args.locks:
        kinds += ["lock", "lock", "ctrl"]
    if args.wide:
        kinds += ["cmpxchg", "atomic", "atomic", "fetch", "mbatomic", "data", "ctrl"] + ([] if locked else ["rcu"])
    if args.plain:
        kinds += ["pw", "pr", "pw", "pr"]
    threads, regs_of = [], []
    for t in range(nthr):
        body, regs, held, inrcu = [], [], None, False
        for _ in range(rng.choice([2, 2, 3, 3, 4])):
            kind, l = rng.choice(kinds), rng.choice(locs)
            if kind in ("data", "ctrl") and not regs:
                kind = "r"
            if kind == "sync" and inrcu:
                kind = "mb"
            if kind == "data":
                val[l] += 1
                src = rng.choice(regs)[0]
                body.append(f"WRITE_ONCE(*{l}, {src});" if rng.random() < 0.5 else f"WRITE_ONCE(*{l}, {src} + {val[l]});")
            elif kind == "ctrl":
                val[l] += 1
                src = rng.choice(regs)[0]
                body.append(f"if ({src}) {{ WRITE_ONCE(*{l}, {val[l]}); }}")
            elif kind == "cmpxchg":
                r = f"r{len(regs)}"
                regs.append((r, l))
                val[l] += 1
                suffix = rng.choice(["", "_relaxed", "_acquire", "_release"])
                body.append(f"{r} = cmpxchg{suffix}({l}, {rng.randint(0, max(1, val[l] - 1))}, {val[l]});")
            elif kind == "atomic":
                val[l] += 1
                body.append(rng.choice([f"atomic_inc({l});", f"atomic_add(1, {l});", f"atomic_sub(1, {l});"]))
            elif kind == "fetch":
                r = f"r{len(regs)}"
                regs.append((r, l))
                val[l] += 1
                op = rng.choice(["atomic_fetch_add", "atomic_add_return", "atomic_inc_return"])
                suffix = rng.choice(["", "_relaxed", "_acquire", "_release"])
                arg = f"{l}" if op == "atomic_inc_return" else f"1, {l}"
                body.append(f"{r} = {op}{suffix}({arg});")
            elif kind == "mbatomic":
                body.append(rng.choice(["smp_mb__before_atomic();", "smp_mb__after_atomic();"]))
            elif kind == "rcu":
                body.append("rcu_read_unlock();" if inrcu else "rcu_read_lock();")
                inrcu = not inrcu
            elif kind == "pw":
                val[l] += 1
                body.append(f"*{l} = {val[l]};")
            elif kind == "pr":
                r = f"r{len(regs)}"
                regs.append((r, l))
                body.append(f"{r} = *{l};")
            elif kind in ("w", "rel"):
                val[l] += 1
                body.append(f"WRITE_ONCE(*{l}, {val[l]});" if kind == "w" else f"smp_store_release({l}, {val[l]});")
            elif kind in ("r", "acq", "xchg"):
                r = f"r{len(regs)}"
                regs.append((r, l))
                if kind == "r":
                    body.append(f"{r} = READ_ONCE(*{l});")
                elif kind == "acq":
                    body.append(f"{r} = smp_load_acquire({l});")
                else:
                    val[l] += 1
                    body.append(f"{r} = xchg_relaxed({l}, {val[l]});")
            elif kind == "lock":
                if held:
                    body.append(f"spin_unlock({held});")
                    held = None
                else:
                    # One lock draws nothing: the tests of a seed without
                    # --locks stay the ones they were.
                    held = rng.choice(locks) if len(locks) > 1 else locks[0]
                    body.append(f"spin_lock({held});")
            else:
                body.append({"mb": "smp_mb();", "wmb": "smp_wmb();", "rmb": "smp_rmb();", "sync": "synchronize_rcu();"}[kind])
        if held:
            body.append(f"spin_unlock({held});")
        if inrcu:
            body.append("rcu_read_unlock();")
        threads.append(body)
        regs_of.append(regs)
    asked = [(t, r, l) for t in range(nthr) for (r, l) in regs_of[t]]
    if not asked:
        return None
    # Every register and every location is named, so that the States lines
    # list every outcome; the values asked for are random.
    terms = [f"{t}:{r}={rng.randint(0, max(1, val[l]))}" for (t, r, l) in asked]
    terms += [f"{l}={rng.randint(0, max(1, val[l]))}" for l in locs]
    params = ", ".join(f"int *{l}" for l in locs) + ("".join(f", spinlock_t *{k}" for k in locks) if locked else "")
    text = f"C {name}\n\n{{\n}}\n\n"
    for t, body in enumerate(threads):
        text += f"P{t}({params})\n{{\n"
        text += "".join(f"\tint {r};\n" for (r, _) in regs_of[t])
        text += ("\n" if regs_of[t] else "") + "".join(f"\t{s}\n" for s in body) + "}\n\n"
    return text + "exists (" + " /\\ ".join(terms) + ")\n"


def answer(extra, path):
    """The answer (with " DATARACE" when the data-race flag is raised), and
    the set of outcomes the States lines list."""
    p = subprocess.run([args.vfsmc, "litmus"] + extra + [path], capture_output=True, text=True, timeout=600)
    m = re.search(r"^Observation \S+ (\w+)", p.stdout, re.M)
    if not m:
        last = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return f"error ({last})", set()
    states = re.search(r"^States \d+\n(.*?)^(?:Ok|No)$", p.stdout, re.M | re.S)
    flag = " DATARACE" if re.search(r"^Flag data-race", p.stdout, re.M) else ""
    # A search cut by its limit after both kinds of outcome answers
    # Sometimes from the states it saw: not a full set to compare.
    if "which showed both kinds of outcome" in p.stderr:
        return "inconclusive (cut: Sometimes from the states seen)" + flag, set()
    return m.group(1) + flag, set(states.group(1).splitlines()) if states else set()


def judge(path):
    mutation = ["--mutation", args.mutation] if args.mutation else []
    return path, answer(["--oracle"], path), answer(["--time-limit", "60"] + mutation, path)


out = args.keep or tempfile.mkdtemp(prefix="lkmm-diff-")
os.makedirs(out, exist_ok=True)
rng = random.Random(args.seed)
paths = []
for k in range(args.count):
    name = f"diff-{args.seed}-{k}"
    text = program(rng, name)
    if text is None:
        continue
    path = os.path.join(out, name + ".litmus")
    with open(path, "w") as f:
        f.write(text)
    paths.append(path)

agree = inconclusive = unjudged = 0
missing, alarms, errors = [], [], []
with cf.ThreadPoolExecutor(args.jobs) as ex:
    for path, (oracle, allowed), (op, reached) in ex.map(judge, paths):
        if oracle.split()[0] not in ("Always", "Sometimes", "Never"):
            unjudged += 1
            print(f"not judged by the oracle {path}: {oracle}")
        elif oracle == op and allowed == reached:
            agree += 1
        elif op.startswith("error"):
            # No answer at all (a limit of the interpreter, a crash): one
            # line, not every outcome the LKMM allows as a miss.
            errors.append(path)
            print(f"FAIL (error) {path}: vfsmc gave no answer: {op}")
        elif not op.startswith("inconclusive") and allowed != reached:
            (alarms if reached - allowed else missing).append(path)
            for st in sorted(allowed - reached):
                print(f"FAIL (miss) {path}: the LKMM allows {st.strip()} and vfsmc never reaches it")
            for st in sorted(reached - allowed):
                print(f"FAIL (false alarm) {path}: vfsmc reaches {st.strip()} and the LKMM forbids it")
        elif op.startswith("inconclusive"):
            inconclusive += 1
            print(f"inconclusive {path}: the LKMM says {oracle}")
        else:
            # The same outcomes: the answers differ in the data-race flag.
            what = ("false alarm" if op.endswith("DATARACE") else "miss") if allowed == reached else \
                   "miss" if op.startswith("Never") else "false alarm" if oracle.startswith("Never") else "difference"
            (missing if what == "miss" else alarms).append(path)
            print(f"FAIL ({what}) {path}: vfsmc {op}, the LKMM {oracle}")
print(f"{agree} agree, {len(missing)} with misses only, {len(alarms)} with false alarms, {inconclusive} inconclusive, "
      f"{unjudged} not judged by the oracle, {len(errors)} without an answer, of {len(paths)} tests (seed {args.seed})")
if missing or alarms or errors:
    print("the tests that differ are kept in " + out)
if args.expect_false_alarm:
    sys.exit(0 if alarms else 1)
if len(missing) > args.max_miss_tests:
    print(f"more tests miss outcomes than --max-miss-tests {args.max_miss_tests}")
sys.exit(1 if alarms or errors or len(missing) > args.max_miss_tests or inconclusive + unjudged > 0.03 * len(paths) else 0)
