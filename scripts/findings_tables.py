#!/usr/bin/env python3
"""Tables of the findings study (docs/findings.md) from its committed CSVs.

Usage:
  findings_tables.py csv VALUES.csv...        one piece_values.csv of every variant, on stdout
  findings_tables.py markdown DATA_DIR DOC    rewrite the generated part of DOC (between the
                                              markers below) from DATA_DIR's balance.csv,
                                              length.csv, piece_values.csv and games.csv files

Only the part between the markers is written; the prose around it is the author's.
"""
import csv
import os
import sys

BEGIN = "<!-- findings-tables:begin (scripts/findings_tables.py writes this part) -->"
END = "<!-- findings-tables:end -->"
EARLY_PLY = 60
ENDINGS = [
    ("checkmate", "checkmate"),
    ("stalemate", "stalemate"),
    ("repetition", "repetition"),
    ("move_rule", "move rule"),
    ("insufficient_material", "insufficient"),
    ("variant_end", "variant end"),
    ("max_plies", "ply cap"),
    ("adjudication", "adjudicated"),
]
FORFEITS = ["illegal_move", "engine_crash", "time_forfeit"]


def read(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"findings_tables: {path}: {e}")


def col(row, name, path):
    if name not in row:
        sys.exit(f"findings_tables: {path}: no column '{name}'")
    return row[name]


def concat(paths):
    """One CSV of several piece_values.csv files with the same header."""
    writer = None
    for path in paths:
        rows = read(path)
        if not rows:
            continue
        if writer is None:
            writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator="\n")
            writer.writeheader()
        elif list(rows[0].keys()) != writer.fieldnames:
            sys.exit(f"findings_tables: {path}: another header than the first file's")
        writer.writerows(rows)


def num(text, digits):
    if text == "" or text is None:
        return "–"
    v = float(text)
    s = f"{v:.{digits}f}"
    if float(s) == 0:
        s = s.lstrip("-")
    return s.replace("-", "−")


def signed(text, digits=0):
    if text == "":
        return "–"
    v = float(text)
    s = f"{v:+.{digits}f}"
    if float(s) == 0:
        s = f"{0:.{digits}f}"
    return s.replace("-", "−")


def interval(row, name, digits, path, fmt=num):
    return (
        f"{fmt(col(row, name, path), digits)} "
        f"[{fmt(col(row, name + '_low', path), digits)}, {fmt(col(row, name + '_high', path), digits)}]"
    )


def markdown(data, doc):
    bpath = os.path.join(data, "balance.csv")
    lpath = os.path.join(data, "length.csv")
    vpath = os.path.join(data, "piece_values.csv")
    balance = read(bpath)
    length = read(lpath)
    values = read(vpath) if os.path.exists(vpath) else []
    out = [BEGIN, ""]

    out.append("### Balance")
    out.append("")
    out.append(
        "| variant | games | nodes | White's score [95%] | White's Elo [95%] | draw rate [95%] "
        "| W / D / B | balance of decisive games [95%] | mean length, plies [95%] |"
    )
    out.append("|---|---|---|---|---|---|---|---|---|")
    for r in balance:
        p = bpath
        out.append(
            f"| {col(r, 'variant', p)} | {col(r, 'games', p)} | {col(r, 'nodes', p)} "
            f"| {interval(r, 'white_score', 3, p)} | {interval(r, 'white_elo', 0, p, signed)} "
            f"| {interval(r, 'draw_rate', 3, p)} "
            f"| {col(r, 'white_wins', p)} / {col(r, 'draws', p)} / {col(r, 'black_wins', p)} "
            f"| {interval(r, 'balance', 2, p)} | {interval(r, 'duration', 1, p)} |"
        )
    out.append("")

    out.append("### How games ended")
    out.append("")
    out.append(
        f"Counts of games. \"early\" = repetitions before ply {EARLY_PLY} (issue #15's measure of "
        "aimless play), from each variant's `games.csv`."
    )
    out.append("")
    out.append("| variant | " + " | ".join(label for _, label in ENDINGS) + f" | repetition before ply {EARLY_PLY} | forfeits |")
    out.append("|---|" + "---|" * (len(ENDINGS) + 2))
    for r in balance:
        variant = col(r, "variant", bpath)
        gpath = os.path.join(data, variant, "games.csv")
        games = read(gpath) if os.path.exists(gpath) else []
        early = sum(
            1 for g in games if col(g, "termination", gpath) == "repetition" and int(col(g, "plies", gpath)) < EARLY_PLY
        )
        counts = [col(r, "end_" + key, bpath) for key, _ in ENDINGS]
        forfeits = sum(int(col(r, "end_" + key, bpath)) for key in FORFEITS)
        n = int(col(r, "games", bpath))
        early_text = f"{early} ({100 * early / n:.1f}%)" if games and n else "–"
        out.append(f"| {variant} | " + " | ".join(counts) + f" | {early_text} | {forfeits} |")
    out.append("")

    out.append("### Game length (plies)")
    out.append("")
    out.append("| variant | all: median [q1, q3] | min–max | White wins: mean | draws: mean | Black wins: mean |")
    out.append("|---|---|---|---|---|---|")
    by = {}
    for r in length:
        by.setdefault(col(r, "variant", lpath), {})[col(r, "subset", lpath)] = r
    for variant, subsets in by.items():
        a = subsets.get("all")
        if a is None:
            continue

        def mean(name):
            s = subsets.get(name)
            return num(s["mean"], 1) if s and int(s["games"]) > 0 else "–"

        out.append(
            f"| {variant} | {num(a['median'], 0)} [{num(a['q1'], 0)}, {num(a['q3'], 0)}] "
            f"| {a['min']}–{a['max']} | {mean('white_win')} | {mean('draw')} | {mean('black_win')} |"
        )
    out.append("")

    out.append("### Piece values (tuned evaluation, in the variant's pawns)")
    out.append("")
    out.append("| variant | piece | value [95%] | centipawns, bootstrap |")
    out.append("|---|---|---|---|")
    for r in values:
        low, high = col(r, "low", vpath), col(r, "high", vpath)
        value = col(r, "value", vpath)
        shown = f"{num(value, 2)} [{num(low, 2)}, {num(high, 2)}]" if low else (num(value, 2) if value else "–")
        out.append(f"| {col(r, 'variant', vpath)} | {col(r, 'piece', vpath)} | {shown} | {col(r, 'note', vpath)} |")
    out.append("")
    out.append(END)

    text = open(doc).read() if os.path.exists(doc) else f"# Findings\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        sys.exit(f"findings_tables: {doc}: the markers of the generated part are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, "w") as f:
        f.write(head + "\n".join(out) + tail)


def main(argv):
    if len(argv) >= 2 and argv[0] == "csv":
        concat(argv[1:])
    elif len(argv) == 3 and argv[0] == "markdown":
        markdown(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
