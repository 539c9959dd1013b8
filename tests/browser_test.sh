#!/usr/bin/env bash
# Renders every swimlane page in reports/ with headless Chromium (Debian's
# chromium package) and checks the DOM: one lane per thread of the scenario,
# the steps, a conflicting step, the final state and the replay command.
#   tests/browser_test.sh SOURCE_DIR
set -euo pipefail
src=$1
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
  echo "browser test: chromium is not installed (scripts/setup installs it)" >&2
  exit 1
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
pages=0
for page in "$src"/reports/*.html; do
  [ -e "$page" ] || continue
  name=$(basename "$page" .html)
  scenario=$(find "$src/scenarios" -name "$name.json" | head -n 1)
  dom=$(timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --dump-dom "file://$page" 2>/dev/null)
  threads=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["threads"]))' "$scenario")
  lanes=$(grep -o 'class="lane" data-thread="[^"]*"' <<<"$dom" | wc -l)
  steps=$(grep -o '<tr class="step-row' <<<"$dom" | wc -l)
  conflicts=$(grep -o 'step-row conflict' <<<"$dom" | wc -l)
  if [ "$lanes" -ne "$threads" ] || [ "$steps" -lt 2 ] || [ "$conflicts" -lt 1 ] ||
     ! grep -q 'class="final-state"' <<<"$dom" || ! grep -q 'vfsmc replay' <<<"$dom"; then
    echo "FAIL $name: lanes=$lanes (want $threads) steps=$steps conflicts=$conflicts" >&2
    exit 1
  fi
  echo "ok   $name: $lanes lanes, $steps steps, $conflicts conflicting"
  pages=$((pages + 1))
done
if [ "$pages" -eq 0 ]; then
  echo "browser test: no pages in $src/reports (scripts/regen-reports makes them)" >&2
  exit 1
fi
echo "$pages pages rendered"
