#!/usr/bin/env python3
"""validate makes every check run makes (issue 13, item 8).

Takes the scenarios in scenarios/, sets random knob and init values the
schema allows (docs/scenario.schema.json, as `vfsmc schema` prints it), and
checks that `validate` rejects exactly the files `run` rejects (exit 2).

  tests/validate_vs_run.py VFSMC SOURCE_DIR [CASES] [SEED]
"""
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

vfsmc, src = sys.argv[1], sys.argv[2]
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 100
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 7)
schema = json.loads(subprocess.run([vfsmc, "schema"], capture_output=True, text=True, check=True).stdout)
defs = schema["$defs"]
models = {}
for cond in schema["allOf"]:
    m = cond["if"].get("properties", {}).get("model", {}).get("const")
    if m:
        models[m] = defs[cond["then"]["$ref"].split("/")[-1]]
base = sorted(glob.glob(os.path.join(src, "scenarios", "*", "*.json")))


def pick(fs):
    if "enum" in fs:
        return rng.choice(fs["enum"])
    if fs.get("type") == "boolean":
        return rng.choice([True, False])
    if fs.get("type") == "integer":
        return rng.randint(fs.get("minimum", 0), fs.get("maximum", 3))
    return None


stats, mismatches = {}, []
with tempfile.TemporaryDirectory() as tmp:
    for i in range(cases):
        d = json.load(open(rng.choice(base)))
        ms = models[d["model"]]
        for sect in ("config", "init"):
            for k, fs in ms["properties"].get(sect, {}).get("properties", {}).items():
                if rng.random() < 0.4:
                    v = pick(fs)
                    if v is not None:
                        d.setdefault(sect, {})[k] = v
        d["name"] = "r%d" % i
        d["search"] = {"strategy": "random", "iterations": 1}  # the checks, not the search
        d["expect"] = "holds"
        d.pop("order", None)
        path = os.path.join(tmp, d["name"] + ".json")
        json.dump(d, open(path, "w"))
        v = subprocess.run([vfsmc, "validate", path], capture_output=True, text=True)
        r = subprocess.run([vfsmc, "run", "--no-progress", "--first", path], capture_output=True, text=True)
        stats[(v.returncode, r.returncode)] = stats.get((v.returncode, r.returncode), 0) + 1
        if (v.returncode == 2) != (r.returncode == 2) or (v.returncode == 2 and v.stderr != r.stderr):
            mismatches.append(f"{json.dumps(d)}: validate {v.returncode} {v.stderr.strip()} / run {r.returncode} {r.stderr.strip()}")
print(f"{cases} random schema-valid scenarios: (validate exit, run exit) -> count {stats}; {len(mismatches)} disagree")
for m in mismatches[:5]:
    print("FAIL:", m[:600])
sys.exit(1 if mismatches else 0)
