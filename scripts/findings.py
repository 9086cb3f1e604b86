#!/usr/bin/env python3
"""The findings' data steps (scripts/findings.sh, scripts/findings_derive.sh, make findings-check).

    findings.py compress MOVES_CSV OUT_XZ       a run's moves.csv, xz-compressed (reproducibly)
    findings.py decompress IN_XZ OUT_CSV        and back
    findings.py values RUN=CSV ...              the runs' piece_values.csv files as one table,
                                                with a `run` column, on stdout
    findings.py ladder DATA                     DATA/ladder.csv (written by `stats`) with each
                                                run's leading piece values from
                                                DATA/piece_values.csv
    findings.py trades DATA                     DATA/trades/combined.csv: the seeds of each
                                                variant and level in DATA/trades/values.csv
                                                combined (mean, Student's t interval)
    findings.py page DATA                       docs/findings.md rendered from
                                                scripts/findings_page.md and DATA, on stdout
    findings.py plots DATA FOLDER               FOLDER/VARIANT.svg, each variant's ladder

Every figure of docs/findings.md comes from these files; the page's text takes its numbers from
the same place (the template's {placeholders}). Bad input (a missing file or column, a value
that is not a number, a placeholder the data do not define) is an error naming the file, the
line and the field, with exit status 1; nothing is written then.
"""

import csv
import io
import lzma
import os
import sys

# The leading values that ladder.csv lists per run: the dearest estimable kinds.
LEADING_VALUES = 4
# The players of variantlab's own ladder (the default configuration) in ladder.csv.
OURS = "default"


