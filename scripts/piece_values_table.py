#!/usr/bin/env python3
"""Markdown table of the piece values in one or more piece_values.csv files.

Usage: piece_values_table.py OUT/piece-values/*/piece_values.csv > table.md
Every row of every file: variant, piece, method, value and 95% interval (in pawns), games.
"""
import csv
import sys


def main(paths):
    print("| variant | piece | method | value (pawns) | 95% interval | games | note |")
    print("|---|---|---|---|---|---|---|")
    for path in paths:
        try:
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            sys.exit(f"{path}: {e}")
        for r in rows:
            try:
                interval = f"[{r['low']}, {r['high']}]" if r["low"] else ""
                print(
                    f"| {r['variant']} | {r['piece']} | {r['method']} | {r['value'] or '-'} "
                    f"| {interval} | {r['games']} | {r['note']} |"
                )
            except KeyError as e:
                sys.exit(f"{path}: no column {e} (not a piece_values.csv?)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
