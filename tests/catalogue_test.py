#!/usr/bin/python3
"""scenarios/README.md catalogues every scenario: each scenarios/<dir>/X.json
has an entry (`X.json` in backquotes) in the section `## <dir>: ...`, and
every `*.json` the catalogue names exists in the directory of its section.
    tests/catalogue_test.py SOURCE_DIR"""
import pathlib
import re
import sys

src = pathlib.Path(sys.argv[1])
scen = src / "scenarios"
named = {}  # section directory -> set of file names
section = None
for line in (scen / "README.md").read_text().splitlines():
    m = re.match(r"^## ([a-z0-9_-]+):", line)
    if m:
        section = m.group(1)
        named.setdefault(section, set())
        continue
    for f in re.findall(r"`([A-Za-z0-9_.-]+\.json)`", line):
        if section is None:
            sys.exit(f"FAIL: scenarios/README.md names {f} before any `## <dir>:` section")
        named[section].add(f)

failures = []
on_disk = {}
for f in sorted(scen.glob("*/*.json")):
    on_disk.setdefault(f.parent.name, set()).add(f.name)
for d, files in sorted(on_disk.items()):
    for f in sorted(files - named.get(d, set())):
        failures.append(f"scenarios/{d}/{f}: no entry in scenarios/README.md (section `## {d}:`)")
for d, files in sorted(named.items()):
    for f in sorted(files - on_disk.get(d, set())):
        failures.append(f"scenarios/README.md, section {d}: entry `{f}` names a file that does not exist (scenarios/{d}/{f})")
# The example in docs/scenario-format.md is the scenario file it names, as
# it is (a reader copies it).
fmt_file = src / "docs" / "scenario-format.md"
fmt = fmt_file.read_text() if fmt_file.exists() else None
m = re.search(r"## An example\n\n```json\n(.*?)```", fmt, re.S) if fmt else None
if fmt is None:
    pass  # a tree without the docs (the test's own test)
elif not m:
    failures.append("docs/scenario-format.md: no ```json example under `## An example`")
else:
    import json
    example = json.loads(m.group(1))
    file = scen / example.get("model", "?") / (example.get("name", "?") + ".json")
    if not file.exists():
        failures.append(f"docs/scenario-format.md: the example names {file.relative_to(src)}, which does not exist")
    elif json.loads(file.read_text()) != example:
        failures.append(f"docs/scenario-format.md: the example differs from {file.relative_to(src)}")
for msg in failures:
    print("FAIL:", msg)
total = sum(len(v) for v in on_disk.values())
if failures:
    sys.exit(1)
print(f"ok: {total} scenarios, each with a catalogue entry; every entry's file exists")