def fail(message):
    print(f"findings.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_csv(path):
    """Rows of a CSV as dicts, each with its line number in `_line`."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            rows = []
            for row in reader:
                if None in row or any(v is None for v in row.values()):
                    fail(f"{path}, line {reader.line_num}: wrong number of fields (truncated?)")
                row["_line"] = reader.line_num
                rows.append(row)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except (UnicodeDecodeError, csv.Error) as e:
        fail(f"{path}: not a CSV file ({e})")
    if not rows:
        fail(f"{path}: no rows")
    return rows


def field(row, name, path, kind=float, empty=False):
    if name not in row:
        fail(f"{path}: no column '{name}'")
    text = row[name]
    if text == "" and empty:
        return None
    try:
        return kind(text)
    except ValueError:
        fail(f"{path}, line {row['_line']}: column '{name}' is '{text}', not a number")


def write_csv(path, header, rows):
    tmp = path + ".new"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


# --- records -------------------------------------------------------------------------------


def compress(src, dst):
    try:
        with open(src, "rb") as f:
            data = f.read()
    except OSError as e:
        fail(f"{src}: {e.strerror}")
    tmp = dst + ".new"
    with open(tmp, "wb") as f:
        f.write(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    os.replace(tmp, dst)


def decompress(src, dst):
    try:
        with open(src, "rb") as f:
            data = lzma.decompress(f.read())
    except OSError as e:
        fail(f"{src}: {e.strerror}")
    except lzma.LZMAError as e:
        fail(f"{src}: not an xz file ({e})")
    with open(dst, "wb") as f:
        f.write(data)


# --- piece values --------------------------------------------------------------------------


def values(args):
    header = ["run", "variant", "piece", "method", "value", "low", "high", "games", "note"]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    for arg in args:
        run, sep, path = arg.partition("=")
        if not sep:
            fail(f"'{arg}' is not RUN=piece_values.csv")
        for row in read_csv(path):
            for name in header[1:]:
                if name not in row:
                    fail(f"{path}: no column '{name}'")
            w.writerow([run] + [row[name] for name in header[1:]])
    sys.stdout.write(out.getvalue())


# --- piece values priced by trades, over independent seeds ---------------------------------

# Student's t quantile t(0.975, df) for df = 1..30: the seeds are few, so the interval of their
# mean is wider than the normal one (a table of the distribution's published values).
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_interval(xs):
    """(mean, low, high, sd) of independent replicates: the mean with the 95% Student's t
    interval, from at least two values."""
    k = len(xs)
    if k < 2 or k - 1 > len(T975):
        fail(f"{k} replicates: the interval needs 2 to {len(T975) + 1}")
    m = sum(xs) / k
    sd = (sum((x - m) ** 2 for x in xs) / (k - 1)) ** 0.5
    h = T975[k - 2] * sd / k**0.5
    return m, m - h, m + h, sd


def trade_run(run, path, line):
    """(variant, nodes, seed) of a trades run named trades/VARIANT/nodes-N/seed-S."""
    parts = run.split("/")
    try:
        if len(parts) != 4 or parts[0] != "trades":
            raise ValueError
        return parts[1], int(parts[2].removeprefix("nodes-")), int(parts[3].removeprefix("seed-"))
    except ValueError:
        fail(f"{path}, line {line}: run '{run}' is not trades/VARIANT/nodes-N/seed-S")


def trades(data):
    """DATA/trades/combined.csv from DATA/trades/values.csv: per variant, level, method (the
    whole game's `balanced`, or one phase's) and piece, the mean of the seeds' values with its
    95% t interval over the seeds (each seed's games an independent replicate), the seeds that
    gave a value, and their games. A piece that
    fewer than two seeds could value has no interval, and says so."""
    path = os.path.join(data, "trades", "values.csv")
    groups = {}
    for r in read_csv(path):
        variant, nodes, seed = trade_run(r["run"], path, r["_line"])
        g = groups.setdefault((variant, nodes, r["method"], r["piece"]),
                              {"values": [], "seeds": 0, "games": 0, "unit": False})
        g["seeds"] += 1
        g["games"] += field(r, "games", path, int)
        value = field(r, "value", path, empty=True)
        if r["note"].startswith("the unit"):
            g["unit"] = True
        elif value is not None and r["low"] != "":
            g["values"].append((seed, value))
    out = []
    for (variant, nodes, method, piece), g in sorted(groups.items(), key=lambda kv: kv[0][:3]):
        per_seed = " ".join(f"{v:.3f}" for _, v in sorted(g["values"]))
        key = [variant, nodes, method, piece, g["seeds"], g["games"]]
        if g["unit"]:
            out.append(key + ["1.000", "", "", "", "", "the unit"])
        elif len(g["values"]) < 2:
            out.append(key + ["", "", "", "", per_seed, f"valued by {len(g['values'])} of {g['seeds']} seeds"])
        else:
            m, lo, hi, sd = mean_interval([v for _, v in g["values"]])
            note = "" if len(g["values"]) == g["seeds"] else f"valued by {len(g['values'])} of {g['seeds']} seeds"
            out.append(key + [f"{m:.3f}", f"{lo:.3f}", f"{hi:.3f}", f"{sd:.3f}", per_seed, note])
    write_csv(os.path.join(data, "trades", "combined.csv"),
              ["variant", "nodes", "method", "piece", "seeds", "games", "value", "low", "high", "sd", "per_seed",
               "note"], out)


# --- the ladder ----------------------------------------------------------------------------


def leading_values(rows, path):
    """The dearest estimable kinds of one run, 'queen 6.27 [5.19, 7.04]; ...'."""
    estimable = []
    for r in rows:
        value = field(r, "value", path, empty=True)
        low = field(r, "low", path, empty=True)
        if value is not None and low is not None:
            estimable.append((value, r["piece"], low, field(r, "high", path)))
    estimable.sort(key=lambda e: (-e[0], e[1]))
    return "; ".join(f"{p} {v:.2f} [{lo:.2f}, {hi:.2f}]" for v, p, lo, hi in estimable[:LEADING_VALUES])


def ladder(data):
    """`stats`' ladder.csv with each run's leading piece values added (`leading_values`)."""
    lpath = os.path.join(data, "ladder.csv")
    vpath = os.path.join(data, "piece_values.csv")
    rows = read_csv(lpath)
    by_run = {}
    for r in read_csv(vpath):
        for name in ("run", "piece", "value", "low", "high"):
            if name not in r:
                fail(f"{vpath}: no column '{name}'")
        by_run.setdefault(r["run"], []).append(r)
    header = [h for h in rows[0] if h not in ("_line", "leading_values")]
    if "run" not in header:
        fail(f"{lpath}: no column 'run'")
    out = [[r[h] for h in header] + [leading_values(by_run.get(r["run"], []), vpath)] for r in rows]
    write_csv(lpath, header + ["leading_values"], out)


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "compress" and len(args) == 2:
        compress(*args)
    elif cmd == "decompress" and len(args) == 2:
        decompress(*args)
    elif cmd == "values" and args:
        values(args)
    elif cmd == "trades" and len(args) == 1:
        trades(args[0])
    elif cmd == "ladder" and len(args) == 1:
        ladder(args[0])
    elif cmd == "page" and len(args) == 1:
        import findings_page

        sys.stdout.write(findings_page.render(args[0]))
    elif cmd == "plots" and len(args) == 2:
        import findings_page

        findings_page.plots(*args)
    else:
        fail(__doc__)


if __name__ == "__main__":
    main(sys.argv)
