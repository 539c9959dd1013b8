#!/usr/bin/env python3
"""No report shows a raw object id: a pointer word's value is always printed
as the object it names (or NULL).

Which words are pointers is read from the reports themselves: a field that
any step prints with a value that is not an integer (an object's name,
NULL, "count 1 locked") is not a plain number, so no step may print it as
an integer. This holds whatever the checker believes a word is, so a step
that lost its word's type (and printed the id) is caught.

Checked: every golden text report and HTML page (reports/; the golden test
shows that fresh runs print the same), and the fresh --json of every
violated scenario (a pointer word has before_object/after_object/
value_object, never before/after/value).
    tests/raw_ids_test.py VFSMC SOURCE_DIR
"""
import glob
import html
import json
import os
import re
import subprocess
import sys

vfsmc, src = sys.argv[1], sys.argv[2]
INT = re.compile(r"-?\d+$")
# "  122 [P0] __d_rehash(): smp_store_release dentry_hashtable["foo"].first: 9 -> 8"
# "    5 [P0] d_lookup(): smp_load_acquire dentry_hashtable["foo"].first = NULL (read from ...)"
STEP = re.compile(r"^(?:>>)?\s*\d+ \[[^\]]+\] (?:\S+\(\): )?(?:\[\w+\] )?(\S+) (.+)$")
WRITE = re.compile(r"^(.+?): (.+) -> (.+)$")
READ = re.compile(r"^(.+?) = (.+?) \(read from .*\)$")

failures = []


def values(body):
    """The (field, [values]) a step's text shows, or None."""
    m = READ.match(body)
    if m:
        return m.group(1), [m.group(2)]
    m = WRITE.match(body)
    if m:
        return m.group(1), [m.group(2), m.group(3)]
    return None


def judge(where, steps):
    """steps: (label, field, [values]). A field with a value that is not an
    integer anywhere must have no integer value anywhere."""
    named = {f for _, f, vs in steps if any(not INT.match(v) for v in vs)}
    for label, f, vs in steps:
        if f in named and any(INT.match(v) for v in vs):
            failures.append(f"{where}: {label}: {f} shown as a raw id: {' -> '.join(vs)}")


def text_steps(lines):
    out = []
    for line in lines:
        m = STEP.match(line.rstrip())
        if not m:
            continue
        v = values(m.group(2))
        if v:
            out.append((line.strip(), v[0], v[1]))
    return out


reports = sorted(glob.glob(os.path.join(src, "reports", "*.txt")))
texts = [r for r in reports if not r.endswith(".email.txt")]
pages = sorted(glob.glob(os.path.join(src, "reports", "*.html")))
if not texts or not pages:
    sys.exit(f"raw-ids: no golden reports under {src}/reports")
for r in texts:
    with open(r) as f:
        judge(os.path.relpath(r, src), text_steps(f))
SPAN = re.compile(r'<span class="func">[^<]*</span> <span class="text">(.*?)</span>')
for p in pages:
    with open(p) as f:
        page = f.read()
    steps = []
    for m in SPAN.finditer(page):
        body = html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        parts = body.split(" ", 1)
        v = values(parts[1]) if len(parts) == 2 else None
        if v:
            steps.append((body, v[0], v[1]))
    judge(os.path.relpath(p, src), steps)

# Fresh JSON: every violated scenario's first counterexample.
nviolated = 0
for sc in sorted(glob.glob(os.path.join(src, "scenarios", "*", "*.json"))):
    with open(sc) as f:
        if '"violated"' not in f.read():
            continue
    nviolated += 1
    out = subprocess.run([vfsmc, "run", "--json", "--stable", "--first", "--no-progress", sc],
                         capture_output=True, text=True)
    try:
        res = json.loads(out.stdout)
    except ValueError:
        failures.append(f"{sc}: run --json printed no JSON object: {out.stderr.strip()[:200]}")
        continue
    pointer = set()
    for st in res.get("trace", []):
        if any(k in st for k in ("before_object", "after_object", "value_object")):
            pointer.add((st.get("object"), st.get("field")))
    steps = []
    for st in res.get("trace", []):
        key = (st.get("object"), st.get("field"))
        if key in pointer and any(k in st for k in ("before", "after", "value")):
            failures.append(f"{os.path.relpath(sc, src)}: --json step {st['n']}: the pointer {key[0]}.{key[1]} "
                            f"carries an id ({st.get('before', st.get('value'))})")
        v = values(st.get("text", ""))
        if v:
            steps.append((f"--json step {st['n']}", v[0].split(" ", 1)[-1], v[1]))
    judge(os.path.relpath(sc, src) + " --json", steps)

for f in failures:
    print("raw-ids: " + f, file=sys.stderr)
print(f"raw-ids: {len(texts)} text reports, {len(pages)} pages, {nviolated} fresh --json results checked; "
      f"{len(failures)} raw ids")
sys.exit(1 if failures else 0)
