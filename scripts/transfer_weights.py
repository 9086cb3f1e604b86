#!/usr/bin/env python3
"""A starting evaluation for a variant whose own games carry no signal yet, made from another
variant's tuned weights on a board of the same cells (docs/evaluation.md, "Transferred
starts").

Usage:
  transfer_weights.py SOURCE.json VARIANT "KIND=SOURCE_KIND[:MATERIAL], ..." OUT.json

Every kind of VARIANT, in the variant's own order, names the source kind whose cell tables,
mobility and in-hand weights it takes; `:MATERIAL` replaces the source's material (middle and
end game) by the variant's own default value in centipawns, for a kind that is not the
source's piece. The variant's own evaluation refuses the file at load time if the kinds or the
number of cells do not fit, so a wrong list cannot slip through.

Bad input (an unreadable or malformed SOURCE, a malformed list, an unknown kind) stops with a
one-line message and exit status 1; OUT is written only once everything has been read and
checked, and then whole (a temporary file beside it, renamed over it).
"""
import datetime
import json
import sys

from checked_io import fail, write_whole

def load_source(path):
    """The source weights file, checked for the fields the transfer reads."""
    try:
        with open(path) as f:
            source = json.load(f)
    except OSError as e:
        fail(f"{path}: {e.strerror or e}")
    except ValueError as e:  # not JSON, or not UTF-8
        fail(f"{path}: not a valid JSON file ({e})")
    except RecursionError:
        fail(f"{path}: nested too deeply to be a weights file")
    if not isinstance(source, dict):
        fail(f"{path}: expected a JSON object (a weights file), found {type(source).__name__}")
    for key, kind in (("variant", str), ("produced", dict), ("kinds", list)):
        if key not in source:
            fail(f"{path}: no \"{key}\" field (not a weights file?)")
        if not isinstance(source[key], kind):
            fail(f"{path}: \"{key}\" is {type(source[key]).__name__}, expected {kind.__name__}")
    by_name = {}
    for i, k in enumerate(source["kinds"]):
        if not isinstance(k, dict) or not isinstance(k.get("name"), str):
            fail(f"{path}: kinds[{i}] is not an object with a \"name\"")
        if k["name"] in by_name:
            fail(f"{path}: kind '{k['name']}' appears twice")
        by_name[k["name"]] = k
    if not by_name:
        fail(f"{path}: \"kinds\" is empty")
    return source, by_name


def parse_mapping(mapping, source_path, by_name):
    kinds = []
    seen = set()
    for item in mapping.split(","):
        item = item.strip()
        if "=" not in item:
            fail(f"'{item}': expected KIND=SOURCE_KIND[:MATERIAL]")
        name, src = (s.strip() for s in item.split("=", 1))
        if not name:
            fail(f"'{item}': no kind name before '='")
        if name in seen:
            fail(f"'{item}': kind '{name}' is named twice")
        seen.add(name)
        material = None
        if ":" in src:
            src, m = (s.strip() for s in src.split(":", 1))
            try:
                material = int(m)
            except ValueError:
                fail(f"'{item}': material '{m}' is not a whole number")
        if src not in by_name:
            fail(f"{source_path} has no kind '{src}' (it has {', '.join(by_name)})")
        kind = dict(by_name[src], name=name)
        if material is not None:
            kind["material"] = [material, material]
        kinds.append(kind)
    return kinds


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    source_path, variant, mapping, out = argv
    if not variant.strip():
        fail("the variant name is empty")
    source, by_name = load_source(source_path)
    kinds = parse_mapping(mapping, source_path, by_name)
    weights = {
        "variant": variant,
        "produced": {
            "method": f"transfer: cell tables, mobility and tempo of {source['variant']}'s weights",
            "settings": f"from {source_path}; kinds {mapping}",
            "date": datetime.date.today().isoformat(),
            "games": 0,
            "positions": 0,
            "version": source["produced"].get("version", ""),
        },
        "king_attack": source.get("king_attack", [0, 0]),
        "tempo": source.get("tempo", [0, 0]),
        "kinds": kinds,
    }
    write_whole(out, json.dumps(weights, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
