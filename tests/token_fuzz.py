#!/usr/bin/env python3
"""Replay-token fuzz (issue 13): random tokens with a valid checksum.

The checksum is unkeyed FNV-1a, so anyone can sign any state. Each case
signs a random state (random numbers, or a real token's state mutated)
and replays it; the replay must end with an exit code of 0 to 3, within
the timeout, and an error (exit 2 or 3) must be exactly one line.

  tests/token_fuzz.py VFSMC SOURCE_DIR [CASES] [SEED]
"""
import json
import random
import subprocess
import sys

vfsmc, src = sys.argv[1], sys.argv[2]
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 13)

SCENARIOS = [
    "scenarios/dcache/shared-d-rehash-notes-race.json",      # bounded, 2 threads
    "scenarios/chrdev/cdev-del-vs-concurrent-opens-v2.json",  # bounded, 3 threads
    "scenarios/chrdev/cdev-del-vs-reopen-v2.json",            # exhaustive
    "scenarios/dcache/broken-double-dput.json",               # 1 thread
]


def behaviour(path):
    """Scenario::behaviour (checker/scenario/scenario.cpp), as nlohmann dumps it."""
    with open(f"{src}/{path}") as f:
        j = json.load(f)
    b = {k: j[k] for k in ("model", "memory_model", "config", "init", "threads", "invariants", "order", "search") if k in j}
    if "search" in b:
        b["search"] = {k: v for k, v in b["search"].items() if k not in ("max_executions", "time_limit_s")}
    return json.dumps(b, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fnv1a(data):
    h = 2166136261
    for c in data.encode():
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return h


def sign(path, body):
    return "v1:%08x:%s" % (fnv1a(behaviour(path) + "|" + body), body)


def run(args, timeout=20):
    try:
        p = subprocess.run([vfsmc] + args, cwd=src, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b""
    return p.returncode, p.stdout, p.stderr


failures = []
real = {}
for path in SCENARIOS:
    rc, out, err = run(["run", "--no-progress", "--first", "--json", path])
    tok = json.loads(out).get("replay_token") if rc in (0, 1) else None
    if not tok:
        print(f"FAIL: {path}: no token (exit {rc}): {err.decode()}")
        sys.exit(1)
    # Self-check: this script signs as vfsmc does.
    body = tok.split(":", 2)[2]
    if sign(path, body) != tok:
        print(f"FAIL: {path}: the fuzz computes another checksum than vfsmc ({sign(path, body)} vs {tok})")
        sys.exit(1)
    rc, out, err = run(["replay", path, tok])
    if rc not in (0, 1):
        print(f"FAIL: {path}: its own token does not replay (exit {rc}): {err.decode()}")
        sys.exit(1)
    real[path] = body


def num():
    r = rng.random()
    if r < 0.6:
        return str(rng.randint(0, 5))
    if r < 0.8:
        return str(rng.randint(0, 100))
    if r < 0.9:
        return str(rng.randint(0, 2**32 + 5))
    if r < 0.95:
        return str(rng.randint(0, 2**64 + 5))
    return rng.choice(["", "-1", "1e3", "x", "0x10", "+1"])


def state_random():
    n = rng.randint(0, 40)
    return "".join(num() + "-" for _ in range(n)) + rng.choice(["", "", "", "-", "0"])


def state_tree():
    size = rng.randint(0, 30)
    nodes = []
    for _ in range(size):
        count = rng.randint(1, 5)
        nodes += [count, rng.randint(0, count - 1) if rng.random() < 0.9 else rng.randint(0, 6),
                  rng.choice([0, 0, 0, 1, 2, 4, 3, 5])]
    claimed = size if rng.random() < 0.8 else rng.randint(0, 40)
    return "-".join(str(x) for x in [rng.randint(0, 100), claimed] + nodes) + "-"


def state_mutated(body):
    nums = body.split(":", 1)[1].rstrip("-").split("-")
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        i = rng.randrange(len(nums))
        if op < 0.5:
            nums[i] = str(rng.randint(0, 6))
        elif op < 0.7 and len(nums) > 1:
            del nums[i]
        elif op < 0.85:
            nums.insert(i, str(rng.randint(0, 6)))
        else:
            nums = nums[: rng.randint(1, len(nums))]
    return "-".join(nums) + "-"


def head():
    r = rng.random()
    if r < 0.35:
        return "e0" + rng.choice("sk")
    if r < 0.7:
        return "b%d%s" % (rng.choice([0, 1, 2, 3, 20, 21, 99]), rng.choice("sk"))
    if r < 0.9:
        return "r0" + rng.choice("sk")
    return rng.choice(["d0s", "p3k", "e0x", "b-1s", "e", "r0", "b99999999999999999999s"])


stats = {}
for i in range(cases):
    path = rng.choice(SCENARIOS)
    kind = rng.random()
    if kind < 0.35:
        body = real[path].split(":", 1)[0] + ":" + state_mutated(real[path])
    elif kind < 0.7:
        body = head() + ":" + state_tree()
    else:
        body = head() + ":" + state_random()
    tok = sign(path, body)
    rc, out, err = run(["replay", path, tok])
    stats[rc] = stats.get(rc, 0) + 1
    lines = err.decode(errors="replace").splitlines()
    if rc is None:
        failures.append(f"hang (over 20 s): replay {path} '{tok}'")
    elif rc < 0 or rc > 3:
        failures.append(f"exit {rc}: replay {path} '{tok}'")
    elif rc >= 2 and len(lines) != 1:
        failures.append(f"exit {rc} with {len(lines)} lines on stderr: replay {path} '{tok}': {lines[:3]}")

print(f"{cases} signed tokens: exit codes {dict(sorted(stats.items(), key=lambda kv: str(kv[0])))}")
for f in failures[:20]:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
