#!/usr/bin/env bash
# SPIN beside vfsmc on the seed-001 dcache world: N O_CREAT opens of "foo"
# with the parent held shared (issue 32's performance goal). For each N,
#   SPIN:  bench/spin/dcache_shared_creat.pml, exhaustive (no -DCOLLAPSE, no
#          -DBITSTATE): spin -a -DNTHREADS=N, gcc -O2 -DSAFETY pan.c, ./pan;
#          wall time from spin -a to pan's answer, states stored, pan's memory;
#   vfsmc: vfsmc run --no-progress --brief --strategy dpor --memory-model sc
#          --time-limit T on shared-d-splice-alias (2), three-shared-d-splice-
#          alias (3), and copies with 4 and 5 identical threads made in a
#          temporary directory; wall time from start to verdict, up to
#          VFSMC_RUN_UP_TO threads; from 3 threads on, also the estimate of
#          `vfsmc run --estimate` (a probe of ESTIMATE_PROBE seconds).
# Prints a Markdown table and the load average at the start and the end.
#   bench/spin.sh
# Environment: VFSMC (default build/vfsmc), THREADS (default "2 3 4 5"),
#   VFSMC_TIME_LIMIT (seconds, default 600), VFSMC_RUN_UP_TO (default 3),
#   ESTIMATE_PROBE (seconds of the --estimate probe, default 30),
#   PAN_MEMLIM_MB (pan's memory limit, default 8000: a search that needs
#   more stops and is reported as out of memory), PAN_EXTRA (more -D flags for
#   pan.c, e.g. -DCOLLAPSE; the table then says so).
# Needs spin (Debian package `spin`), gcc, python3, and a built vfsmc.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
vfsmc=${VFSMC:-$here/build/vfsmc}
threads=${THREADS:-2 3 4 5}
tlimit=${VFSMC_TIME_LIMIT:-600}
run_up_to=${VFSMC_RUN_UP_TO:-3}
probe=${ESTIMATE_PROBE:-30}
memlim=${PAN_MEMLIM_MB:-8000}
extra=${PAN_EXTRA:-}
model=$here/bench/spin/dcache_shared_creat.pml
command -v spin >/dev/null || { echo "spin.sh: spin not found (apt-get install spin)" >&2; exit 2; }
[ -x "$vfsmc" ] || { echo "spin.sh: no vfsmc at $vfsmc (set VFSMC)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The vfsmc scenario for N threads.
scenario() {
  local n=$1
  case $n in
    2) echo "$here/scenarios/dcache/shared-d-splice-alias.json" ;;
    3) echo "$here/scenarios/dcache/three-shared-d-splice-alias.json" ;;
    *) python3 - "$here/scenarios/dcache/three-shared-d-splice-alias.json" "$n" "$work/$n-shared-d-splice-alias.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); n = int(sys.argv[2])
s.pop("$schema", None)
s["name"] = f"{n}-shared-d-splice-alias"
s["doc"] = f"{n} O_CREAT opens of \"foo\", parent shared: three-shared-d-splice-alias with {n} identical threads (bench/spin.sh)."
s["threads"] = [{"name": f"P{i}", "ops": [{"op": "open_creat", "name": "foo"}]} for i in range(n)]
s["search"] = {"strategy": "dpor"}
json.dump(s, open(sys.argv[3], "w"), indent=2)
PY
       echo "$work/$n-shared-d-splice-alias.json" ;;
  esac
}


# pan's hash table: 2^w slots, sized for the largest run.
hashw() { case $1 in 2|3) echo 20 ;; 4) echo 24 ;; *) echo 27 ;; esac; }

# Run a command under /usr/bin/time; append "wall cpu" (seconds) to $timing.
# (A command that exits non-zero, as vfsmc does for an inconclusive run, makes
# time write a "Command exited" line first: the figures are the last line.)
timed() {
  local rc=0 w u s
  /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" || rc=$?
  read -r w u s < <(tail -n 1 "$work/t")
  timing+=" $w $(python3 -c "print(round($u + $s, 2))")"
  return $rc
}

