#!/usr/bin/env bash
# Renders the swimlane pages in headless Chromium (Debian's chromium package)
# and checks what a reviewer sees (issue 14): the first screen (1280x800)
# shows the verdict, "In short" and a conflicting step; one lane per thread;
# every "read from P0 #N" links to an existing row; a legend; lock spans that
# are visible (a solid 6px bar); stale reads marked; folded noise in
# <details>; the References section names every count it touched; and a
# `holds` page shows its scope, executions, coverage and one sample execution.
# All pages load in one Chromium run (a wrapper page with one iframe each).
#   tests/browser_test.sh SOURCE_DIR VFSMC
# Skips (exit 77, "skipped" for CTest) where Chromium is absent.
set -euo pipefail
src=$1
vfsmc=$2
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIP browser test: chromium is not installed (Debian package chromium; scripts/setup installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pages"
cp "$src"/reports/*.html "$work/pages/"
# A holds page and an unsatisfiable-free holds scenario with a sample execution.
"$vfsmc" run --no-progress --stable --html "$work/pages/holds-sample.html" \
  "$src/scenarios/chrdev/evict-vs-opener-v2.json" >/dev/null
npages=$(ls "$work/pages" | wc -l)
[ "$npages" -ge 2 ] || { echo "browser test: no pages in $src/reports (scripts/regen-reports makes them)" >&2; exit 1; }

# name -> number of threads, from the scenarios.
threads_js=$(cd "$src" && /usr/bin/python3 - <<'PY'
import json, pathlib
out = {}
for f in pathlib.Path("scenarios").glob("*/*.json"):
    out[f.stem] = len(json.load(open(f))["threads"])
out["holds-sample"] = out["evict-vs-opener-v2"]
print(json.dumps(out))
PY
)
{
  echo '<!DOCTYPE html><html><body><pre id="out"></pre><script>'
  echo "const threads = $threads_js;"
  echo 'const pages = ['
  for p in "$work"/pages/*.html; do echo "  \"$(basename "$p" .html)\","; done
  echo '];'
  cat <<'JS'
const out = document.getElementById('out');
function say(s) { out.textContent += s + "\n"; }
function check(name, doc, win) {
  const fails = [];
  const screen = 800;
  const top = el => el ? el.getBoundingClientRect().top : 1e9;
  const lanes = doc.querySelectorAll('thead th.lane').length;
  if (lanes !== threads[name]) fails.push(`lanes=${lanes}, want ${threads[name]}`);
  if (!doc.querySelector('.legend')) fails.push('no legend');
  const rows = doc.querySelectorAll('tr.step-row');
  if (rows.length < 2) fails.push(`steps=${rows.length}`);
  // Every step link points at an existing row.
  for (const a of doc.querySelectorAll('a.step-link')) {
    const id = a.getAttribute('href').slice(1);
    if (!doc.getElementById(id)) { fails.push(`link ${a.textContent} -> #${id} has no row`); break; }
  }
  for (const td of doc.querySelectorAll('td.step')) {
    const t = td.textContent;
    if (/read from [A-Za-z0-9_-]+ #\d+/.test(t) && !td.querySelector('.text a.step-link')) { fails.push('a "read from" without a link'); break; }
  }
  // Lock spans are visible: a solid bar of 6px.
  const hold = doc.querySelector('td.holding');
  if (hold) {
    const cs = win.getComputedStyle(hold);
    if (cs.borderLeftWidth !== '6px' || cs.borderLeftStyle !== 'solid') fails.push(`lock span ${cs.borderLeftWidth} ${cs.borderLeftStyle}`);
  }
  for (const td of doc.querySelectorAll('td.step.stale'))
    if (!td.querySelector('.badge.stale')) { fails.push('stale read without its mark'); break; }
  for (const d of doc.querySelectorAll('tr.collapsed details'))
    if (d.open || !d.querySelector('summary') || !d.querySelector('tr.step-row')) { fails.push('a fold that is open or empty'); break; }
  if (name === 'holds-sample') {
    const h1 = doc.querySelector('h1.subject');
    if (!h1 || !/^holds/.test(h1.textContent) || top(h1) > screen) fails.push('holds heading');
    for (const c of ['li.scope-kind', 'li.executions', 'li.coverage', '#sample'])
      if (!doc.querySelector(c)) fails.push(`holds page without ${c}`);
    if (!/complete|bounded|sampled/.test((doc.querySelector('li.scope-kind') || {}).textContent || '')) fails.push('no scope');
    return fails;
  }
  // The first screen: the verdict, In short and a conflicting step.
  const h1 = doc.querySelector('h1.subject');
  if (!h1 || !/violated$/.test(h1.textContent) || top(h1) > screen) fails.push('verdict not on the first screen');
  const short = doc.getElementById('in-short');
  if (!short || top(short) > screen) fails.push('"In short" not on the first screen');
  const conflict = doc.querySelector('ol.in-short li.conflict');
  if (!conflict || top(conflict) > screen) fails.push(`no conflict on the first screen (at ${Math.round(top(conflict))}px)`);
  if (conflict && !doc.getElementById(conflict.querySelector('a').getAttribute('href').slice(1))) fails.push('conflict link broken');
  if (doc.querySelectorAll('tr.step-row.conflict').length < 1) fails.push('no conflict row');
  if (!doc.querySelector('pre.final-state') || !/vfsmc replay/.test(doc.body.textContent)) fails.push('no final state or replay');
  if (name === 'shared-d-rehash-notes-race') {
    const spans = [...doc.querySelectorAll('li.ref-span')].map(li => li.textContent);
    const foo1 = spans.find(s => s.startsWith('dentry "foo"#1.'));
    const foo2 = spans.find(s => s.startsWith('dentry "foo"#2.'));
    if (!foo1) fails.push('References leave out dentry "foo"#1');
    if (!foo2 || /start/.test(foo2)) fails.push(`References: foo#2 span ${foo2}`);
    if (!doc.querySelector('.order-mark')) fails.push('no order mark');
    if (!doc.querySelector('.rf-mark')) fails.push('no reads-from mark between lanes');
    if (!doc.querySelector('tr.collapsed details')) fails.push('nothing folded');
  }
  return fails;
}
let left = pages.length, bad = 0;
for (const name of pages) {
  const f = document.createElement('iframe');
  f.style.width = '1280px'; f.style.height = '800px';
  f.onload = () => {
    let fails;
    try { fails = check(name, f.contentDocument, f.contentWindow); } catch (e) { fails = ['exception: ' + e]; }
    if (fails.length) { bad++; say(`FAIL ${name}: ${fails.join('; ')}`); } else say(`ok   ${name}`);
    f.remove();
    if (--left === 0) say(`DONE ${pages.length} pages, ${bad} failed`);
  };
  f.src = 'pages/' + name + '.html';
  document.body.appendChild(f);
}
JS
  echo '</script></body></html>'
} > "$work/check.html"

dom=$(timeout 110 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync --allow-file-access-from-files \
      --window-size=1400,900 --virtual-time-budget=60000 --user-data-dir="$work/profile" \
      --dump-dom "file://$work/check.html" 2>/dev/null || true)
results=$(sed -n '/<pre id="out">/,/<\/pre>/p' <<<"$dom" | sed -e 's/<pre id="out">//' -e 's/<\/pre>.*//' -e 's/&quot;/"/g' -e 's/&gt;/>/g' -e 's/&lt;/</g' -e 's/&amp;/\&/g')
echo "$results"
grep -q '^DONE ' <<<"$results" || { echo "FAIL: Chromium did not finish checking the pages" >&2; exit 1; }
! grep -q '^FAIL ' <<<"$results"
