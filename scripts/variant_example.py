#!/usr/bin/env python3
"""The worked example of docs/variant-files.md from its committed data.

Usage:
  variant_example.py DATA_DIR DOC    rewrite the generated part of DOC (between the markers
                                     below) from DATA_DIR's balance.csv and each variant's
                                     run.json (DATA_DIR/VARIANT/run.json)

scripts/variant_example.sh plays the study and copies its files to DATA_DIR first
(`make variant-example`). Only the part between the markers is written; the prose around it
is the author's.

Bad input (a missing, empty or truncated CSV, a missing column, a value that is not a number,
an unreadable run.json, missing markers) stops with a one-line message and exit status 1
before anything is written; DOC is replaced whole (a temporary file beside it, renamed over
it) only once the part has been built.
"""
import json
import os
import sys

from checked_io import fail, read_csv as read, write_whole

BEGIN = "<!-- variant-example:begin (scripts/variant_example.py writes this part) -->"
END = "<!-- variant-example:end -->"
ENDINGS = [
    ("repetition", "repetition"),
    ("move_rule", "the move-count rule"),
    ("checkmate", "checkmate"),
    ("stalemate", "stalemate"),
    ("variant_end", "the variant's own end"),
    ("max_plies", "the ply cap"),
]
COLUMNS = (
    ["variant", "games", "nodes", "openings", "max_plies", "seed", "white_wins", "draws", "black_wins"]
    + [f"{name}{end}" for name in ("white_score", "white_elo") for end in ("", "_low", "_high")]
    + ["draw_rate", "decisive_games", "duration"]
    + ["end_" + key for key, _ in ENDINGS]
)


def number(row, name, path, kind=float):
    try:
        return kind(row[name])
    except ValueError:
        fail(f"{path}, line {row.line}: {name} is not a number: {row[name]!r}")


def run_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        fail(f"{path}: {e.strerror or e}")
    except ValueError as e:
        fail(f"{path}: not JSON ({e})")


def elo(x):
    return f"{x:+.0f}" if round(x) != 0 else "0"


def part(data):
    bpath = os.path.join(data, "balance.csv")
    rows = read(bpath, COLUMNS)
    if len(rows) < 2:
        fail(f"{bpath}: {len(rows)} row(s), the example compares two variants (truncated?)")
    runs = []
    for r in rows:
        rpath = os.path.join(data, r["variant"], "run.json")
        config = run_json(rpath)
        for key in ("engine_version", "git_commit", "threads"):
            if key not in config:
                fail(f"{rpath}: no field '{key}'")
        runs.append(config)
    first = rows[0]
    commits = sorted({str(c["git_commit"]) for c in runs})
    out = [BEGIN, ""]
    out.append(
        f"Studied against the original, {first['games']} games each at {first['nodes']} nodes per "
        f"move (openings `{first['openings']}`, seed {first['seed']}), by variantlab "
        f"{runs[0]['engine_version']} at commit `{', '.join(commits)}`:"
    )
    out.append("")
    out.append("```sh")
    out.append(
        "variantlab study --variant-file docs/examples/dream-46-queen-back.toml \\\n"
        f"                 --variants {','.join(r['variant'] for r in rows)} --games {first['games']}"
    )
    out.append("```")
    out.append("")
    out.append("That run's `balance.csv` (committed in `data/variant-example/`):")
    out.append("")
    out.append(
        "| variant | games | White wins / draws / Black wins | White's score [95%] | White Elo [95%] "
        "| draws | decisive games | mean plies |"
    )
    out.append("|---|---|---|---|---|---|---|---|")
    for r in rows:
        s = [number(r, f"white_score{e}", bpath) for e in ("", "_low", "_high")]
        e = [number(r, f"white_elo{x}", bpath) for x in ("", "_low", "_high")]
        draws = number(r, "draw_rate", bpath)
        out.append(
            f"| `{r['variant']}` | {r['games']} | {r['white_wins']} / {r['draws']} / {r['black_wins']} "
            f"| {s[0]:.3f} [{s[1]:.3f}, {s[2]:.3f}] | {elo(e[0])} [{elo(e[1])}, {elo(e[2])}] "
            f"| {100 * draws:.1f}% | {r['decisive_games']} | {number(r, 'duration', bpath):.0f} |"
        )
    out.append("")
    names = " and ".join(f"`{r['variant']}`" for r in rows)
    parts = []
    for key, words in ENDINGS:
        counts = [number(r, "end_" + key, bpath, int) for r in rows]
        if any(counts):
            parts.append(f"by {words} {' and '.join(str(c) for c in counts)} times")
    caps = " and ".join(r["max_plies"] for r in rows)
    out.append(f"Games of {names} ended {', '.join(parts)} (the ply cap: {caps} plies).")
    holding = [
        r["variant"]
        for r in rows
        if number(r, "white_score_low", bpath) <= 0.5 <= number(r, "white_score_high", bpath)
    ]
    if len(holding) == len(rows):
        verdict = "Every interval of White's score contains 0.5: neither array is shown to favour a side."
    elif not holding:
        verdict = "No interval of White's score contains 0.5: each array favours a side."
    else:
        verdict = (
            f"White's score interval contains 0.5 for {', '.join(f'`{h}`' for h in holding)} only; "
            "the others favour a side."
        )
    out.append(verdict)
    out.append("")
    out.append(END)
    return "\n".join(out)


def main(argv):
    if len(argv) != 3:
        fail("usage: variant_example.py DATA_DIR DOC")
    data, doc = argv[1], argv[2]
    try:
        with open(doc) as f:
            text = f.read()
    except OSError as e:
        fail(f"{doc}: {e.strerror or e}")
    except ValueError as e:
        fail(f"{doc}: not a text file ({e})")
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        fail(f"{doc}: the markers of the generated part are missing or repeated")
    head, rest = text.split(BEGIN, 1)
    if END not in rest:
        fail(f"{doc}: the end marker of the generated part comes before the begin marker")
    _, tail = rest.split(END, 1)
    write_whole(doc, head + part(data) + tail)


if __name__ == "__main__":
    main(sys.argv)
