"""docs/findings.md from data/findings/ and the template scripts/findings_page.md.

The template is Markdown with {placeholders}; every one is computed here from the committed
data (ladder.csv, trend.csv, piece_values.csv, and the games and moves of each run), so a
sentence that quotes a number takes it from the same source as the tables. The plots
(docs/findings/VARIANT.svg) are written beside the page by `plots`. A placeholder the data do
not define is an error (findings.py exits 1), never an empty or stale figure.
"""

import csv
import glob
import io
import json
import lzma
import math
import os
import string
import sys

from findings import OURS, T975, fail, field, read_csv

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, "findings_page.md")
NAMES = {
    "chess": "Chess",
    "dream-chess-46": "Dream Chess 46",
    "dialectic": "Dialectic",
    "dialectic-hegelian": "Dialectic (Hegelian)",
    "extreme-2d": "Extreme 2D",
    "extreme-2d-simple": "Extreme 2D (simple powers)",
    "gateway": "Gateway",
    "dai-mitregi": "Dai Mitregi (Leaping)",
    "dai-mitregi-stepping": "Dai Mitregi (Stepping)",
}
ORDER = list(NAMES)
# The rule alternatives' sets (scripts/alternatives.sh), in page order, and the names of the
# variant files among them.
ALTERNATIVE_SETS = ["dream", "dialectic", "dai-mitregi", "extreme2d"]
ALTERNATIVE_NAMES = {
    "dream-46-queen-back": "Dream Chess 46, Queen and Chatelaine swapped",
    "dream-46-queen-edge": "Dream Chess 46, Queen and Primate swapped",
}
# The figures compare.csv compares that the page shows (the decisive rate is 1 − the draw rate).
ALTERNATIVE_METRICS = {
    "white_score": ("White's score", 3, False),
    "draw_rate": ("draw rate", 1, True),
    "unconverted_rate": ("unconverted draws", 1, True),
    "mean_plies": ("mean plies", 0, False),
}


def key(variant):
    return variant.replace("-", "_")


def est(row, name, digits=3, pct=False):
    """`0.508 [0.471, 0.545]` (or `17.7% [14.5%, 21.3%]`) from ladder.csv's three columns."""
    v, lo, hi = (float(row[c]) for c in (name, f"{name}_low", f"{name}_high"))
    if pct:
        return f"{100 * v:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]"
    return f"{v:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def player_name(players):
    return "variantlab" if players == OURS else players.capitalize().replace("Fairy-stockfish", "Fairy-Stockfish")


def kilo(nodes):
    return f"{nodes // 1000}k" if nodes % 1000 == 0 else str(nodes)


def side(row):
    """'+' when White's score is shown above ½, '-' below, '0' when not shown."""
    lo, hi = float(row["white_score_low"]), float(row["white_score_high"])
    return "+" if lo > 0.5 else "-" if hi < 0.5 else "0"


def edge_verdict(levels):
    """Whether a side's edge holds at every level of the ladder, in words."""
    signs = [side(r) for r in levels]
    at = lambda s: ", ".join(kilo(int(r["nodes"])) for r, x in zip(levels, signs) if x == s)
    if all(s == "+" for s in signs):
        return "White's edge is shown at every level"
    if all(s == "-" for s in signs):
        return "Black's edge is shown at every level"
    if all(s == "0" for s in signs):
        return "no side's edge is shown at any level"
    parts = []
    if "+" in signs:
        parts.append(f"White's edge is shown at {at('+')} nodes")
    if "-" in signs:
        parts.append(f"Black's edge is shown at {at('-')} nodes")
    return " and ".join(parts) + f", not at {at('0')}: it changes with strength" if "0" in signs else " and ".join(parts)


def trend_words(t, pct=False, digits=3):
    """'+0.014 [−0.006, +0.034] per doubling (no trend shown)' from a trend.csv row."""
    s, lo, hi = (float(t[c]) for c in ("per_doubling", "per_doubling_low", "per_doubling_high"))
    f = (lambda x: f"{100 * x:+.1f} points") if pct else (lambda x: f"{x:+.{digits}f}")
    shown = "rises" if lo > 0 else "falls" if hi < 0 else None
    text = f"{f(s)} [{f(lo)}, {f(hi)}] per doubling of nodes"
    return text + (f" (it {shown} with strength)" if shown else " (no trend shown)")


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


