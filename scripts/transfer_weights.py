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
"""
import datetime
import json
import sys


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    source_path, variant, mapping, out = argv
    try:
        with open(source_path) as f:
            source = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"transfer_weights: {source_path}: {e}")
    by_name = {k["name"]: k for k in source["kinds"]}
    kinds = []
    for item in mapping.split(","):
        item = item.strip()
        if "=" not in item:
            sys.exit(f"transfer_weights: '{item}': expected KIND=SOURCE_KIND[:MATERIAL]")
        name, src = (s.strip() for s in item.split("=", 1))
        material = None
        if ":" in src:
            src, m = src.split(":", 1)
            try:
                material = int(m)
            except ValueError:
                sys.exit(f"transfer_weights: '{item}': material '{m}' is not a whole number")
        if src not in by_name:
            sys.exit(f"transfer_weights: {source_path} has no kind '{src}' (it has {', '.join(by_name)})")
        kind = dict(by_name[src], name=name)
        if material is not None:
            kind["material"] = [material, material]
        kinds.append(kind)
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
    with open(out, "w") as f:
        json.dump(weights, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
