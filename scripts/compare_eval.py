"""Compares variantlab's static evaluation with a reference engine's evaluation trace on the
positions of recorded chess games, and says which of the reference's terms explain what
variantlab's evaluation misses (docs/evaluation.md, "Where our evaluation and
Fairy-Stockfish's disagree").

Usage: python3 scripts/compare_eval.py RUN --variantlab BIN [--reference ENGINE]
           [--config CONFIG.json] [--every 3] [--from-ply 10] [--to-ply 90] [--out FILE.json]

RUN is a chess run folder recorded with --record-moves (games.csv, moves.csv). Every
`--every`-th position between the plies `--from-ply` and `--to-ply` after each game's opening,
not in check, is evaluated by both engines over UCI: variantlab's `eval` (its feature groups)
and the reference's `eval` (Fairy-Stockfish's or Stockfish's classical trace, whose terms are
blended here by Stockfish's game phase). Then:
- the reference's total is fitted by least squares on variantlab's groups (how much of the
  reference's judgement variantlab's features can express, at any weights: R²);
- each reference term is added to that fit alone: the share of the remaining variance it
  explains is what variantlab's evaluation lacks of it.
Positions where either total is beyond 6 pawns are left out (won positions say little).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checked_io import fail, read_csv, write_whole  # noqa: E402

# Stockfish's middle-game values of the pieces that count for its game phase, and the bounds
# of that phase (end game at or below the first, middle game at or above the second).
PHASE_VALUES = {"n": 781, "b": 825, "r": 1276, "q": 2538}
PHASE_END, PHASE_MID = 3915, 15258


def phase_of(fen):
    """Stockfish's game phase of a FEN's position, 0 (end game) to 128 (middle game)."""
    board = fen.split()[0]
    npm = sum(PHASE_VALUES.get(ch.lower(), 0) for ch in board if ch.isalpha())
    return (min(max(npm, PHASE_END), PHASE_MID) - PHASE_END) * 128 / (PHASE_MID - PHASE_END)


def parse_reference_trace(lines, phase):
    """Term -> blended value in pawns (White's side) from a Stockfish-style trace table:
    rows `Term | White MG EG | Black MG EG | Total MG EG`."""
    terms = {}
    for line in lines:
        cols = line.split("|")
        if len(cols) != 4:
            continue
        name = cols[0].strip()
        total = cols[3].split()
        if name in ("Term", "") or len(total) != 2:
            continue
        try:
            mg, eg = float(total[0]), float(total[1])
        except ValueError:
            continue
        terms[name] = (mg * phase + eg * (128 - phase)) / 128
    return terms


def parse_our_trace(lines):
    """Group -> blended value in pawns (White's side) from variantlab's `eval` table:
    rows `Group | MG EG | Blend`."""
    groups = {}
    for line in lines:
        cols = line.split("|")
        if len(cols) != 3 or cols[0].strip() in ("Group", ""):
            continue
        try:
            groups[cols[0].strip()] = float(cols[2])
        except ValueError:
            continue
    return groups


def least_squares(rows, targets):
    """Coefficients c minimising sum (row . c - target)^2 (normal equations, Gaussian
    elimination with partial pivoting; a column that is always zero gets 0)."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * t for r, t in zip(rows, targets)) for i in range(n)]
    for i in range(n):
        a[i][i] += 1e-9
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv], b[col], b[piv] = a[piv], a[col], b[piv], b[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for c in range(col, n):
                a[r][c] -= f * a[col][c]
            b[r] -= f * b[col]
    coef = [0.0] * n
    for i in reversed(range(n)):
        coef[i] = (b[i] - sum(a[i][j] * coef[j] for j in range(i + 1, n))) / a[i][i]
    return coef


def variance(xs):
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


def residuals(rows, targets):
    coef = least_squares(rows, targets)
    return [t - sum(c * x for c, x in zip(coef, r)) for r, t in zip(rows, targets)]


def explain(samples):
    """(R² of the reference's total on our groups, [(term, share of the residual variance
    it explains, its standard deviation)] largest share first). samples: [(our groups,
    reference terms)], each a dict with a "Total"."""
    ours = sorted(k for k in samples[0][0] if k != "Total")
    ref = sorted(k for k in samples[0][1] if k != "Total")
    base = [[s[0][k] for k in ours] + [1.0] for s in samples]
    target = [s[1]["Total"] for s in samples]
    res = residuals(base, target)
    r2 = 1 - variance(res) / variance(target)
    gains = []
    for term in ref:
        col = [s[1][term] for s in samples]
        if variance(col) == 0:
            continue
        more = residuals([r + [x] for r, x in zip(base, col)], target)
        gains.append((term, 1 - variance(more) / variance(res), variance(col) ** 0.5))
    gains.sort(key=lambda g: -g[1])
    return r2, gains


class Engine:
    """A UCI engine process read line by line."""

    def __init__(self, command):
        try:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        except OSError as e:
            fail(f"cannot start {command[0]}: {e}")
        self.name = command[0]
        self.ask(["uci"], "uciok")

    def ask(self, lines, until):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        got = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                fail(f"{self.name} ended before answering {lines[-1]!r}")
            got.append(line.rstrip("\n"))
            if line.startswith(until):
                return got

    def close(self):
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait(timeout=10)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("run")
    p.add_argument("--variantlab", required=True)
    p.add_argument("--reference", default=None)
    p.add_argument("--config", default=None)
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--from-ply", type=int, default=10)
    p.add_argument("--to-ply", type=int, default=90)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    if a.every < 1 or a.from_ply < 0 or a.to_ply <= a.from_ply:
        fail("--every must be at least 1 and --to-ply above --from-ply")
    games = read_csv(os.path.join(a.run, "games.csv"), ("game_id", "variant", "opening"))
    moves = read_csv(
        os.path.join(a.run, "moves.csv"), ("game_id", "move"), "record the run with --record-moves"
    )
    if any(g["variant"] != "chess" for g in games):
        fail("the reference's trace is for chess: the run has other variants")
    reference = a.reference or shutil.which(
        "fairy-stockfish", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games"
    )
    if reference is None:
        fail("no reference engine: pass --reference or install fairy-stockfish")
    by_game = {}
    for m in moves:
        by_game.setdefault(m["game_id"], []).append(m["move"])
    ref, ours = Engine([reference]), Engine([a.variantlab, "uci"])
    if a.config:
        ours.ask([f"setoption name EngineConfig value {a.config}", "isready"], "readyok")
    samples, rows = [], []
    for g in games:
        opening = g["opening"].split()
        line = opening + by_game.get(g["game_id"], [])
        for ply in range(len(opening) + a.from_ply, min(len(line), len(opening) + a.to_ply), a.every):
            got = ref.ask(["position startpos moves " + " ".join(line[:ply]), "eval", "d"], "Checkers")
            fen = next((x[5:] for x in got if x.startswith("Fen: ")), None)
            checkers = next((x for x in got if x.startswith("Checkers")), "")
            if fen is None or checkers.strip() != "Checkers:":
                continue
            theirs = parse_reference_trace(got, phase_of(fen))
            mine = parse_our_trace(ours.ask(["position fen " + fen, "eval"], "Phase"))
            if "Total" not in theirs or "Total" not in mine:
                continue
            rows.append({"game": g["game_id"], "ply": ply, "fen": fen, "reference": theirs, "ours": mine})
            if abs(theirs["Total"]) < 6 and abs(mine["Total"]) < 6:
                samples.append((mine, theirs))
    ref.close()
    ours.close()
    if len(samples) < 30:
        fail(f"only {len(samples)} positions to compare: record more or longer games")
    r2, gains = explain(samples)
    print(f"{len(samples)} positions; the reference's total on our groups: R² {r2:.3f}")
    print("reference term     share of the rest it explains   sd (pawns)")
    for term, gain, sd in gains:
        print(f"{term:<18} {gain:>10.3f} {sd:>28.2f}")
    if a.out:
        write_whole(a.out, json.dumps({"r2": r2, "gains": gains, "positions": rows}))


if __name__ == "__main__":
    main()
