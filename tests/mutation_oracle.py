#!/usr/bin/env python3
"""The bounded-search oracle: dpor's verdict is at least as strong as the
preemption-bounded search's, on the real models and on every mutation.

    tests/mutation_oracle.py [--build DIR] [-j N] [--bound B] [--time-limit S]
                             [--only MUTATION]... [--scenario FILE]... [--expect-miss]

For the unmutated models (row "none") and for every mutation of `vfsmc list
--mutations` (checker/contract/mutations.h), it runs each scenario the
mutation applies to (scenarios/<model>/ for a model's mutation, all of
scenarios/ for the layer's) twice with VFSMC_MUTATION set: `--strategy
bounded --bound B` and `--strategy dpor`, both with `--first` and a time
limit. A reduction of dpor (a stale-read cut, the lock handoff rule, sleep
sets, and every reduction added later) may only drop executions that
another explored execution stands for, so wherever the bounded search finds
a violation, dpor must find one too: a dpor `holds` there is a miss, and
the script exits 1. A dpor search cut by its time limit before it found
anything is listed as not compared (inconclusive, never `holds`).

--expect-miss inverts the exit code: 0 when at least one miss was found.
The suite uses it with the test-only unsound cut (VFSMC_TEST_STALE_CUT=
reorder-unsound, checker/search/reorder_cut.h) to show that the oracle
catches it.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--build", default=os.path.join(here, "build"), help="the build directory holding vfsmc")
ap.add_argument("-j", "--jobs", type=int, default=2, help="runs in parallel")
ap.add_argument("--bound", type=int, default=2, help="the bounded search's preemption bound")
ap.add_argument("--time-limit", type=int, default=300, help="seconds per search")
ap.add_argument("--only", action="append", default=[], help="only this mutation ('none': the real models; repeatable)")
ap.add_argument("--scenario", action="append", default=[], help="only this scenario file (repeatable)")
ap.add_argument("--expect-miss", action="store_true", help="exit 0 only if a miss is found")
args = ap.parse_args()

vfsmc = os.path.join(args.build, "vfsmc")
if not os.access(vfsmc, os.X_OK):
    sys.exit(f"mutation_oracle: --build: {vfsmc} is not an executable; accepted: a build directory holding vfsmc")
os.chdir(here)

rows = [("none", "layer")]
for line in subprocess.run([vfsmc, "list", "--mutations"], check=True, capture_output=True, text=True).stdout.splitlines():
    name, model, _doc, _equivalent = line.split("\t")
    rows.append((name, model))
known = {r[0] for r in rows}
for o in args.only:
    if o not in known:
        sys.exit(f"mutation_oracle: --only: unknown mutation \"{o}\"; accepted: {', '.join(sorted(known))}")
if args.only:
    rows = [r for r in rows if r[0] in args.only]


def scenarios_of(model):
    dirs = ["scenarios"] if model == "layer" else [os.path.join("scenarios", m) for m in model.split(",")]
    files = []
    for d in dirs:
        for root, _subdirs, names in os.walk(d):
            files += [os.path.join(root, n) for n in names if n.endswith(".json")]
    files.sort()
    if args.scenario:
        wanted = {os.path.normpath(f) for f in args.scenario}
        files = [f for f in files if os.path.normpath(f) in wanted]
    return files


def run(mutation, strategy, f):
    env = dict(os.environ)
    env.pop("VFSMC_MUTATION", None)
    if mutation != "none":
        env["VFSMC_MUTATION"] = mutation
    cmd = [vfsmc, "run", "--json", "--no-progress", "--first", "--strategy", strategy,
           "--time-limit", str(args.time_limit), f]
    if strategy == "bounded":
        cmd[cmd.index("--strategy") + 2:cmd.index("--strategy") + 2] = ["--bound", str(args.bound)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.time_limit + 120)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} (VFSMC_MUTATION={mutation}): exit {p.returncode}: {p.stderr.strip()[:300]}")
    r = json.loads(p.stdout)
    return r["verdict"], r.get("invariant", ""), r["counts"]["executions"]


jobs = [(m, f) for m, model in rows for f in scenarios_of(model)]
if not jobs:
    sys.exit("mutation_oracle: no scenario to run; accepted: --scenario files under the mutation's model directory")
t0 = time.time()
misses, compared, skipped = [], 0, []


def one(job):
    m, f = job
    b = run(m, "bounded", f)
    d = run(m, "dpor", f) if b[0] == "violated" else None
    return m, f, b, d


with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
    for m, f, b, d in ex.map(one, jobs):
        if d is None:
            print(f"      {m}: {f}: bounded {args.bound} {b[0]} ({b[2]} executions)", flush=True)
            continue
        compared += 1
        if d[0] == "violated":
            print(f"ok    {m}: {f}: bounded {args.bound} violated {b[1]}, dpor violated {d[1]} ({d[2]} executions)", flush=True)
            continue
        line = f"{m}: {f}: bounded {args.bound} violated {b[1]} ({b[2]} executions), dpor {d[0]} ({d[2]} executions)"
        if d[0] == "inconclusive":
            skipped.append(line)
        else:
            misses.append(line)
            print("MISS  " + line, flush=True)

for s in skipped:
    print("not compared (dpor inconclusive)  " + s)
print(f"mutation_oracle: {len(jobs)} runs of {len(rows)} row(s), {compared} bounded violations compared, "
      f"{len(misses)} missed by dpor, {len(skipped)} not compared, {time.time() - t0:.0f} s")
if args.expect_miss:
    sys.exit(0 if misses else 1)
sys.exit(1 if misses else 0)