class Facts(dict):
    def __missing__(self, name):
        fail(f"{TEMPLATE}: placeholder {{{name}}} is not defined by the data")


def moves_rows(data, run):
    path = os.path.join(data, run, "moves.csv.xz")
    try:
        with open(path, "rb") as f:
            text = lzma.decompress(f.read()).decode("utf-8")
    except (OSError, lzma.LZMAError, UnicodeDecodeError) as e:
        fail(f"{path}: {e}")
    return list(csv.DictReader(io.StringIO(text)))


def queens_gone(data, run, opening_plies=6, by_ply=20):
    """Dream Chess 46: games whose opening took both Queens, games without Queens by ply
    `by_ply`, and the draw rate of those and of the others (claims an earlier page got wrong).
    moves.csv starts after the opening: its row of ply k holds the material before the game's
    ply opening_plies + k."""
    gpath = os.path.join(data, run, "games.csv")
    games = read_csv(gpath)
    q = [h for h in games[0] if h.startswith("white_")].index("white_queen")
    rows = {}
    for m in moves_rows(data, run):
        rows[(m["game_id"], int(m["ply"]))] = m["material"]

    def gone(game, ply):
        # A game that ended earlier keeps its final material (games.csv).
        material = rows.get((game["game_id"], ply - opening_plies))
        if material is None:
            return int(game["white_queen"]) == 0 and int(game["black_queen"]) == 0
        return all(int(side.split("-")[q]) == 0 for side in material.split("/"))

    in_opening = sum(gone(g, opening_plies + 1) for g in games)
    early = [g for g in games if gone(g, by_ply + 1)]
    rest = [g for g in games if not gone(g, by_ply + 1)]
    draws = lambda gs: sum(g["result"] == "1/2-1/2" for g in gs) / max(len(gs), 1)
    return len(games), in_opening, len(early), draws(early), draws(rest)


def cost_minutes(data, run, rates):
    """A run's cost in CPU minutes, estimated from its plies (games.csv) and the CPU seconds
    per ply measured for its variant and level (cost.csv, scripts/findings_cost.sh)."""
    path = os.path.join(data, run, "games.csv")
    plies = sum(field(g, "plies", path, int) for g in read_csv(path))
    variant, nodes = run.split("/")[0], int(run.rsplit("nodes-", 1)[-1])
    if (variant, nodes) not in rates:
        fail(f"{os.path.join(data, 'cost.csv')}: no measurement of {variant} at {nodes} nodes")
    return plies * rates[(variant, nodes)] / 60


def repo_megabytes(data):
    total = 0
    for root, _, files in os.walk(data):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total / 1e6


def values_table(values, runs, path):
    """Estimable piece values of each run side by side (the unit marked), "–" for the
    others, and the fit's reason for those, per level."""
    pieces, cells, reasons = [], {}, {}
    for run in runs:
        for r in values.get(run, []):
            p = r["piece"]
            if p not in pieces:
                pieces.append(p)
            v = field(r, "value", path, empty=True)
            if v is not None and r["low"] != "":
                cells[(p, run)] = f"{v:.2f} [{float(r['low']):.2f}, {float(r['high']):.2f}]"
            elif v is not None and r["note"].startswith("the unit"):
                cells[(p, run)] = f"{v:.2f} (the unit)"
            else:
                cells[(p, run)] = "–"
                reasons.setdefault((run, r["note"]), []).append(p)
    level = lambda run: kilo(int(run.rsplit("nodes-", 1)[-1]))
    header = ["piece"] + [f"{level(run)} nodes" for run in runs]
    rows = [[p] + [cells.get((p, run), "") for run in runs] for p in pieces]
    notes = [f"- at {level(run)} nodes, {', '.join(ps)}: {note}" for (run, note), ps in reasons.items()]
    return md_table(header, rows) + ("\n\nNot shown (–), with the fit's reason:\n\n" + "\n".join(notes) if notes else "")


def piece_order(values, runs, path):
    """The order of the kinds estimable at every level, dearest first, and whether it is the
    same at every level."""
    per_run = []
    for run in runs:
        est_ = {}
        for r in values.get(run, []):
            v = field(r, "value", path, empty=True)
            if v is not None and r["low"] != "":
                est_[r["piece"]] = v
        per_run.append(est_)
    common = set.intersection(*(set(e) for e in per_run)) if per_run else set()
    if len(common) < 2:
        return "too few kinds estimable at every level"
    orders = [sorted(common, key=lambda p: -e[p]) for e in per_run]
    if all(o == orders[0] for o in orders):
        return "the same at every level: " + " > ".join(orders[0])
    return "changes with strength: " + " / ".join(" > ".join(o) for o in orders)


