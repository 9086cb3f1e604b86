"""Checked input and whole-file output shared by the scripts in this folder: bad input stops
with a one-line message naming the script and exit status 1, never a traceback, and an output
file is replaced whole or not at all."""
import csv
import io
import os
import shutil
import sys


def fail(message):
    """Stops the running script with `name: message` and exit status 1."""
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    sys.exit(f"{name}: {message}")


class Row(dict):
    """One CSV row (column -> text), with the line it started on for messages."""

    line = 0


def read_csv(path, required=(), hint=""):
    """The rows of a CSV file with a header, every row as long as the header (blank lines
    skipped, as csv.DictReader does); the columns named in required must be in the header,
    else the message ends with hint."""
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
    try:
        header = next(reader)
        missing = [name for name in required if name not in header]
        if missing:
            fail(f"{path}: no column {', '.join(repr(m) for m in missing)}{hint}")
        rows = []
        start = reader.line_num + 1
        for fields in reader:
            if not fields:
                start = reader.line_num + 1
                continue
            if len(fields) != len(header):
                fail(
                    f"{path}, line {start}: {len(fields)} fields where the header has "
                    f"{len(header)} (truncated or malformed row)"
                )
            row = Row(zip(header, fields))
            row.line = start
            rows.append(row)
            start = reader.line_num + 1
    except csv.Error as e:
        fail(f"{path}, line {reader.line_num}: {e}")
    return rows


def write_whole(path, text):
    """Write text to path through a temporary file in the same folder, renamed over it."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "x") as f:
            f.write(text)
        if os.path.isfile(path):
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        fail(f"{path}: cannot write: {e.strerror or e}")
