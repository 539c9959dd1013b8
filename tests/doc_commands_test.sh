#!/usr/bin/env bash
# Every vfsmc command the README and `vfsmc --help` show runs, and prints
# what it is shown for. (The man page's own examples, with the installed
# scenario paths, are run by tests/install_test.sh.) Placeholders are
# filled in: FILE is the flagship scenario, TOKEN its counterexample's
# token (for --estimate, a dpor scenario), FILE.litmus a litmus test;
# output files go to a temporary
# directory; `check scenarios/` runs on scenarios/chrdev/ to keep the suite
# short (the whole tree is the "scenario:" tests' job).
#   tests/doc_commands_test.sh VFSMC SOURCE_DIR
set -uo pipefail
vfsmc=$1
src=$2
cd "$src" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
file=scenarios/dcache/shared-d-rehash-notes-race.json
token=$("$vfsmc" run --json --no-progress "$file" | python3 -c 'import json,sys; print(json.load(sys.stdin)["replay_token"])') ||
  { echo "FAIL: no token from $file" >&2; exit 1; }
dpor_file=scenarios/chrdev/v2-opener-with-inode-ref.json
litmus_file=litmus/MP+pooncerelease+poacquireonce.litmus
[ -f "$litmus_file" ] || litmus_file=$(ls litmus/*.litmus | head -1)

# The commands, one per line, as the reader sees them ("vfsmc ..."), with
# where they come from.
{
  sed -n 's/^    build\/vfsmc \(.*\)$/README.md\tvfsmc \1/p' README.md
  "$vfsmc" --help | sed -n '/^Examples:/,/^$/s/^  vfsmc \(.*\)$/--help\tvfsmc \1/p'
} | sed 's/[[:space:]]\+#.*$//' > "$tmp/commands"
n=$(wc -l < "$tmp/commands")
[ "$n" -ge 20 ] || { echo "FAIL: only $n commands found in README.md and --help" >&2; exit 1; }

fails=0
fail() { echo "FAIL: $where: $cmd: $*" >&2; fails=$((fails + 1)); }
while IFS=$'\t' read -r where cmd; do
  run=${cmd#vfsmc }
  # --estimate probes a dpor search: a scenario whose search is dpor (and
  # ends within the probe).
  case $run in *--estimate*) run=${run//FILE/$dpor_file} ;; esac
  run=${run//FILE.litmus/$litmus_file}
  run=${run//FILE.../$file}
  run=${run//FILE/$file}
  run=${run//TOKEN/$token}
  run=${run//page.html/$tmp/page.html}
  run=${run//graph.dot/$tmp/graph.dot}
  run=${run//results.xml/$tmp/results.xml}
  # litmus --generate writes its tests into a directory: a temporary one.
  run=${run//--generate DIR/--generate $tmp/generated}
  run=${run//check scenarios\//check scenarios\/chrdev\/}
  # shellcheck disable=SC2086
  out=$(eval "\"$vfsmc\" $run" 2>&1 </dev/null)
  rc=$?
  # 0: as the scenario expects; 1: a verdict that differs, which a changed
  # search may give. 2 and 3 are a broken example.
  if [ $rc -gt 1 ]; then fail "exit $rc: ${out:0:300}"; continue; fi
  expect=
  case $run in
    --version) expect='^vfsmc [0-9.]+ \(commit ' ;;
    "list --model"*) expect='"name": "dcache"' ;;
    list*) expect='^model dcache: ' ;;
    schema*) expect='"\$schema"' ;;
    validate*) expect='^valid: ' ;;
    "litmus --check"*) expect=' agree' ;;
    "litmus --witness"*) expect='(Always|Sometimes|Never)' ;;
    litmus*) expect='(Always|Sometimes|Never)' ;;
    *"--format github"*) expect='passed' ;;
    check*) expect='[0-9]+ passed, [0-9]+ failed' ;;
    # The documented --config example replays the notes race against the
    # fix, and the fix survives it.
    *--config*) expect='The schedule was followed to its end with --config .* and no invariant broke' ;;
    replay*) expect='^\[counterexample\] shared-d-rehash-notes-race' ;;
    *--jobs*) expect='^Parallel: [0-9]+ workers, ' ;;
    *--json*) expect='"schema": "vfsmc-result/' ;;
    *--brief*) expect='In short' ;;
    *"--format email"*) expect='In short' ;;
    *--coverage*) expect='^coverage: [0-9]+ of [0-9]+ model steps reached' ;;
    *--estimate*) expect='^(estimate: |holds \(complete\): v2-opener-with-inode-ref)' ;;
    *--source*) expect='  at models/dcache/' ;;
    *"--strategy"* | *--memory-model* | *--bound*) expect="not the scenario's own result" ;;
    run*) expect='^\[counterexample\] shared-d-rehash-notes-race: one-hashed-dentry-per-name violated' ;;
  esac
  if [ -n "$expect" ] && ! grep -Eq -- "$expect" <<<"$out"; then fail "output lacks /$expect/: ${out:0:300}"; fi
  case $run in
    *--html*) grep -q '<!DOCTYPE html>' "$tmp/page.html" || fail "no HTML page written" ;;
    *--dot*) grep -q '^digraph ' "$tmp/graph.dot" || fail "no graph written" ;;
    *--junit*) grep -q '<testsuite' "$tmp/results.xml" || fail "no JUnit XML written" ;;
  esac
  case $run in
    *--coverage*--json* | *--json*--coverage*) python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$out" || fail "not one JSON document" ;;
  esac
  rm -f "$tmp/page.html" "$tmp/graph.dot" "$tmp/results.xml"
done < "$tmp/commands"
echo "doc-commands: $n commands from README.md and --help run; $fails failed"
[ $fails -eq 0 ]
