#!/usr/bin/env python3
"""Tables of the findings study (docs/findings.md) from its committed CSVs.

Usage:
  findings_tables.py csv VALUES.csv...        one piece_values.csv of every variant, on stdout
  findings_tables.py markdown DATA_DIR DOC    rewrite the generated part of DOC (between the
                                              markers below) from DATA_DIR's balance.csv,
                                              length.csv, piece_values.csv and games.csv files

Only the part between the markers is written; the prose around it is the author's.

Bad input (a missing, empty or truncated CSV, a missing column, a value that is not a number,
missing markers) stops with a one-line message and exit status 1 before anything is written:
the CSV goes to stdout only once every file has been read, and DOC is replaced whole (a
temporary file beside it, renamed over it) only once every table has been built.
"""
import csv
import io
import os
import sys

from checked_io import fail, read_csv as read, write_whole

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
# The columns each file must have (checked on the header, before any row is read).
BALANCE_COLUMNS = (
    ["variant", "games", "nodes", "white_wins", "draws", "black_wins"]
    + [f"{name}{end}" for name in ("white_score", "white_elo", "draw_rate", "balance", "duration") for end in ("", "_low", "_high")]
    + ["end_" + key for key, _ in ENDINGS]
    + ["end_" + key for key in FORFEITS]
)
LENGTH_COLUMNS = ["variant", "subset", "games", "mean", "median", "q1", "q3", "min", "max"]
VALUES_COLUMNS = ["variant", "piece", "value", "low", "high", "note"]
GAMES_COLUMNS = ["termination", "plies"]


def col(row, name, path):
    if name not in row:
        fail(f"{path}: no column '{name}'")
    return row[name]


def number(row, name, path, kind=float, empty=True):
    """The text of a numeric column, checked: a number of that kind (or empty, when allowed)."""
    text = col(row, name, path)
    if text == "" and empty:
        return text
    try:
        kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        fail(f"{path}, line {row.line}: column '{name}' is '{text}', not {what}")
    return text


def concat(paths):
    """One CSV of several piece_values.csv files with the same header, on stdout once all
    of them have been read."""
    out = io.StringIO()
    writer = None
    for path in paths:
        rows = read(path)
        if not rows:
            continue
        if writer is None:
            writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()), lineterminator="\n")
            writer.writeheader()
        elif list(rows[0].keys()) != writer.fieldnames:
            fail(f"{path}: another header than the first file's")
        writer.writerows(rows)
    sys.stdout.write(out.getvalue())


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
        f"{fmt(number(row, name, path), digits)} "
        f"[{fmt(number(row, name + '_low', path), digits)}, {fmt(number(row, name + '_high', path), digits)}]"
    )


def markdown(data, doc):
    bpath = os.path.join(data, "balance.csv")
    lpath = os.path.join(data, "length.csv")
    vpath = os.path.join(data, "piece_values.csv")
    # The document first: nothing is worth computing if its markers are not there.
    if os.path.exists(doc):
        try:
            with open(doc) as f:
                text = f.read()
        except OSError as e:
            fail(f"{doc}: {e.strerror or e}")
        except ValueError as e:  # not UTF-8
            fail(f"{doc}: not a text file ({e})")
    else:
        text = f"# Findings\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        fail(f"{doc}: the markers of the generated part are missing")
    if text.count(BEGIN) > 1 or text.count(END) > 1:
        fail(f"{doc}: the markers of the generated part appear more than once")
    head, rest = text.split(BEGIN, 1)
    if END not in rest:
        fail(f"{doc}: the end marker of the generated part comes before the begin marker")
    _, tail = rest.split(END, 1)

    balance = read(bpath, BALANCE_COLUMNS)
    length = read(lpath, LENGTH_COLUMNS)
    values = read(vpath, VALUES_COLUMNS) if os.path.exists(vpath) else []
    if not balance:
        fail(f"{bpath}: no rows (truncated?)")
    if not length:
        fail(f"{lpath}: no rows (truncated?)")
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
        games = read(gpath, GAMES_COLUMNS) if os.path.exists(gpath) else []
        early = sum(
            1
            for g in games
            if int(number(g, "plies", gpath, int, False)) < EARLY_PLY and col(g, "termination", gpath) == "repetition"
        )
        counts = [number(r, "end_" + key, bpath, int, False) for key, _ in ENDINGS]
        forfeits = sum(int(number(r, "end_" + key, bpath, int, False)) for key in FORFEITS)
        n = int(number(r, "games", bpath, int, False))
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
            if not s or int(number(s, "games", lpath, int, False)) <= 0:
                return "–"
            return num(number(s, "mean", lpath), 1)

        out.append(
            f"| {variant} | {num(number(a, 'median', lpath), 0)} "
            f"[{num(number(a, 'q1', lpath), 0)}, {num(number(a, 'q3', lpath), 0)}] "
            f"| {a['min']}–{a['max']} | {mean('white_win')} | {mean('draw')} | {mean('black_win')} |"
        )
    out.append("")

    out.append("### Piece values (tuned evaluation, in the variant's pawns)")
    out.append("")
    out.append("| variant | piece | value [95%] | centipawns, bootstrap |")
    out.append("|---|---|---|---|")
    for r in values:
        low, high = number(r, "low", vpath), number(r, "high", vpath)
        value = number(r, "value", vpath)
        shown = f"{num(value, 2)} [{num(low, 2)}, {num(high, 2)}]" if low else (num(value, 2) if value else "–")
        out.append(f"| {col(r, 'variant', vpath)} | {col(r, 'piece', vpath)} | {shown} | {col(r, 'note', vpath)} |")
    out.append("")
    out.append(END)

    write_whole(doc, head + "\n".join(out) + tail)


def main(argv):
    if len(argv) >= 2 and argv[0] == "csv":
        concat(argv[1:])
    elif len(argv) == 3 and argv[0] == "markdown":
        markdown(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