def alternatives(data, facts):
    """The rule alternatives' table and summary from each set's compare.csv."""
    rows, summary, levels = [], [], set()
    for name in ALTERNATIVE_SETS:
        cpath = os.path.join(data, "alternatives", name, "compare.csv")
        if not os.path.exists(cpath):
            summary.append(f"- set `{name}`: not in the record yet (`make alternatives` plays it)")
            continue
        compare = read_csv(cpath)
        for alt in dict.fromkeys(r["alt"] for r in compare):
            mine = [r for r in compare if r["alt"] == alt]
            base_name = mine[0]["base_variant"]
            alt_name = mine[0]["alt_variant"]
            with open(os.path.join(data, "alternatives", mine[0]["base"], "run.json"), encoding="utf-8") as f:
                levels.add(json.load(f)["nodes"])
            base_label = NAMES.get(base_name, ALTERNATIVE_NAMES.get(base_name, base_name))
            alt_label = NAMES.get(alt_name, ALTERNATIVE_NAMES.get(alt_name, alt_name))
            shown = []
            for r in mine:
                if r["metric"] not in ALTERNATIVE_METRICS:
                    continue
                label, digits, pct = ALTERNATIVE_METRICS[r["metric"]]
                scale = 100 if pct else 1
                unit = "%" if pct else ""
                v = [scale * field(r, c, cpath) for c in ("base_value", "alt_value", "difference", "low", "high")]
                diff = f"{v[2]:+.{digits}f}{unit} [{v[3]:+.{digits}f}{unit}, {v[4]:+.{digits}f}{unit}]"
                need = r["games_needed_detect"] or "–"
                detect = f"{scale * field(r, 'detect', cpath):.{digits if digits else 0}f}{unit}"
                rows.append([f"{alt_label} against {base_label}", label,
                             f"{v[0]:.{digits}f}{unit}", f"{v[1]:.{digits}f}{unit}", diff, r["verdict"],
                             f"{need} (±{detect})"])
                if r["verdict"] == "shown":
                    shown.append(f"{label} {v[2]:+.{digits}f}{unit}")
            summary.append(f"- **{alt_label}** against {base_label} ({mine[0]['alt_games']} and "
                           f"{mine[0]['base_games']} games): "
                           + ("differences shown: " + ", ".join(shown) if shown else
                              "no difference shown at this sample"))
    facts["dream_array_verdict"] = dream_arrays(data)
    facts["alternatives_level"] = ", ".join(f"{kilo(int(n))}" for n in sorted(levels)) or "–"
    facts["alternatives_table"] = md_table(
        ["alternative", "figure", "base", "alternative", "difference [95%]", "verdict",
         "games per run to show the detect size"], rows) if rows else \
        "(no alternatives in the record yet: `make alternatives` plays them)"
    facts["alternatives_summary"] = "\n".join(summary) if summary else "- none played yet"


def dream_arrays(data):
    """Which Dream Chess 46 array draws least, and whether its difference to the
    reconstruction is shown."""
    cpath = os.path.join(data, "alternatives", "dream", "compare.csv")
    if not os.path.exists(cpath):
        return "not yet played"
    rows = [r for r in read_csv(cpath) if r["metric"] == "draw_rate"]
    if not rows:
        return "not yet played"
    label = lambda v: ALTERNATIVE_NAMES.get(v, NAMES.get(v, v))
    rates = {rows[0]["base_variant"]: field(rows[0], "base_value", cpath)}
    rates.update({r["alt_variant"]: field(r, "alt_value", cpath) for r in rows})
    shown = [r for r in rows if r["verdict"] == "shown" and field(r, "difference", cpath) < 0]
    least = min(rates, key=rates.get)
    words = ", ".join(f"{label(v)} {100 * x:.0f}%" for v, x in rates.items())
    if shown and len(shown) == len(rows):
        return (f"the reconstruction draws most ({words}); every other array draws less, by an "
                f"interval that excludes zero, and {label(least)} least: the reconstructed array, "
                "with the Queens facing each other down the long diagonal, is the least like a "
                "game decided by checkmate")
    return f"the draw rates are {words}; not every difference to the reconstruction is shown"


