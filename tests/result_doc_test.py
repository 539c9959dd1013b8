#!/usr/bin/python3
"""Every field of the whole `vfsmc run --json` and `vfsmc replay --json`
output is documented in docs/result-format.md (the first cell of its table
rows), including fields added outside the JSON renderer.
    tests/result_doc_test.py VFSMC SOURCE_DIR"""
import json
import re
import subprocess
import sys

vfsmc, src = sys.argv[1], sys.argv[2]
documented = set()
for line in open(f"{src}/docs/result-format.md"):
    m = re.match(r"^\| `([a-z_.\[\]]+)` \|", line)
    if m:
        documented.add(m.group(1))


def keys(j, prefix, out):
    if isinstance(j, dict):
        for k, v in j.items():
            path = f"{prefix}.{k}" if prefix else k
            out.add(path)
            if path != "metrics":  # metric names are the model's own
                keys(v, path, out)
    elif isinstance(j, list):
        for e in j:
            keys(e, prefix + "[]", out)


def run(*args):
    p = subprocess.run([vfsmc, *args], cwd=src, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: vfsmc {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


emitted = set()
results = [
    run("run", "--json", "--no-progress", "scenarios/chrdev/evict-vs-opener-pre-seed.json"),
    run("run", "--json", "--stable", "--no-progress", "scenarios/dcache/broken-double-dput.json"),
    run("run", "--json", "--coverage", "--no-progress", "scenarios/chrdev/evict-vs-opener-pre-seed.json"),
    run("run", "--json", "--jobs", "2", "--no-progress", "scenarios/chrdev/rmmod-vs-open-pre-seed.json"),
]
violated = results[1]
assert violated["verdict"] == "violated", violated["verdict"]
results.append(run("replay", "--json", "scenarios/dcache/broken-double-dput.json", violated["replay_token"]))
# replay --config: the schedule followed with no violation, and not followed.
followed = run("replay", "--json", "scenarios/dcache/broken-double-dput.json", violated["replay_token"], "--config", "dput_bug=none")
assert followed["verdict"] == "holds" and followed["replay"]["followed"], followed.get("replay")
chrdev = "scenarios/chrdev/v2-fast-path-vs-last-close.json"
token = run("run", "--json", "--first", "--no-progress", chrdev)["replay_token"]
parted = run("replay", "--json", chrdev, token, "--config", "version=pre-seed")
assert parted["verdict"] == "error" and not parted["replay"]["followed"], parted.get("replay")
results += [followed, parted]
for j in results:
    keys(j, "", emitted)
missing = sorted(emitted - documented)
if missing:
    sys.exit("FAIL: emitted but not documented in docs/result-format.md: " + ", ".join(missing))
for need in ("vacuous_steps", "schema", "trace[].n", "minimal.first.steps", "never_reached", "selected_away[].why",
             "replay.followed", "replay.steps[].off_schedule", "parallel.per_worker[].idle_seconds"):
    if need not in emitted:
        sys.exit(f"FAIL: expected field {need} in the output")
print(f"ok: {len(emitted)} fields emitted, all documented")
