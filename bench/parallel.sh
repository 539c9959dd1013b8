#!/usr/bin/env bash
# The speedup of `run --jobs N` (checker/search/parallel.h) on this machine:
# each scenario's dpor search for a fixed wall time, serial and with 1, 2, 4
# and 8 workers; executions per second against the serial search's. Prints
# one Markdown row per run, with the load average when it started (the
# machine may be shared: the rows are only as good as the load allows).
#   bench/parallel.sh VFSMC SECONDS SCENARIO...
set -euo pipefail
vfsmc=$1
secs=$2
shift 2
echo "| scenario | run | executions | seconds | execs/s | speedup | pieces | duplicates | idle s per worker | load avg at start |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
  name=$(basename "$f" .json)
  base=""
  for jobs in 0 1 2 4 8; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    args=(run "$f" --json --no-progress --strategy dpor --time-limit "$secs")
    [ "$jobs" -gt 0 ] && args+=(--jobs "$jobs")
    "$vfsmc" "${args[@]}" >/tmp/parallel-bench.json || true
    row=$(python3 - "$jobs" "$load" "$name" "${base:-0}" <<'PY'
import json, sys
jobs, load, name, base = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
j = json.load(open("/tmp/parallel-bench.json"))
c = j["counts"]
rate = c["executions"] / c["seconds"] if c["seconds"] else 0
p = j.get("parallel")
run = "serial" if jobs == 0 else f"--jobs {jobs}"
speed = f"{rate / base:.2f}x" if base else "1.00x"
pieces = p["pieces"] if p else "-"
dups = p["duplicates"] if p else "-"
idle = " / ".join(f"{w['idle_seconds']:.1f}" for w in p["per_worker"]) if p else "-"
print(f"| {name} | {run} | {c['executions']} | {c['seconds']:.1f} | {rate:.0f} | {speed} | {pieces} | {dups} | {idle} | {load} |\t{rate:.3f}")
PY
)
    echo "${row%%$'\t'*}"
    [ -z "$base" ] && base=${row##*$'\t'}
  done
done