def render(data):
    ladder = read_csv(os.path.join(data, "ladder.csv"))
    trend = read_csv(os.path.join(data, "trend.csv"))
    vpath = os.path.join(data, "piece_values.csv")
    bpath = os.path.join(data, "balance.csv")
    balance = read_csv(bpath)
    values = {}
    for r in read_csv(vpath):
        values.setdefault(r["run"], []).append(r)
    facts = Facts()
    ours = [r for r in ladder if r["players"] == OURS]
    variants = [v for v in ORDER if any(r["variant"] == v for r in ours)]
    levels = sorted({int(r["nodes"]) for r in ours})
    facts["levels"] = ", ".join(f"{n:,}" for n in levels)
    facts["repo_mb"] = f"{repo_megabytes(data):.1f}"

    # The ladder and cost tables.
    rows, cost_rows, holds = [], [], []
    cpath = os.path.join(data, "cost.csv")
    cost = read_csv(cpath)
    rates = {(c["variant"], field(c, "nodes", cpath, int)):
             field(c, "cpu_seconds", cpath) / field(c, "plies", cpath) for c in cost}
    facts["cost_cpu"] = cost[0]["cpu"]
    facts["cost_sample"] = cost[0]["games"]
    total = 0.0
    for v in variants:
        lv = sorted((r for r in ours if r["variant"] == v), key=lambda r: int(r["nodes"]))
        costs = [cost_minutes(data, r["run"], rates) for r in lv]
        total += sum(costs)
        cost_rows.append([NAMES[v], lv[0]["games"]] + [f"{c:.1f}" for c in costs])
        for r in lv:
            rows.append([NAMES[v], kilo(int(r["nodes"])), r["games"], est(r, "white_score"),
                         est(r, "draw_rate", pct=True), r["decisive_games"],
                         f"{r['unconverted_games']} ({100 * float(r['unconverted_rate']):.1f}%)",
                         f"{float(r['mean_plies']):.0f}"])
        k = key(v)
        facts[f"{k}_edge"] = edge_verdict(lv)
        for r, c in zip(lv, costs):
            n = kilo(int(r["nodes"]))
            facts[f"{k}_seconds_per_game_{n}"] = f"{60 * c / int(r['games']):.0f}"
            facts[f"{k}_ws_{n}"] = est(r, "white_score")
            facts[f"{k}_dr_{n}"] = est(r, "draw_rate", pct=True)
            facts[f"{k}_unc_{n}"] = f"{r['unconverted_games']} of {r['games']}"
            facts[f"{k}_games"] = r["games"]
            facts[f"{k}_plies_{n}"] = f"{float(r['mean_plies']):.0f}"
        draws = sum(round(float(r["draw_rate"]) * int(r["games"])) for r in lv)
        unconv = sum(int(r["unconverted_games"]) for r in lv)
        facts[f"{k}_draws_all"] = str(draws)
        ends = {}
        for b in balance:
            if b["variant"] == v and b["engine_a"] == OURS:
                for end in ("repetition", "move_rule", "max_plies", "stalemate", "insufficient_material"):
                    ends[end] = ends.get(end, 0) + field(b, f"end_{end}", bpath, int)
        facts[f"{k}_draw_ends"] = ", ".join(f"{n} by {e.replace('_', ' ')}" for e, n in ends.items() if n) or "none"
        facts[f"{k}_unc_all"] = str(unconv)
        facts[f"{k}_unc_share"] = f"{100 * unconv / draws:.0f}%" if draws else "none"
        for t in trend:
            if t["variant"] == v and t["players"] == OURS:
                pct = t["figure"] in ("draw_rate", "unconverted_rate")
                digits = 0 if t["figure"] == "mean_plies" else 3
                facts[f"{k}_trend_{t['figure']}"] = trend_words(t, pct, digits)
        facts[f"{k}_values"] = values_table(values, [r["run"] for r in lv], vpath)
        draw_rates = [float(r["draw_rate"]) for r in lv]
        holds.append([NAMES[v], facts[f"{k}_edge"],
                      " → ".join(f"{100 * x:.0f}%" for x in draw_rates),
                      facts[f"{k}_unc_share"],
                      piece_order(values, [r["run"] for r in lv], vpath)])
    facts["ladder_table"] = md_table(
        ["variant", "nodes", "games", "White's score [95%]", "draw rate [95%]", "decisive",
         "unconverted draws", "mean plies"], rows)
    facts["cost_table"] = md_table(["variant", "games per level"] + [f"{kilo(n)} nodes" for n in levels],
                                   cost_rows)
    facts["holds_table"] = md_table(
        ["variant", "a side's edge", "draw rate by level", "unconverted share of draws",
         "order of the pieces estimable at every level"], holds)
    facts["cost_total_hours"] = f"{total / 60:.1f}"
    facts["cost_wall_hours"] = f"{total / 120:.1f}"
    facts["cost_total_minutes"] = f"{total:.0f}"
    facts["cost_wall_minutes"] = f"{total / 2:.0f}"

    # How the rules are used, at the top level (usage.csv: a rule's row has no kind, its
    # kinds' rows follow).
    upath = os.path.join(data, "usage.csv")
    usage = read_csv(upath)
    top = levels[-1]
    facts["usage_level"] = kilo(top)
    urows = []
    for v in variants:
        run = next(r["run"] for r in ours if r["variant"] == v and int(r["nodes"]) == top)
        mine = [u for u in usage if u["dir"] == run]
        for u in (u for u in mine if not u["kind"]):
            kinds = sorted((k for k in mine if k["rule"] == u["rule"] and k["kind"]),
                           key=lambda k: (-field(k, "uses", upath, int), k["kind"]))
            cell = ", ".join(f"{k['kind']} {field(k, 'uses_per_game', upath):.2f}" for k in kinds[:4])
            if len(kinds) > 4:
                cell += f" and {len(kinds) - 4} more"
            share = [100 * field(u, c, upath) for c in ("share_of_games", "share_low", "share_high")]
            urows.append([NAMES[v], u["rule"], f"{u['games_using']} of {u['games']}",
                          f"{share[0]:.0f}% [{share[1]:.0f}%, {share[2]:.0f}%]",
                          f"{field(u, 'uses_per_game', upath):.2f}",
                          f"{field(u, 'first_use_ply_median', upath):.0f}", cell or "–"])
            if v == "gateway" and u["rule"] == "transformation":
                n, using = field(u, "games", upath, int), field(u, "games_using", upath, int)
                both = field(u, "uses", upath, int) == 2 * n == 2 * using
                facts["gateway_transformations"] = (
                    ("both Quantum Kings became Emperors in every one of the " if both else
                     f"{u['uses']} transformations in {using} of the ")
                    + f"{n} games at {kilo(top)} nodes, the first a median "
                    f"{field(u, 'first_use_ply_median', upath):.0f} plies after the opening")
                facts["gateway_qk_verdict"] = (
                    "so these games are played by Emperors" if both and
                    field(u, "first_use_ply_median", upath) <= 20 else
                    "so the Quantum King is part of the play in some games")
    facts["usage_table"] = md_table(
        ["variant", "rule", "games using it", "share of games [95%]", "uses per game",
         "first use (median ply after the opening)", "kinds most used (uses per game)"], urows)

    typical(data, facts, variants, ours, top)
    alternatives(data, facts)

    # The calibration: chess by stronger engines on the same openings.
    calib = [r for r in ladder if r["variant"] == "chess" and r["players"] != OURS]
    crows = []
    for r in sorted((r for r in ladder if r["variant"] == "chess"), key=lambda r: (r["players"] != OURS, r["players"], int(r["nodes"]))):
        crows.append([player_name(r["players"]), kilo(int(r["nodes"])), r["games"], est(r, "white_score"),
                      est(r, "draw_rate", pct=True), f"{float(r['mean_plies']):.0f}", r["leading_values"] or "–"])
    facts["calibration_table"] = md_table(
        ["player", "nodes per move", "games", "White's score [95%]", "draw rate [95%]", "mean plies",
         "piece values (pawns) [95%]"], crows)
    for r in calib:
        p = key(r["players"])
        facts[f"{p}_ws"] = est(r, "white_score")
        facts[f"{p}_dr"] = est(r, "draw_rate", pct=True)
        facts[f"{p}_nodes"] = f"{int(r['nodes']):,}"
        facts[f"{p}_distinct"] = str(int(r["games"]) // 2)
    ours_chess = sorted((r for r in ours if r["variant"] == "chess"), key=lambda r: int(r["nodes"]))
    shown = [kilo(int(r["nodes"])) for r in ours_chess if side(r) == "+"]
    facts["chess_edge_from"] = (f"from {shown[0]} nodes a move" if shown and shown == [kilo(int(r["nodes"])) for r in ours_chess[len(ours_chess) - len(shown):]]
                                else "at no level" if not shown else "at " + ", ".join(shown) + " nodes")
    chess_trend = next((t for t in trend if t["variant"] == "chess" and t["players"] == OURS
                        and t["figure"] == "white_score"), None)
    if chess_trend is None:
        facts["chess_edge_growth"] = "the ladder has one level, so no trend"
    elif float(chess_trend["per_doubling_low"]) > 0:
        facts["chess_edge_growth"] = "White's score rises with strength (the trend above excludes zero)"
    else:
        facts["chess_edge_growth"] = (f"White's score moves from {float(ours_chess[0]['white_score']):.3f} to "
                                      f"{float(ours_chess[-1]['white_score']):.3f} across the ladder, a rise the "
                                      "trend's interval does not show")
    agree = []
    for c in calib:
        lo, hi = float(c["white_score_low"]), float(c["white_score_high"])
        inside = [kilo(int(r["nodes"])) for r in ours_chess if lo <= float(r["white_score"]) <= hi]
        agree.append(f"{player_name(c['players'])}'s interval contains our score at {', '.join(inside) or 'no level'}")
    facts["calibration_agreement"] = "; ".join(agree) if agree else "no calibration run is in the data"

    # The claims an earlier page made, recomputed.
    dream = sorted((r for r in ours if r["variant"] == "dream-chess-46"), key=lambda r: int(r["nodes"]))
    qrows, more, opening_share = [], [], []
    for r in dream:
        n, opening, early, d_early, d_rest = queens_gone(data, r["run"])
        qrows.append([kilo(int(r["nodes"])), n, opening, early, f"{100 * d_early:.0f}%", f"{100 * d_rest:.0f}%"])
        more.append(d_early > d_rest)
        opening_share.append(f"{opening} of {n}")
    facts["dream_queens_table"] = md_table(
        ["nodes", "games", "both Queens gone in the six opening plies", "both gone by ply 20",
         "draws of those", "draws of the others"], qrows)
    facts["dream_queens_opening"] = " / ".join(sorted(set(opening_share)))
    facts["dream_queens_draws"] = ("more often at every level" if all(more) else
                                   "less often at every level" if not any(more) else
                                   "more often at some levels only")
    trade_values(data, facts)
    return string.Formatter().vformat(open(TEMPLATE, encoding="utf-8").read(), (), facts)


def trade_values(data, facts):
    """The piece values priced by trades (trades/combined.csv): per variant, each piece's
    mean over the seeds at each level with its t interval, and the change from the lowest level
    to the highest with its interval (Welch's standard error, the t quantile at the smaller
    seed count less one: conservative), shown where it excludes zero."""
    cpath = os.path.join(data, "trades", "combined.csv")
    if not os.path.exists(cpath):
        facts["trade_values_table"] = "(no trades in the record yet: `make trade-values` plays them)"
        facts["trade_values_summary"] = "- none played yet"
        facts["trade_values_setup"] = "–"
        facts["trade_phase_table"], facts["trade_phase_summary"] = "", "- none played yet"
        return
    every = read_csv(cpath)
    rows = [r for r in every if r["method"] == "balanced"]
    all_levels = sorted({int(r["nodes"]) for r in rows})
    out, summary, setup = [], [], []
    for variant in [v for v in ORDER if any(r["variant"] == v for r in rows)]:
        mine = [r for r in rows if r["variant"] == variant]
        levels = sorted({int(r["nodes"]) for r in mine})
        cell = {(r["piece"], int(r["nodes"])): r for r in mine}
        # A kind no seed could value at any level (a royal piece, never traded) is left out.
        pieces = list(dict.fromkeys(r["piece"] for r in mine if r["per_seed"] or r["note"] == "the unit"))
        seeds = sorted({int(r["seeds"]) for r in mine})
        games = {int(r["nodes"]): int(r["games"]) for r in mine if r["note"] == "the unit"}
        setup.append(f"{NAMES.get(variant, variant)}: " + ", ".join(
            f"{games.get(n, '?')} games at {kilo(n)}" for n in levels) + f" ({'/'.join(map(str, seeds))} seeds)")
        moved, held = [], []
        for p in pieces:
            shown = []
            for n in all_levels:
                r = cell.get((p, n))
                shown.append("" if r is None else seeds_cell(r, cpath))
            change, verdict = "", ""
            diff = mean_difference(cell.get((p, levels[0])), cell.get((p, levels[-1])), cpath)
            if len(levels) > 1 and diff:
                d, lo, hi = diff
                change = f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]"
                verdict = "shown" if lo > 0 or hi < 0 else "not shown"
                (moved if verdict == "shown" else held).append(f"{p} {d:+.2f}")
            out.append([NAMES.get(variant, variant), p] + shown + [change, verdict])
        if len(levels) == 1:
            # One level in the record so far: nothing to compare across strengths yet.
            missing = [kilo(n) for n in all_levels if n not in levels]
            summary.append(f"- **{NAMES.get(variant, variant)}**: at {kilo(levels[0])} nodes only"
                           + (f" (the {', '.join(missing)} level is not in the record yet)" if missing else ""))
            continue
        summary.append(f"- **{NAMES.get(variant, variant)}**, from {kilo(levels[0])} to {kilo(levels[-1])} nodes: "
                       + (("values that move: " + ", ".join(moved)) if moved else "no value moves by a shown amount")
                       + ("; " + ", ".join(held) + " not shown" if held and moved else ""))
    header = ["variant", "piece"] + [f"{kilo(n)} nodes" for n in all_levels] + \
        [f"{kilo(all_levels[-1])} − {kilo(all_levels[0])}", "verdict"]
    facts["trade_values_table"] = md_table(header, out)
    facts["trade_phase_table"], facts["trade_phase_summary"] = trade_phases(every, cpath)
    facts["trade_values_summary"] = "\n".join(summary)
    facts["trade_values_setup"] = "; ".join(setup)


