#!/usr/bin/env python3
"""Markdown table of the piece values in one or more piece_values.csv files.

Usage: piece_values_table.py OUT/piece-values/*/piece_values.csv > table.md
Every row of every file: variant, piece, method, value and 95% interval (in pawns), games.

Bad input (a missing, empty or truncated file, a missing column) stops with a one-line message
and exit status 1, and then nothing is printed: the table goes out only once every file has
been read.
"""
import csv
import io
import sys

COLUMNS = ["variant", "piece", "method", "value", "low", "high", "games", "note"]


def fail(message):
    sys.exit(f"piece_values_table: {message}")


def read(path):
    """The rows of one piece_values.csv, every row as long as the header."""
    try:
        with open(path, newline="") as f:
            text = f.read()
    except OSError as e:
        fail(f"{path}: {e.strerror or e}")
    except ValueError as e:  # not UTF-8
        fail(f"{path}: not a text file ({e})")
    if not text.strip():
        fail(f"{path}: empty (no header line)")
    if not text.endswith("\n"):
        fail(f"{path}: the last line does not end with a newline (truncated?)")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows = []
    try:
        header = next(reader)
        missing = [name for name in COLUMNS if name not in header]
        if missing:
            fail(f"{path}: no column {', '.join(repr(m) for m in missing)} (not a piece_values.csv?)")
        start = reader.line_num + 1
        for fields in reader:
            if fields and len(fields) != len(header):
                fail(
                    f"{path}, line {start}: {len(fields)} fields where the header has "
                    f"{len(header)} (truncated or malformed row)"
                )
            if fields:
                rows.append(dict(zip(header, fields)))
            start = reader.line_num + 1
    except csv.Error as e:
        fail(f"{path}, line {reader.line_num}: {e}")
    return rows


def main(paths):
    lines = [
        "| variant | piece | method | value (pawns) | 95% interval | games | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in paths:
        for r in read(path):
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
