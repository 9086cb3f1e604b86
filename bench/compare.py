#!/usr/bin/env python3
"""List criterion benchmarks whose mean changed beyond a noise threshold against the baseline.

Run after `cargo bench -p variantlab-bench -- --baseline main`; reads
target/criterion/<group>/<bench>/change/estimates.json. Exit status 1 when something regressed.
"""
import json
import pathlib
import sys

threshold = float(sys.argv[1]) if len(sys.argv) > 1 else 0.03
root = pathlib.Path("target/criterion")
regressed = 0
rows = []
for est in sorted(root.glob("**/change/estimates.json")):
    bench = est.parent.parent.relative_to(root)
    change = json.loads(est.read_text())["mean"]["point_estimate"]
    flag = "REGRESSED" if change > threshold else ("improved" if change < -threshold else "")
    regressed += flag == "REGRESSED"
    rows.append((str(bench), change, flag))
if not rows:
    sys.exit("no comparison found: run `make bench-save` first, then `make bench-compare`")
for name, change, flag in rows:
    print(f"{name:<50} {change * 100:+7.2f}%  {flag}")
print(f"{regressed} regression(s) beyond {threshold * 100:.0f}%")
sys.exit(1 if regressed else 0)