def seeds_cell(r, path):
    """A combined.csv row as a table cell: the mean with its interval over the seeds, the unit,
    or why there is no interval."""
    if r["note"] == "the unit":
        return "1 (the unit)"
    if r["low"] == "":
        return f"– ({r['note']})"
    return f"{field(r, 'value', path):.2f} [{field(r, 'low', path):.2f}, {field(r, 'high', path):.2f}]"


def mean_difference(a, b, path):
    """b − a of two combined.csv rows with its conservative Welch interval (the t quantile at
    the smaller seed count less one), or None where either has no interval."""
    if a is None or b is None or a["low"] == "" or b["low"] == "":
        return None
    k = [len(r["per_seed"].split()) for r in (a, b)]
    sd = [field(r, "sd", path) for r in (a, b)]
    d = field(b, "value", path) - field(a, "value", path)
    h = T975[min(k) - 2] * (sd[0] ** 2 / k[0] + sd[1] ** 2 / k[1]) ** 0.5
    return d, d - h, d + h


def trade_phases(rows, path):
    """The middle game's values against the end game's (methods balanced-middle and
    balanced-end), per variant and level: each with its t interval over the seeds, and the
    end game's less the middle game's with its interval."""
    cell = {(r["variant"], int(r["nodes"]), r["method"], r["piece"]): r for r in rows}
    out, summary = [], []
    for variant in [v for v in ORDER if any(r["variant"] == v for r in rows)]:
        for nodes in sorted({int(r["nodes"]) for r in rows if r["variant"] == variant}):
            pieces = [r["piece"] for r in rows if r["variant"] == variant and int(r["nodes"]) == nodes
                      and r["method"] == "balanced-middle"]
            moved = []
            for p in pieces:
                mid = cell.get((variant, nodes, "balanced-middle", p))
                end = cell.get((variant, nodes, "balanced-end", p))
                if mid is None or end is None or "the unit" in (mid["note"], end["note"]) \
                        or not (mid["per_seed"] or end["per_seed"]):
                    continue
                diff = mean_difference(mid, end, path)
                text, verdict = "", ""
                if diff:
                    d, lo, hi = diff
                    text = f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]"
                    verdict = "shown" if lo > 0 or hi < 0 else "not shown"
                    if verdict == "shown":
                        moved.append(f"{p} {d:+.2f}")
                out.append([NAMES.get(variant, variant), kilo(nodes), p, seeds_cell(mid, path), seeds_cell(end, path),
                            text, verdict])
            summary.append(f"- **{NAMES.get(variant, variant)}** at {kilo(nodes)} nodes: "
                           + ("the end game moves " + ", ".join(moved) if moved else
                              "no value differs between the phases by a shown amount"))
    if not out:
        return "", "- no phase was fitted"
    return md_table(["variant", "nodes", "piece", "middle game", "end game", "end − middle", "verdict"],
                    out), "\n".join(summary)


