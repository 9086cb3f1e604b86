#!/usr/bin/env python3
"""Every section of a variants.ini that variantlab loads, checked against a Fairy-Stockfish
program (issue #56).

    scripts/fsf_differential.py VARIANTLAB FAIRY_STOCKFISH VARIANTS_INI
        [--games 4] [--plies 200] [--nodes 2000000] [--label TEXT] [--write DOC.md]

For each section that `variantlab --variant-file VARIANTS_INI perft --variant NAME` loads:
perft from the start, depth by depth while variantlab's count stays under --nodes; then
--games seeded random games of up to --plies plies, the moves chosen among Fairy-Stockfish's
legal moves, where at every position both programs must list the same legal moves (none
where the game has ended), with perft 3 compared every 40 plies. Fairy-Stockfish is given
the same file (`VariantPath`). Prints a markdown table; with --write, puts it in DOC.md
between `<!-- fsf-differential:begin -->` and `<!-- fsf-differential:end -->`. Exits 1 if
any section disagrees.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fsf_coverage import sections  # noqa: E402  (the same section list as the coverage)

BEGIN = "<!-- fsf-differential:begin (scripts/fsf_differential.py writes this part) -->"
END = "<!-- fsf-differential:end -->"
PERFT_EVERY = 40


def splitmix(state):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


class Ours:
    def __init__(self, binary, ini, variant):
        self.base = [binary, "--variant-file", ini]
        self.variant = variant

    def run(self, args):
        r = subprocess.run(self.base + args, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip())
        return r.stdout

    def perft(self, depth, fen=None):
        args = ["perft", "--variant", self.variant, "--depth", str(depth), "--json"]
        if fen:
            args += ["--position", fen]
        return json.loads(self.run(args))["nodes"]

    def moves(self, fen):
        out = self.run(
            ["perft", "--variant", self.variant, "--depth", "1", "--divide", "--position", fen]
        )
        return sorted(l[:-2] for l in out.splitlines() if l.endswith(" 1"))


class Fsf:
    def __init__(self, binary, ini, variant):
        self.p = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.send(f"uci\nsetoption name VariantPath value {ini}")
        self.send(f"setoption name UCI_Variant value {variant}\nisready")
        self.until(lambda l: l == "readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError(f"fairy-stockfish ended after {lines[-3:]}")
            l = l.strip()
            lines.append(l)
            if done(l):
                return lines

    def perft(self, depth, position="startpos"):
        self.send(f"position {position}\ngo perft {depth}")
        last = self.until(lambda l: l.startswith("Nodes searched"))[-1]
        return int(last.split(":")[1])

    def position(self, moves):
        pos = "startpos" + (" moves " + " ".join(moves) if moves else "")
        self.send(f"position {pos}\ngo perft 1")
        lines = self.until(lambda l: l.startswith("Nodes searched"))
        legal = sorted(
            l[:-3] for l in lines if l.endswith(": 1") and not l.startswith("Nodes searched")
        )
        self.send("d")
        lines = self.until(lambda l: l.startswith("Checkers:"))
        fen = next(l[5:] for l in lines if l.startswith("Fen: "))
        return legal, fen

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def check(ours_bin, fsf_bin, ini, name, games, plies, nodes):
    """(start depths agreed, positions compared, games ended, first disagreement or None)."""
    ours = Ours(ours_bin, ini, name)
    fsf = Fsf(fsf_bin, ini, name)
    try:
        depth = 0
        for d in range(1, 7):
            n = ours.perft(d)
            theirs = fsf.perft(d)
            if n != theirs:
                return depth, 0, 0, f"perft {d} from the start: {n} against {theirs}"
            depth = d
            if n > nodes:
                break
        positions, ended = 0, 0
        for game in range(games):
            state, moves = 0x5EED0000 + game, []
            while True:
                legal, fen = fsf.position(moves)
                mine = ours.moves(fen)
                positions += 1
                if mine != legal:
                    extra = sorted(set(mine) - set(legal))[:5]
                    missing = sorted(set(legal) - set(mine))[:5]
                    return depth, positions, ended, (
                        f"game {game}, `{fen}`: variantlab's extra moves {extra}, missing {missing}"
                    )
                if not legal:
                    ended += 1
                    break
                if len(moves) % PERFT_EVERY == PERFT_EVERY // 2:
                    a, b = ours.perft(3, fen), fsf.perft(3, f"fen {fen}")
                    if a != b:
                        return depth, positions, ended, f"perft 3 at `{fen}`: {a} against {b}"
                if len(moves) >= plies:
                    break
                state, r = splitmix(state)
                moves.append(legal[r % len(legal)])
        return depth, positions, ended, None
    finally:
        fsf.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variantlab")
    ap.add_argument("fairy_stockfish")
    ap.add_argument("ini")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=200)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--label", default=None)
    ap.add_argument("--write", metavar="DOC")
    a = ap.parse_args()
    rows, disagree = [], 0
    for name in sections(a.ini):
        probe = subprocess.run(
            [a.variantlab, "--variant-file", a.ini, "perft", "--variant", name, "--depth", "1"],
            capture_output=True,
            text=True,
        )
        if probe.returncode != 0:
            continue
        try:
            depth, positions, ended, bad = check(
                a.variantlab, a.fairy_stockfish, a.ini, name, a.games, a.plies, a.nodes
            )
        except RuntimeError as e:
            depth, positions, ended, bad = 0, 0, 0, f"error: {str(e).splitlines()[-1][:120]}"
        disagree += bad is not None
        rows.append((name, depth, positions, ended, bad))
        print(f"{name}: {bad or 'agrees'}", file=sys.stderr)
    label = a.label or a.ini
    agree = len(rows) - disagree
    out = [
        f"Of the {len(rows)} sections of {label} that load, **{agree} agree** with "
        f"Fairy-Stockfish on perft from the start and on every position of {a.games} random "
        f"games of up to {a.plies} plies (the same legal moves, none where the game has ended, "
        f"and perft 3 every {PERFT_EVERY} plies).",
        "",
        "| section | perft from the start, depths | positions compared | games ended by the rules | disagreement |",
        "|---|---|---|---|---|",
    ]
    for name, depth, positions, ended, bad in rows:
        out.append(f"| `{name}` | 1-{depth} | {positions:,} | {ended} of {a.games} | {bad or 'none'} |")
    text = "\n".join(out) + "\n"
    print(text)
    if a.write:
        with open(a.write, encoding="utf-8") as f:
            doc = f.read()
        i, j = doc.find(BEGIN), doc.find(END)
        if i < 0 or j < i:
            sys.exit(f"{a.write}: no {BEGIN} ... {END} markers")
        with open(a.write, "w", encoding="utf-8") as f:
            f.write(doc[: i + len(BEGIN)] + "\n\n" + text + "\n" + doc[j:])
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
