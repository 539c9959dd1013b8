#!/usr/bin/env python3
"""dpor against the bounded search on scenarios nobody wrote.

    tests/scenario_oracle.py VFSMC SOURCE_DIR COUNT SEED [-j N] [--bound B]
                             [--time-limit S] [--expect-miss] [--keep DIR]
                             [--parallel]

The mutation oracle (tests/mutation_oracle.py) compares dpor with the plain
search on the scenarios of the repository. This one makes new scenarios:
for each case it picks a model, one or two threads whose op lists come from
different scenarios of that model, a config and an initial state from a
third, and a memory model, and runs dpor (the default search, complete) and
the bounded search with B preemptions on it. The bounded search explores a
subset of every interleaving, so wherever it finds a violation, a dpor
`holds (complete)` is a miss: an unsound reduction (the DPOR rules, the
commuting adds, the identical-threads rule, the stale-read cuts). A
combination the loader rejects (exit 2: an op that needs a knob the config
lacks, say) is counted and skipped; a dpor search cut by its time limit is
counted as not compared, never as `holds`. Any other exit code, or an error
of more than one line, fails the run.

With --parallel each case also runs the one dpor search over two worker
processes (`--jobs 2`, search/parallel.h): where both it and the serial
search end, their verdicts must be the same (a difference fails the run,
in either direction).

Deterministic for a seed. Exit 0 when nothing missed; 1 on a miss (each
one printed with its scenario, kept in --keep DIR); with --expect-miss the
other way round, so that the suite can show it catches the test-only
unsound cuts (VFSMC_TEST_STALE_CUT=reorder-unsound, VFSMC_TEST_SYMMETRY=
mutant).
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("vfsmc")
ap.add_argument("src")
ap.add_argument("count", type=int)
ap.add_argument("seed", type=int)
ap.add_argument("-j", type=int, default=1)
ap.add_argument("--bound", type=int, default=2)
ap.add_argument("--time-limit", type=float, default=30)
ap.add_argument("--expect-miss", action="store_true")
ap.add_argument("--keep", default=None)
ap.add_argument("--parallel", action="store_true")
a = ap.parse_args()
if not (os.path.isfile(a.vfsmc) and os.access(a.vfsmc, os.X_OK)):
    sys.exit(f"scenario_oracle: {a.vfsmc} is not an executable; accepted: the vfsmc binary")
if a.count < 1 or a.bound < 0 or a.time_limit <= 0 or a.j < 1:
    sys.exit("scenario_oracle: COUNT and -j must be positive, --bound at least 0, --time-limit positive")

files = sorted(f for f in glob.glob(os.path.join(a.src, "scenarios", "**", "*.json"), recursive=True)
               if os.path.basename(f) != "explorations.lock")
by_model = collections.defaultdict(list)
for f in files:
    with open(f) as fh:
        d = json.load(fh)
    by_model[d["model"]].append(d)
if not by_model:
    sys.exit(f"scenario_oracle: no scenario under {a.src}/scenarios; accepted: the source tree")
models = sorted(by_model)


def copy(x):
    return json.loads(json.dumps(x))


def make(rng, i):
    """Case i: a scenario recombined from the repository's, as a dict."""
    pool = by_model[rng.choice(models)]
    s = copy(rng.choice(pool))
    threads = []
    for k in range(rng.choice([1, 2, 2, 2])):
        t = copy(rng.choice(rng.choice(pool)["threads"]))
        t["name"] = f"P{k}"
        threads.append(t)
    s["threads"] = threads
    s["config"] = copy(rng.choice(pool).get("config", {}))
    init = rng.choice(pool).get("init")
    if init is not None and rng.random() < 0.5:
        s["init"] = copy(init)
    s["memory_model"] = rng.choice(["sc", "kernel"])
    s["name"] = f"case{i}"
    s["search"] = {"strategy": "dpor"}
    s["expect"] = "holds"
    for k in ("$schema", "order"):
        s.pop(k, None)
    return s


rng = random.Random(a.seed)
cases = [make(rng, i) for i in range(a.count)]
tmp = tempfile.mkdtemp(prefix="scenario-oracle-")


def run(path, extra):
    try:
        r = subprocess.run([a.vfsmc, "run", "--json", "--no-progress", "--first"] + extra + [path],
                           capture_output=True, timeout=a.time_limit * 4 + 60)
    except subprocess.TimeoutExpired:
        return None, "ran past its time limit"
    err = r.stderr.decode("utf-8", "replace").strip()
    if r.returncode == 2:
        if len(err.splitlines()) != 1:
            return None, f"exit 2 with {len(err.splitlines())} lines on stderr"
        return "rejected", err
    if r.returncode not in (0, 1):
        return None, f"exit {r.returncode}: {err[:300]}"
    j = json.loads(r.stdout)
    return j, None


def one(i):
    path = os.path.join(tmp, f"case{i}.json")
    with open(path, "w") as fh:
        json.dump(cases[i], fh, indent=1)
    d, e = run(path, ["--time-limit", str(a.time_limit)])
    if d is None:
        return i, "error", f"dpor: {e}"
    if d == "rejected":
        return i, "rejected", e
    b, e = run(path, ["--strategy", "bounded", "--bound", str(a.bound), "--time-limit", str(a.time_limit)])
    if b is None or b == "rejected":
        return i, "error", f"bounded: {e}"
    dv = d["verdict"] if d.get("scope") == "complete" or d["verdict"] != "holds" else "inconclusive"
    bv = b["verdict"]
    if bv == "violated" and dv == "holds":
        return i, "miss", f"dpor holds (complete), the bounded search finds a violation ({b.get('invariant', '?')})"
    if a.parallel:
        p, e = run(path, ["--jobs", "2", "--time-limit", str(a.time_limit)])
        if p is None or p == "rejected":
            return i, "error", f"--jobs 2: {e}"
        pv = p["verdict"] if p.get("scope") == "complete" or p["verdict"] != "holds" else "inconclusive"
        if "inconclusive" not in (dv, pv) and pv != dv:
            return i, "miss", f"serial dpor {dv}, --jobs 2 {pv}"
    return i, f"dpor {dv}, bounded {bv}", None


counts = collections.Counter()
misses, errors = [], []
with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
    for i, kind, why in ex.map(one, range(a.count)):
        counts[kind] += 1
        if kind == "miss":
            misses.append(i)
            print(f"MISS case{i}: {why}")
        elif kind == "error":
            errors.append(i)
            print(f"ERROR case{i}: {why}")
if a.keep:
    os.makedirs(a.keep, exist_ok=True)
    for i in misses + errors:
        shutil.copy(os.path.join(tmp, f"case{i}.json"), a.keep)
shutil.rmtree(tmp, ignore_errors=True)
summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
print(f"scenario_oracle: {a.count} cases (seed {a.seed}, bound {a.bound}): {summary}")
if errors:
    sys.exit(1)
if a.expect_miss:
    sys.exit(0 if misses else 1)
sys.exit(1 if misses else 0)