def typical(data, facts, variants, ours, top):
    """`typical_table`: each variant's typical games at the top level (typical.csv), each
    linked to its run's record."""
    tpath = os.path.join(data, "typical.csv")
    rows = read_csv(tpath)
    out = []
    for v in variants:
        run = next(r["run"] for r in ours if r["variant"] == v and int(r["nodes"]) == top)
        for t in (t for t in rows if t["dir"] == run):
            game = field(t, "game", tpath, int)
            uses = field(t, "uses", tpath, int)
            out.append([NAMES[v], t["role"], f"[game {game}](../data/findings/{run}/)",
                        field(t, "plies", tpath, int), t["result"].replace("1/2-1/2", "½-½"),
                        t["termination"].replace("_", " "),
                        f"{t['rule']}: {uses}" if t["rule"] else "–"])
    facts["typical_table"] = md_table(
        ["variant", "role", "game", "plies", "result", "ended by", "special rule: uses"], out)


def plots(data, folder):
    """One small SVG per variant: White's score and the draw rate (with their intervals)
    against nodes per move, variantlab's levels; written only when their text changes."""
    ladder = read_csv(os.path.join(data, "ladder.csv"))
    os.makedirs(folder, exist_ok=True)
    written = []
    for v in ORDER:
        lv = sorted((r for r in ladder if r["variant"] == v and r["players"] == OURS), key=lambda r: int(r["nodes"]))
        if not lv:
            continue
        svg = plot_svg(NAMES[v], lv)
        path = os.path.join(folder, f"{v}.svg")
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != svg:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        written.append(path)
    return written


