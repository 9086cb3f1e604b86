#!/usr/bin/env python3
"""Markdown table of the piece values in one or more piece_values.csv files.

Usage: piece_values_table.py OUT/piece-values/*/piece_values.csv > table.md
Every row of every file: variant, piece, method, value and 95% interval (in units: the pawn
unless `values --unit` named another; the unit's row says "the unit"), games.

Bad input (a missing, empty or truncated file, a missing column) stops with a one-line message
and exit status 1, and then nothing is printed: the table goes out only once every file has
been read.
"""
import sys

from checked_io import read_csv

COLUMNS = ["variant", "piece", "method", "value", "low", "high", "games", "note"]


def main(paths):
    lines = [
        "| variant | piece | method | value (units) | 95% interval | games | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in paths:
        for r in read_csv(path, COLUMNS, " (not a piece_values.csv?)"):
            interval = f"[{r['low']}, {r['high']}]" if r["low"] else ""
            lines.append(
                f"| {r['variant']} | {r['piece']} | {r['method']} | {r['value'] or '-'} "
                f"| {interval} | {r['games']} | {r['note']} |"
            )
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
