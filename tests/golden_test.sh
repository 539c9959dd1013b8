#!/usr/bin/env bash
# The golden counterexample reports: regenerate every report into a temporary
# directory with scripts/regen-reports and diff them against reports/: the
# text (.txt), email (.email.txt) and swimlane (.html) forms. How the HTML
# renders is tests/browser_test.sh's job. Run by CTest (label "golden"):
#   tests/golden_test.sh SOURCE_DIR BUILD_DIR
# After an intended change: scripts/regen-reports BUILD_DIR, and review the diff.
set -euo pipefail
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/scripts/regen-reports" "$build" "$tmp" >/dev/null
status=0
names=$( (find "$src/reports" "$tmp" -maxdepth 1 \( -name '*.txt' -o -name '*.html' \) -printf '%f\n' 2>/dev/null || true) | sort -u)
n=0
for f in $names; do
  n=$((n + 1))
  if [ ! -f "$src/reports/$f" ]; then
    echo "golden: reports/$f is missing (a violated scenario has no approved report; run scripts/regen-reports)" >&2
    status=1
  elif [ ! -f "$tmp/$f" ]; then
    echo "golden: reports/$f belongs to no violated scenario (remove it, or restore its scenario)" >&2
    status=1
  elif ! diff -u "$src/reports/$f" "$tmp/$f" >&2; then
    echo "golden: reports/$f differs from a fresh run (above: approved, then fresh)" >&2
    status=1
  fi
done
echo "golden: $n report files compared"
exit $status