def plot_svg(title, levels):
    w, h, pad = 420, 170, 36
    panel = (w - 3 * pad) / 2
    xs = [math.log2(int(r["nodes"])) for r in levels]
    x0, x1 = min(xs) - 0.5, max(xs) + 0.5
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="10">',
           f'<text x="{w / 2}" y="12" text-anchor="middle" font-weight="bold">{title}</text>']
    for i, (name, label, lo_y, hi_y, ref) in enumerate([
            ("white_score", "White's score", 0.3, 0.7, 0.5), ("draw_rate", "draw rate", 0.0, 1.0, None)]):
        left = pad + i * (panel + pad)
        top, bottom = 24, h - 28
        X = lambda x: left + (x - x0) / (x1 - x0) * panel
        Y = lambda y: bottom - (min(max(y, lo_y), hi_y) - lo_y) / (hi_y - lo_y) * (bottom - top)
        out.append(f'<rect x="{left}" y="{top}" width="{panel:.1f}" height="{bottom - top}" fill="none" stroke="#999"/>')
        out.append(f'<text x="{left + panel / 2:.1f}" y="{h - 4}" text-anchor="middle">{label} by nodes per move</text>')
        for y in (lo_y, hi_y):
            out.append(f'<text x="{left - 3}" y="{Y(y) + 3:.1f}" text-anchor="end">{y:g}</text>')
        if ref is not None:
            out.append(f'<line x1="{left}" x2="{left + panel:.1f}" y1="{Y(ref):.1f}" y2="{Y(ref):.1f}" stroke="#bbb" stroke-dasharray="3,3"/>')
        pts = []
        for x, r in zip(xs, levels):
            v, lo, hi = (float(r[c]) for c in (name, f"{name}_low", f"{name}_high"))
            out.append(f'<line x1="{X(x):.1f}" x2="{X(x):.1f}" y1="{Y(lo):.1f}" y2="{Y(hi):.1f}" stroke="#36c"/>')
            out.append(f'<circle cx="{X(x):.1f}" cy="{Y(v):.1f}" r="3" fill="#36c"/>')
            out.append(f'<text x="{X(x):.1f}" y="{bottom + 11}" text-anchor="middle">{kilo(int(r["nodes"]))}</text>')
            pts.append(f"{X(x):.1f},{Y(v):.1f}")
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="#36c"/>')
    out.append("</svg>\n")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(render(sys.argv[1]))
