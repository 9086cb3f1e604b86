#!/usr/bin/env python3
"""How much of a Fairy-Stockfish variants.ini variantlab reads (issue #56).

    scripts/fsf_coverage.py VARIANTLAB VARIANTS_INI [--label TEXT] [--write DOC.md]

Loads every section with `variantlab --variant-file VARIANTS_INI perft --variant NAME
--depth 1` and, for each section that does not load, takes the key that stops it from the
error (`FILE:LINE: [section] key: ...`; an unknown parent is counted as `parent X`). Prints
the count and a table of stopping keys as markdown; with --write, puts it in DOC.md between
`<!-- fsf-coverage:begin -->` and `<!-- fsf-coverage:end -->`.
"""

import argparse
import collections
import re
import subprocess
import sys

BEGIN = "<!-- fsf-coverage:begin (scripts/fsf_coverage.py writes this part) -->"
END = "<!-- fsf-coverage:end -->"


def sections(path):
    names = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if s.startswith("[") and s.endswith("]"):
                names.append(s[1:-1].split(":")[0].strip())
    return names


def stopping_key(section, err):
    m = re.search(r"\[[^\]:]+:([^\]]+)\]: unknown parent", err)
    if m:
        return f"parent `{m.group(1)}`"
    m = re.search(r"\[[^\]]+\] ([A-Za-z0-9]+): ", err)
    if m:
        return f"`{m.group(1)}`"
    m = re.search(r"\[[^\]]+\] \(([a-z_]+)", err)
    if m:
        return f"(TOML `{m.group(1)}`)"
    return "other: " + err.strip().splitlines()[-1][:80]


def measure(binary, ini):
    loaded, stops = [], collections.defaultdict(list)
    for name in sections(ini):
        r = subprocess.run(
            [binary, "--variant-file", ini, "perft", "--variant", name, "--depth", "1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if r.returncode == 0:
            loaded.append(name)
        else:
            stops[stopping_key(name, r.stderr)].append(name)
    return loaded, stops


def markdown(label, loaded, stops):
    total = len(loaded) + sum(len(v) for v in stops.values())
    out = [
        f"Of the {total} sections of {label}, **{len(loaded)} load** "
        f"({100 * len(loaded) / total:.0f}%): {', '.join(f'`{n}`' for n in loaded) or 'none'}.",
        "",
        "| stopping key | sections | e.g. |",
        "|---|---|---|",
    ]
    for key, names in sorted(stops.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        eg = ", ".join(f"`{n}`" for n in names[:4]) + (", ..." if len(names) > 4 else "")
        out.append(f"| {key} | {len(names)} | {eg} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("ini")
    ap.add_argument("--label", default=None)
    ap.add_argument("--write", default=None)
    a = ap.parse_args()
    loaded, stops = measure(a.binary, a.ini)
    text = markdown(a.label or f"`{a.ini}`", loaded, stops)
    if not a.write:
        sys.stdout.write(text)
        return
    with open(a.write, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{a.write}: no {BEGIN} ... {END} markers")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(a.write, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n\n" + text + "\n" + END + tail)


if __name__ == "__main__":
    main()
