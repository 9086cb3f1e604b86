#!/usr/bin/env python3
"""Reference values from fishtest's own statistics, for the SPRT tests.

Usage: fishtest_reference.py FISHTEST_STATS_DIR OUT_DIR [FISHTEST_COMMIT]

FISHTEST_STATS_DIR is the folder `server/fishtest/stats` of a fishtest checkout (it needs
`LLRcalc.py`, `brownian.py` and `sprt.py`, and scipy). Nothing of fishtest is copied: its
modules are loaded from that folder and called, and only the numbers they return are
written, to OUT_DIR/llr_fishtest.csv (the generalised LLR of both Elo models) and
OUT_DIR/sprt_estimate_fishtest.csv (the median-unbiased Elo at a stop, its interval and
LOS, `sprt.analytics`). The samples are drawn from a fixed seed, with the edge cases the
tests need (all draws, all wins or losses, one pair, 100,000 pairs) listed first.
"""

import csv
import importlib.util
import random
import subprocess
import sys
import types
from pathlib import Path


def load(stats_dir):
    """fishtest's LLRcalc, brownian and sprt modules, loaded from their files as the
    package `fishtest.stats` (sprt imports its siblings that way)."""
    pkg = types.ModuleType("fishtest")
    pkg.__path__ = []
    sub = types.ModuleType("fishtest.stats")
    sub.__path__ = [str(stats_dir)]
    sys.modules["fishtest"], sys.modules["fishtest.stats"] = pkg, sub
    mods = {}
    for name in ("LLRcalc", "brownian", "sprt"):
        spec = importlib.util.spec_from_file_location(
            f"fishtest.stats.{name}", Path(stats_dir) / f"{name}.py"
        )
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        setattr(sub, name, mod)
        mods[name] = mod
    return mods


def penta_sample(rng, pairs, elo, draw):
    """Pentanomial counts of `pairs` pairs of independent games at a logistic Elo and a
    per-game draw rate (clamped to what the Elo allows)."""
    s = 1 / (1 + 10 ** (-elo / 400))
    draw = min(draw, 2 * min(s, 1 - s) * 0.999)
    win = s - draw / 2
    counts = [0] * 5
    for _ in range(pairs):
        k = 0
        for _ in range(2):
            u = rng.random()
            k += 2 if u < win else 1 if u < win + draw else 0
        counts[k] += 1
    return counts


def samples():
    """(penta, elo0, elo1) cases: edge cases, then seeded random ones of 1 to 100,000
    pairs at several Elo differences and draw rates."""
    edge = [
        [0, 0, 10, 0, 0], [0, 0, 100000, 0, 0], [10, 0, 0, 0, 0], [0, 0, 0, 0, 10],
        [300, 1, 0, 0, 0], [0, 0, 0, 1, 300], [1, 0, 0, 0, 0], [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 1], [0, 1, 0, 0, 0], [0, 0, 0, 6, 4], [0, 0, 2, 11, 7],
        [1, 3, 6, 6, 4], [0, 0, 7, 0, 0], [600, 1, 0, 0, 0], [5, 0, 0, 0, 5],
        [0, 5, 0, 5, 0], [100000, 0, 0, 0, 0], [0, 0, 0, 0, 100000],
        [1200, 5000, 40000, 5100, 1300],
    ]
    bounds = [(0, 5), (0, 10), (-3, 1), (0, 2), (-5, 0), (2, 8)]
    out = [(p, b) for p in edge for b in bounds[:3]]
    rng = random.Random(20261127)
    while len(out) < 200:
        pairs = rng.choice([1, 2, 3, 5, 10, 30, 100, 1000, 10000, 100000])
        elo = rng.choice([-300, -50, -10, 0, 3, 10, 40, 200])
        draw = rng.choice([0.0, 0.3, 0.6, 0.85, 0.97])
        out.append((penta_sample(rng, pairs, elo, draw), rng.choice(bounds)))
    return out


def main():
    stats_dir, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    mods = load(stats_dir)
    llrcalc, sprt = mods["LLRcalc"], mods["sprt"]
    commit = sys.argv[3] if len(sys.argv) > 3 else subprocess.run(
        ["git", "-C", str(stats_dir), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip() or "unknown"
    cases = samples()
    skipped = []
    with open(out_dir / "llr_fishtest.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["model", "elo0", "elo1", "ll", "ld", "dd_wl", "wd", "ww", "llr"])
        for penta, (e0, e1) in cases:
            for model, fn in (
                ("logistic", llrcalc.LLR_logistic),
                ("normalized", llrcalc.LLR_normalized),
            ):
                try:
                    llr = fn(e0, e1, list(penta))
                except (AssertionError, ValueError) as e:
                    # fishtest's root finder stops 1e-9 short of the bracket's ends, too
                    # far for the most lopsided samples: it has no value to compare with.
                    skipped.append(f"{model} {e0},{e1} {penta}: {type(e).__name__}")
                    continue
                w.writerow([model, e0, e1, *penta, repr(float(llr))])
    with open(out_dir / "sprt_estimate_fishtest.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["elo0", "elo1", "ll", "ld", "dd_wl", "wd", "ww", "elo", "low", "high", "los", "llr"])
        for penta, (e0, e1) in cases:
            if sum(penta) < 30:
                continue  # fishtest's estimate is for matches of some length
            s = sprt.sprt(alpha=0.05, beta=0.05, elo0=e0, elo1=e1, elo_model="logistic")
            try:
                s.set_state(list(penta))
                a = s.analytics(0.05)
            except (AssertionError, ValueError, ZeroDivisionError, OverflowError) as e:
                skipped.append(f"estimate {e0},{e1} {penta}: {type(e).__name__}")
                continue
            w.writerow([e0, e1, *penta, *(repr(float(x)) for x in (a["elo"], *a["ci"], a["LOS"], a["LLR"]))])
    for line in skipped:
        print(f"fishtest gives no value: {line}")
    print(f"fishtest {commit}: {len(cases)} samples written to {out_dir}")


if __name__ == "__main__":
    main()
