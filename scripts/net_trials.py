#!/usr/bin/env python3
"""The table of network trials in docs/evaluation.md, from their committed record (issue 54).

    scripts/net_trials.py TRIALS_DIR [--write DOC.md | --check DOC.md]

TRIALS_DIR (data/eval/nets/trials) has a folder per variant; in it each trial NAME is three
files: NAME.vlnet (the network, whose description says how it was made), NAME.config.json
(the SPRT's settings) and NAME.sprt.json (its result); a further SPRT of the same network (at
equal time, say) is NAME@LABEL.config.json and NAME@LABEL.sprt.json, a row of its own. Prints
one markdown table per variant, ordered by training positions; --write puts the tables in DOC.md between
`<!-- net-trials:begin ... -->` and `<!-- net-trials:end -->`, --check fails when DOC.md's
part differs from what the record gives.
"""
import argparse
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checked_io import fail, write_whole  # noqa: E402

BEGIN = "<!-- net-trials:begin (scripts/net_trials.py writes this part) -->"
END = "<!-- net-trials:end -->"
MAGIC = b"VLNET\0\0"


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path}: not JSON ({e})")


def net_info(path):
    """The JSON description at the start of a .vlnet file."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) < 12 or head[:7] != MAGIC:
                fail(f"{path}: not a variantlab network file")
            (n,) = struct.unpack("<I", head[8:12])
            text = f.read(n)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if len(text) < n:
        fail(f"{path}: the description is cut short")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        fail(f"{path}: the description is not JSON ({e})")


def need(d, key, path):
    if key not in d:
        fail(f"{path}: no \"{key}\"")
    return d[key]


def trial(folder, name):
    base = os.path.join(folder, name)
    # NAME@LABEL is another SPRT of the network NAME.vlnet (at equal time, say).
    info = net_info(os.path.join(folder, name.split("@", 1)[0]) + ".vlnet")
    config = read_json(base + ".config.json")
    sprt = read_json(base + ".sprt.json")
    notes = info.get("notes", {})
    held_out = notes.get("held_out_positions", 0)
    elo = need(sprt, "elo", base + ".sprt.json")
    # A clock (`tc`) overrides the nodes, which the settings record either way.
    tc = config.get("tc")
    limit = (
        f"{tc['base_ms'] / 1000:g}+{tc['inc_ms'] / 1000:g} s a game"
        if tc
        else f"{need(config, 'nodes', base + '.config.json')} nodes"
    )
    return {
        "name": name,
        "hidden": need(info, "hidden", base + ".vlnet"),
        "positions": need(info, "positions", base + ".vlnet") + held_out,
        "games": notes.get("games"),
        "valid": need(info, "valid_loss", base + ".vlnet"),
        "linear": notes.get("linear_valid_loss"),
        "epochs": need(info, "epochs", base + ".vlnet"),
        "result": need(sprt, "result", base + ".sprt.json"),
        "sprt_games": need(sprt, "games", base + ".sprt.json"),
        "elo": elo,
        "limit": limit,
    }


def millions(n):
    return f"{n / 1e6:.2f} M" if n >= 1e6 else f"{n / 1e3:.0f} k"


def table(folder):
    names = sorted(f[: -len(".sprt.json")] for f in os.listdir(folder) if f.endswith(".sprt.json"))
    if not names:
        fail(f"{folder}: no trials (NAME.sprt.json)")
    rows = sorted((trial(folder, n) for n in names), key=lambda t: (t["positions"], t["name"]))
    out = [
        "| trial | cells | positions (games) | epochs | held-out loss (linear's) | SPRT against the default | Elo [95%] |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in rows:
        games = f" ({t['games']:,})" if t["games"] else ""
        linear = f" ({t['linear']:.5f})" if t["linear"] is not None else ""
        e, lo, hi = t["elo"][:3]
        out.append(
            f"| `{t['name']}` | {t['hidden']} | {millions(t['positions'])}{games} | {t['epochs']} "
            f"| {t['valid']:.5f}{linear} | {t['result']} after {t['sprt_games']} games at {t['limit']} "
            f"| {e:+.1f} [{lo:+.1f}, {hi:+.1f}] |"
        )
    return "\n".join(out)


def render(root):
    if not os.path.isdir(root):
        fail(f"{root}: not a folder")
    parts = []
    for variant in sorted(os.listdir(root)):
        folder = os.path.join(root, variant)
        if os.path.isdir(folder):
            parts.append(f"**{variant}** (`{os.path.relpath(folder)}/`):\n\n{table(folder)}")
    if not parts:
        fail(f"{root}: no variant folders")
    return "\n\n".join(parts)


def splice(doc, body):
    try:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"{doc}: {e.strerror}")
    if BEGIN not in text or END not in text:
        fail(f"{doc}: no {BEGIN} ... {END} part")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return text, f"{head}{BEGIN}\n\n{body}\n\n{END}{tail}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trials")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", metavar="DOC")
    g.add_argument("--check", metavar="DOC")
    a = p.parse_args()
    body = render(a.trials)
    if a.write:
        _, new = splice(a.write, body)
        write_whole(a.write, new)
    elif a.check:
        old, new = splice(a.check, body)
        if old != new:
            fail(f"{a.check}: the network trials table differs from {a.trials} (run scripts/net_trials.py {a.trials} --write {a.check})")
    else:
        print(body)


if __name__ == "__main__":
    main()