spin_row() {
  local n=$1 d=$work/spin$1
  mkdir -p "$d"
  cd "$d"
  timing=""
  timed spin -a -DNTHREADS="$n" "$model" >spin.out 2>&1
  # shellcheck disable=SC2086
  timed gcc -O2 -w -DSAFETY -DMEMLIM="$memlim" $extra -o pan pan.c
  timed ./pan -m1000000 -w"$(hashw "$n")" >pan.out 2>&1 || true
  cd "$here"
  python3 - "$d/pan.out" $timing <<'PY'
import re, sys
out = open(sys.argv[1]).read()
t = [float(x) for x in sys.argv[2:]]   # wall, cpu for spin -a, gcc, pan
def grab(pat, default="-"):
    m = re.search(pat, out)
    return m.group(1) if m else default
states = grab(r"([\d.e+]+) states, stored")   # pan writes large counts as 1.2e+08
mem = grab(r"([\d.]+)\s+total actual memory usage")
errors = grab(r"errors: (\d+)")
if "reached -DMEMLIM" in out or "out of memory" in out or "Search not completed" in out:
    verdict = "out of memory at -DMEMLIM (search not completed)"
elif errors == "0":
    verdict = "holds (complete)"
elif errors != "-":
    verdict = "violated: " + grab(r"pan:1: (.*?) \(at depth", "error")
else:
    verdict = "no answer: " + out.strip().splitlines()[-1][:60]
wall = t[0] + t[2] + t[4]
cpu = t[1] + t[3] + t[5]
print(f"{int(float(states)):,}" if states != "-" else "-", mem, f"{t[0] + t[2]:.1f}", f"{t[4]:.2f}",
      f"{wall:.1f}", f"{cpu:.1f}", verdict, sep="\t")
PY
}

vfsmc_row() {
  local n=$1 f out est="-"
  f=$(scenario "$n")
  if [ "$n" -ge 3 ]; then
    est=$("$vfsmc" run --estimate --strategy dpor --memory-model sc --time-limit "$probe" "$f" 2>&1 | grep -E '^(estimate|error):' | head -1 || true)
    est=$(python3 - "$est" <<'PY'
import re, sys
m = re.search(r"about (.*?) executions in the whole dpor search \((.*?)\), about (.*?) at the probe", sys.argv[1])
print(f"{m.group(1)} executions ({m.group(2)}), {m.group(3)}" if m else (": ".join(sys.argv[1].split(": ")[3:])[:80] or sys.argv[1][:80] or "-"))
PY
)
  fi
  if [ "$n" -le "$run_up_to" ]; then
    timing=""
    timed "$vfsmc" run --no-progress --brief --strategy dpor --memory-model sc --time-limit "$tlimit" "$f" >"$work/v.out" 2>&1 || true
    out=$(grep -E '^(holds|violated|inconclusive)' "$work/v.out" | head -1 || true)
    python3 - "$out" "$est" $timing <<'PY'
import re, sys
line, est, wall, cpu = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
m = re.search(r"(\w+) \(([^)]*)\): \S+ \((\d+) executions", line) or re.search(r"(\w+)(): \S+ \((\d+) executions", line)
if not m:
    print("-", f"{wall:.1f}", f"{cpu:.1f}", line[:80] or "no answer", est, sep="\t"); sys.exit()
verdict = m.group(1)
if m.group(2):
    verdict += " (complete)" if m.group(2) == "complete" else " (time limit)"
print(f"{int(m.group(3)):,}", f"{wall:.1f}", f"{cpu:.1f}", verdict, est, sep="\t")
PY
  else
    printf -- "-\tnot run\t-\tnot run\t%s\n" "$est"
  fi
}

load0=$(cat /proc/loadavg)
echo "| threads | SPIN states | SPIN memory (MB) | spin -a + gcc s | pan s | SPIN wall s | SPIN CPU s | SPIN verdict | vfsmc dpor executions | vfsmc wall s | vfsmc CPU s | vfsmc verdict | vfsmc --estimate |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in $threads; do
  IFS=$'\t' read -r st mem comp pans sw sc sv < <(spin_row "$n")
  IFS=$'\t' read -r ex vw vc vv ve < <(vfsmc_row "$n")
  echo "| $n | $st | $mem | $comp | $pans | $sw | $sc | $sv | $ex | $vw | $vc | $vv | $ve |"
done
echo
echo "SPIN: spin -a -DNTHREADS=N bench/spin/dcache_shared_creat.pml; gcc -O2 -DSAFETY -DMEMLIM=$memlim${extra:+ $extra} pan.c; ./pan -m1000000 -wW (W = 20, 24, 27 for 2-3, 4, 5 threads)"
echo "vfsmc: $vfsmc run --no-progress --brief --strategy dpor --memory-model sc --time-limit $tlimit FILE (up to $run_up_to threads); from 3 threads also: $vfsmc run --estimate --strategy dpor --memory-model sc --time-limit $probe FILE"
echo "Load average at the start: $load0; at the end: $(cat /proc/loadavg)"
