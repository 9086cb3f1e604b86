"""Tests of the helper scripts in scripts/: transfer_weights.py, findings.py,
piece_values_table.py, variant_example.py, compare_eval.py, net_trials.py and import_cycles.py. Each script runs as a subprocess
(sys.executable), in a temporary folder, on small hand-made inputs with known answers.

Good input must give the expected output; bad input must give exit status 1, a one-line
message naming the problem on stderr, no Python traceback, and no output written (no new
file, an existing target left as it was, nothing on stdout).

Run: python3 -m unittest discover -s scripts/tests -v     (make script-check)
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(SCRIPTS)
TRANSFER = os.path.join(SCRIPTS, "transfer_weights.py")
VALUES_TABLE = os.path.join(SCRIPTS, "piece_values_table.py")
EXAMPLE = os.path.join(SCRIPTS, "variant_example.py")



def run(script, *args, cwd):
    return subprocess.run(
        [sys.executable, script, *args], cwd=cwd, capture_output=True, text=True, timeout=60
    )


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        f.write(text)


def read(path):
    with open(path, newline="") as f:
        return f.read()


class ScriptTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def assertOk(self, result):
        self.assertEqual(result.returncode, 0, f"stderr: {result.stderr}")
        self.assertEqual(result.stderr, "")

    def assertFails(self, result, *words):
        """Exit status 1, one line on stderr naming the script and every word, no traceback,
        nothing on stdout."""
        self.assertEqual(result.returncode, 1, f"stdout: {result.stdout!r} stderr: {result.stderr!r}")
        self.assertNotIn("Traceback", result.stderr)
        message = result.stderr.strip()
        self.assertEqual(message.count("\n"), 0, f"not one line: {result.stderr!r}")
        self.assertTrue(message, "no message on stderr")
        for word in words:
            self.assertIn(word, message)
        self.assertEqual(result.stdout, "")

    def assertNoTempFiles(self, folder):
        left = [name for name in os.listdir(folder) if name.endswith(".tmp")]
        self.assertEqual(left, [], "temporary files left behind")


# ---------------------------------------------------------------------------------------------
# transfer_weights.py

SOURCE = {
    "kinds": [
        {
            "cells_eg": [1, 2, 3, 4],
            "cells_mg": [5, 6, 7, 8],
            "in_hand": [0, 0],
            "material": [100, 120],
            "mobility": [1, 2],
            "name": "pawn",
        },
        {
            "cells_eg": [-1, -2, -3, -4],
            "cells_mg": [9, 9, 9, 9],
            "in_hand": [3, 4],
            "material": [320, 300],
            "mobility": [5, 6],
            "name": "knight",
        },
    ],
    "king_attack": [9, -5],
    "produced": {"date": "2026-01-01", "method": "texel", "version": "variantlab 9.9.9 (abc)"},
    "tempo": [7, 1],
    "variant": "mini",
}


class TransferWeights(ScriptTest):
    def source(self, data=SOURCE, name="source.json"):
        """Write a source file in the test's folder; its name, relative to that folder."""
        write(self.path(name), data if isinstance(data, str) else json.dumps(data, indent=1))
        return name

    def transfer(self, mapping, source=None, out="out.json", variant="target"):
        return run(TRANSFER, source or self.source(), variant, mapping, out, cwd=self.dir)

    def test_maps_the_named_kinds_and_replaces_material(self):
        result = self.transfer("man=pawn, horse=knight:450,other horse = knight")
        self.assertOk(result)
        text = read(self.path("out.json"))
        out = json.loads(text)
        self.assertEqual(text, json.dumps(out, indent=1) + "\n")
        self.assertEqual(out["variant"], "target")
        self.assertEqual([k["name"] for k in out["kinds"]], ["man", "horse", "other horse"])
        pawn, knight = SOURCE["kinds"]
        self.assertEqual(out["kinds"][0], dict(pawn, name="man"))
        self.assertEqual(out["kinds"][1], dict(knight, name="horse", material=[450, 450]))
        self.assertEqual(out["kinds"][2], dict(knight, name="other horse"))
        self.assertEqual(out["king_attack"], [9, -5])
        self.assertEqual(out["tempo"], [7, 1])
        produced = out["produced"]
        self.assertEqual(produced["method"], "transfer: cell tables, mobility and tempo of mini's weights")
        self.assertEqual(produced["settings"], "from source.json; kinds man=pawn, horse=knight:450,other horse = knight")
        self.assertEqual(produced["date"], datetime.date.today().isoformat())
        self.assertEqual((produced["games"], produced["positions"]), (0, 0))
        self.assertEqual(produced["version"], "variantlab 9.9.9 (abc)")
        self.assertNoTempFiles(self.dir)

    def test_defaults_without_king_attack_tempo_or_version(self):
        data = {k: v for k, v in SOURCE.items() if k not in ("king_attack", "tempo")}
        data["produced"] = {}
        self.assertOk(self.transfer("a=pawn", source=self.source(data)))
        out = json.loads(read(self.path("out.json")))
        self.assertEqual((out["king_attack"], out["tempo"]), ([0, 0], [0, 0]))
        self.assertEqual(out["produced"]["version"], "")

    def test_replaces_an_existing_output_whole(self):
        write(self.path("out.json"), "old contents that are much longer than nothing\n" * 100)
        self.assertOk(self.transfer("a=knight:1"))
        out = json.loads(read(self.path("out.json")))
        self.assertEqual(out["kinds"][0]["material"], [1, 1])

    def test_reproduces_the_transferred_dialectic_weights(self):
        # docs/evaluation.md, "Transferred starts": the same command, the same file but the date.
        # The inputs and output of stop 23 are kept in scripts/tests/data (the committed
        # weights of both variants have since been tuned on their own games).
        mapping = (
            "pawn=pawn,philosopher=knight:300,bishop=bishop,rook=rook,queen=queen,king=king,"
            "great philosopher=knight:500"
        )
        out = self.path("dialectic.json")
        source = os.path.join("scripts", "tests", "data", "chess-stop23.json")
        result = run(TRANSFER, source, "dialectic", mapping, out, cwd=REPO)
        self.assertOk(result)
        committed = read(
            os.path.join(REPO, "scripts", "tests", "data", "dialectic-transferred.json")
        ).splitlines()
        made = read(out).splitlines()
        self.assertEqual(len(made), len(committed))
        differ = [(a, b) for a, b in zip(made, committed) if a != b]
        self.assertEqual([b for _, b in differ if '"date"' not in b], [])

    # Bad input: exit 1, a message, no traceback, no output file (an existing one unchanged).

    def assertRefused(self, result, *words):
        self.assertFails(result, "transfer_weights:", *words)
        self.assertFalse(os.path.exists(self.path("out.json")), "output written on bad input")
        self.assertNoTempFiles(self.dir)

    def test_source_without_kinds(self):
        data = {k: v for k, v in SOURCE.items() if k != "kinds"}
        self.assertRefused(self.transfer("a=pawn", source=self.source(data)), "source.json", '"kinds"')

    def test_source_that_is_a_list(self):
        self.assertRefused(self.transfer("a=pawn", source=self.source([SOURCE])), "source.json", "list")

    def test_source_without_variant_or_produced(self):
        for key in ("variant", "produced"):
            data = {k: v for k, v in SOURCE.items() if k != key}
            self.assertRefused(self.transfer("a=pawn", source=self.source(data)), f'"{key}"')

    def test_source_with_fields_of_the_wrong_type(self):
        for key, value, word in (("kinds", {"pawn": 1}, "dict"), ("produced", "x", "str"), ("variant", 3, "int")):
            data = dict(SOURCE, **{key: value})
            self.assertRefused(self.transfer("a=pawn", source=self.source(data)), f'"{key}"', word)

    def test_source_kind_without_a_name(self):
        data = dict(SOURCE, kinds=[SOURCE["kinds"][0], {"material": [1, 1]}])
        self.assertRefused(self.transfer("a=pawn", source=self.source(data)), "kinds[1]", '"name"')
        data = dict(SOURCE, kinds=[SOURCE["kinds"][0], 7])
        self.assertRefused(self.transfer("a=pawn", source=self.source(data)), "kinds[1]")

    def test_source_kind_twice(self):
        data = dict(SOURCE, kinds=[SOURCE["kinds"][0], SOURCE["kinds"][0]])
        self.assertRefused(self.transfer("a=pawn", source=self.source(data)), "'pawn'", "twice")

    def test_source_that_is_not_json(self):
        self.assertRefused(self.transfer("a=pawn", source=self.source('{"kinds": [')), "source.json", "JSON")

    def test_source_that_is_not_text(self):
        path = self.path("binary.json")
        with open(path, "wb") as f:
            f.write(b"\xff\xfe\x00{")
        self.assertRefused(self.transfer("a=pawn", source=path), "binary.json")

    def test_missing_source(self):
        self.assertRefused(self.transfer("a=pawn", source="nowhere.json"), "nowhere.json")

    def test_unknown_source_kind(self):
        self.assertRefused(self.transfer("a=pawn,b=dragon"), "'dragon'", "pawn, knight")

    def test_item_without_equals(self):
        self.assertRefused(self.transfer("a=pawn,knight"), "'knight'", "KIND=SOURCE_KIND")
        self.assertRefused(self.transfer("a=pawn,"), "KIND=SOURCE_KIND")

    def test_material_not_a_whole_number(self):
        self.assertRefused(self.transfer("a=pawn:3.5"), "'3.5'", "whole number")

    def test_empty_or_repeated_kind_name(self):
        self.assertRefused(self.transfer("=pawn"), "no kind name")
        self.assertRefused(self.transfer("a=pawn,a=knight"), "'a'", "twice")

    def test_empty_variant_name(self):
        self.assertRefused(self.transfer("a=pawn", variant=" "), "variant")

    def test_bad_input_leaves_an_existing_output_unchanged(self):
        old = '{"old": true}\n'
        write(self.path("out.json"), old)
        result = self.transfer("a=dragon")
        self.assertFails(result, "'dragon'")
        self.assertEqual(read(self.path("out.json")), old)
        self.assertNoTempFiles(self.dir)

    def test_output_in_a_missing_folder(self):
        result = self.transfer("a=pawn", out=os.path.join("no", "such", "out.json"))
        self.assertFails(result, "transfer_weights:", "out.json", "cannot write")
        self.assertFalse(os.path.exists(self.path("no")))

    def test_wrong_number_of_arguments(self):
        result = run(TRANSFER, "source.json", "v", cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("Usage:", result.stderr)
        self.assertNotIn("Traceback", result.stderr)


# ---------------------------------------------------------------------------------------------
# findings.py (the findings' data steps) and findings_page.py (the page)

FINDINGS = os.path.join(SCRIPTS, "findings.py")
# `stats`' ladder.csv: three levels of one variant and a calibration run by another engine.
LADDER = (
    "variant,players,run,nodes,games,decisive_games,unconverted_games,white_score,white_score_low,white_score_high\n"
    "alpha,default,alpha/nodes-1000,1000,100,60,3,0.5000,0.4000,0.6000\n"
    "alpha,default,alpha/nodes-2000,2000,100,58,4,0.5200,0.4200,0.6200\n"
    "alpha,stockfish,alpha/stockfish-nodes-10000,10000,100,50,0,0.5600,0.5100,0.6100\n"
)
LADDER_VALUES = (
    "run,variant,piece,method,value,low,high,games,note\n"
    "alpha/nodes-1000,alpha,pawn,tuned,1.000,,,100,the unit: 1 by definition\n"
    "alpha/nodes-1000,alpha,knight,tuned,2.500,2.000,3.000,100,fit\n"
    "alpha/nodes-1000,alpha,queen,tuned,6.000,5.000,7.000,100,fit\n"
    "alpha/nodes-1000,alpha,wizard,tuned,,,,100,not estimable: play more games\n"
)


class Findings(ScriptTest):
    def ladder_data(self, ladder=LADDER, values=LADDER_VALUES):
        write(self.path("data", "ladder.csv"), ladder)
        write(self.path("data", "piece_values.csv"), values)
        return run(FINDINGS, "ladder", self.path("data"), cwd=self.dir)

    def rows(self, name):
        import csv as _csv

        with open(self.path("data", name), newline="") as f:
            return list(_csv.DictReader(f))

    def test_compress_and_decompress_give_the_file_back(self):
        write(self.path("moves.csv"), "game_id,ply,move\n" + "0,1,e2e4\n" * 1000)
        self.assertOk(run(FINDINGS, "compress", "moves.csv", "moves.csv.xz", cwd=self.dir))
        first = open(self.path("moves.csv.xz"), "rb").read()
        self.assertLess(len(first), 1000)
        self.assertOk(run(FINDINGS, "compress", "moves.csv", "moves.csv.xz", cwd=self.dir))
        self.assertEqual(open(self.path("moves.csv.xz"), "rb").read(), first, "not reproducible")
        self.assertOk(run(FINDINGS, "decompress", "moves.csv.xz", "back.csv", cwd=self.dir))
        self.assertEqual(read(self.path("back.csv")), read(self.path("moves.csv")))

    def test_decompress_refuses_a_file_that_is_not_xz(self):
        write(self.path("moves.csv.xz"), "game_id,ply\n")
        result = run(FINDINGS, "decompress", "moves.csv.xz", "back.csv", cwd=self.dir)
        self.assertFails(result, "findings.py", "moves.csv.xz", "not an xz file")
        self.assertFalse(os.path.exists(self.path("back.csv")))

    def test_values_joins_the_runs_with_their_names(self):
        write(self.path("a.csv"), "variant,piece,method,value,low,high,games,note\nalpha,pawn,tuned,1,,,4,unit\n")
        write(self.path("b.csv"), "variant,piece,method,value,low,high,games,note\nalpha,rook,tuned,4.5,4,5,8,fit\n")
        result = run(FINDINGS, "values", "alpha/nodes-1=a.csv", "alpha/nodes-2=b.csv", cwd=self.dir)
        self.assertOk(result)
        self.assertEqual(result.stdout.splitlines(), [
            "run,variant,piece,method,value,low,high,games,note",
            "alpha/nodes-1,alpha,pawn,tuned,1,,,4,unit",
            "alpha/nodes-2,alpha,rook,tuned,4.5,4,5,8,fit",
        ])

    def test_values_refuses_a_file_without_its_columns(self):
        write(self.path("a.csv"), "variant,piece\nalpha,pawn\n")
        self.assertFails(run(FINDINGS, "values", "r=a.csv", cwd=self.dir), "a.csv", "no column 'method'")

    def trades_data(self, values):
        write(self.path("data", "trades", "values.csv"), values)
        return run(FINDINGS, "trades", self.path("data"), cwd=self.dir)

    def test_trades_combines_the_seeds_with_a_t_interval(self):
        head = "run,variant,piece,method,value,low,high,games,note\n"
        rows = ""
        for seed, (rook, tempo) in enumerate([(4.0, 0.1), (5.0, 0.3), (6.0, 0.2)], 1):
            rows += f"trades/alpha/nodes-1000/seed-{seed},alpha,pawn,balanced,1,,,100,the unit: 1\n"
            rows += f"trades/alpha/nodes-1000/seed-{seed},alpha,rook,balanced,{rook},{rook - 1},{rook + 1},100,fit\n"
            rows += f"trades/alpha/nodes-1000/seed-{seed},alpha,tempo,balanced,{tempo},0,1,100,White's first move\n"
        # A phase's rows are combined apart from the whole game's.
        rows += "trades/alpha/nodes-1000/seed-1,alpha,rook,balanced-end,7,6,8,100,fit\n"
        rows += "trades/alpha/nodes-1000/seed-2,alpha,rook,balanced-end,8,7,9,100,fit\n"
        # One seed gives the queen no interval: the others' mean still has one.
        rows += "trades/alpha/nodes-1000/seed-1,alpha,queen,balanced,9,8,10,100,fit\n"
        rows += "trades/alpha/nodes-1000/seed-2,alpha,queen,balanced,8,,,100,no interval\n"
        self.assertOk(self.trades_data(head + rows))
        combined = self.rows(os.path.join("trades", "combined.csv"))
        end = [r for r in combined if r["method"] == "balanced-end"]
        self.assertEqual([(r["piece"], r["value"], r["seeds"]) for r in end], [("rook", "7.500", "2")])
        out = {r["piece"]: r for r in combined if r["method"] == "balanced"}
        self.assertEqual(out["pawn"]["note"], "the unit")
        rook = out["rook"]
        # Mean 5, sd 1, three seeds: 5 ± 4.303 / sqrt(3).
        self.assertEqual((rook["seeds"], rook["games"], rook["value"], rook["sd"]), ("3", "300", "5.000", "1.000"))
        self.assertAlmostEqual(float(rook["high"]) - 5, 4.303 / 3 ** 0.5, places=3)
        self.assertEqual(rook["per_seed"], "4.000 5.000 6.000")
        self.assertEqual(out["tempo"]["value"], "0.200")
        self.assertEqual((out["queen"]["value"], out["queen"]["note"]), ("", "valued by 1 of 2 seeds"))

    def test_a_variant_with_one_level_of_trades_is_not_compared_with_itself(self):
        head = "run,variant,piece,method,value,low,high,games,note\n"
        rows = ""
        for variant, levels in (("chess", (1000, 4000)), ("dream-chess-46", (1000,))):
            for n in levels:
                for seed, knight in enumerate((3.0, 3.5), 1):
                    run_ = f"trades/{variant}/nodes-{n}/seed-{seed}"
                    rows += f"{run_},{variant},pawn,balanced,1,,,100,the unit: 1\n"
                    rows += f"{run_},{variant},knight,balanced,{knight},{knight - 1},{knight + 1},100,fit\n"
        self.assertOk(self.trades_data(head + rows))
        sys.path.insert(0, SCRIPTS)
        from findings_page import trade_values

        facts = {}
        trade_values(self.path("data"), facts)
        summary = facts["trade_values_summary"]
        self.assertIn("**Chess**, from 1k to 4k nodes", summary)
        self.assertIn("**Dream Chess 46**: at 1k nodes only (the 4k level is not in the record yet)", summary)
        self.assertNotIn("from 1k to 1k", summary)

    def test_trades_refuses_a_run_that_is_not_a_seed(self):
        bad = "run,variant,piece,method,value,low,high,games,note\ntrades/alpha/x,alpha,pawn,balanced,1,,,1,u\n"
        self.assertFails(self.trades_data(bad), "values.csv", "line 2", "trades/VARIANT/nodes-N/seed-S")
        self.assertFalse(os.path.exists(self.path("data", "trades", "combined.csv")))

    def test_the_seeds_t_interval_covers_the_mean_95_times_in_100(self):
        """Simulation: 4000 studies of five normal replicates; Binomial(4000, 0.95) puts the
        count within 0.95 ± 0.011 with 99.9% probability."""
        sys.path.insert(0, SCRIPTS)
        import random

        from findings import mean_interval

        rng = random.Random(7)
        for k in (2, 5, 12):
            covered = 0
            for _ in range(4000):
                _, lo, hi, _ = mean_interval([rng.gauss(3.0, 0.5) for _ in range(k)])
                covered += lo <= 3.0 <= hi
            self.assertLess(abs(covered / 4000 - 0.95), 0.011, f"{k} seeds: {covered} of 4000")

    def test_ladder_adds_each_runs_leading_values(self):
        self.assertOk(self.ladder_data())
        ladder = self.rows("ladder.csv")
        self.assertEqual([r["run"] for r in ladder], ["alpha/nodes-1000", "alpha/nodes-2000", "alpha/stockfish-nodes-10000"])
        self.assertEqual(ladder[0]["white_score"], "0.5000")
        # The dearest estimable kinds first; the unit (no interval) and the unestimable left out.
        self.assertEqual(ladder[0]["leading_values"], "queen 6.00 [5.00, 7.00]; knight 2.50 [2.00, 3.00]")
        self.assertEqual(ladder[1]["leading_values"], "")
        # A second time gives the same file (the column is replaced, not added again).
        first = read(self.path("data", "ladder.csv"))
        self.assertOk(run(FINDINGS, "ladder", self.path("data"), cwd=self.dir))
        self.assertEqual(read(self.path("data", "ladder.csv")), first)

    def test_ladder_refuses_a_value_that_is_not_a_number(self):
        bad = LADDER_VALUES.replace("6.000,5.000", "6.x,5.000")
        self.assertFails(self.ladder_data(values=bad), "piece_values.csv", "line 4", "value", "6.x")
        self.assertEqual(read(self.path("data", "ladder.csv")), LADDER)

    def test_ladder_refuses_a_truncated_ladder_csv(self):
        self.assertFails(self.ladder_data(ladder=LADDER[:-30]), "ladder.csv", "truncated")

    def test_the_committed_page_and_plots_are_what_the_committed_data_give(self):
        data = os.path.join(REPO, "data", "findings")
        result = run(FINDINGS, "page", data, cwd=self.dir)
        self.assertOk(result)
        self.assertEqual(result.stdout, read(os.path.join(REPO, "docs", "findings.md")))
        self.assertOk(run(FINDINGS, "plots", data, self.path("plots"), cwd=self.dir))
        for name in sorted(os.listdir(self.path("plots"))):
            self.assertEqual(read(self.path("plots", name)), read(os.path.join(REPO, "docs", "findings", name)), name)

    def test_an_edited_figure_changes_the_page(self):
        import shutil

        shutil.copytree(os.path.join(REPO, "data", "findings"), self.path("data"))
        ladder = read(self.path("data", "ladder.csv"))
        row = next(line for line in ladder.splitlines() if line.startswith("chess,default,chess/nodes-4000,"))
        score = row.split(",")[7]
        write(self.path("data", "ladder.csv"), ladder.replace(row, row.replace(score, "0.6123", 1)))
        result = run(FINDINGS, "page", self.path("data"), cwd=self.dir)
        self.assertOk(result)
        self.assertIn("0.612 [", result.stdout)
        self.assertNotEqual(result.stdout, read(os.path.join(REPO, "docs", "findings.md")))

    def test_a_placeholder_the_data_do_not_define_is_an_error(self):
        import shutil

        shutil.copytree(os.path.join(REPO, "data", "findings"), self.path("data"))
        ladder = read(self.path("data", "ladder.csv"))
        write(self.path("data", "ladder.csv"), "\n".join(
            line for line in ladder.splitlines() if not line.startswith("chess,stockfish")) + "\n")
        self.assertFails(run(FINDINGS, "page", self.path("data"), cwd=self.dir),
                         "findings_page.md", "placeholder", "stockfish")

    def test_findings_check_passes_on_the_record_and_fails_on_an_edited_figure(self):
        import shutil

        binary = os.path.join(REPO, "target", "release", "variantlab")
        self.assertTrue(os.path.exists(binary), "build first: make build")
        shutil.copytree(os.path.join(REPO, "data", "findings"), self.path("data"))
        shutil.copytree(os.path.join(REPO, "docs", "findings"), self.path("docs", "findings"))
        shutil.copy(os.path.join(REPO, "docs", "findings.md"), self.path("docs", "findings.md"))
        env = dict(os.environ, FINDINGS_DATA=self.path("data"), FINDINGS_PAGE=self.path("docs", "findings.md"))
        check = lambda: subprocess.run(["scripts/findings_check.sh", binary, "--fast"], cwd=REPO, env=env,
                                       capture_output=True, text=True, timeout=600)
        result = check()
        self.assertEqual(result.returncode, 0, result.stderr)
        page = read(self.path("docs", "findings.md"))
        edited = page.replace("| Chess | 4k | 600 | 0.524", "| Chess | 4k | 600 | 0.525", 1)
        self.assertNotEqual(edited, page)
        write(self.path("docs", "findings.md"), edited)
        result = check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("findings.md differs", result.stderr)
        write(self.path("docs", "findings.md"), page)
        ladder = read(self.path("data", "ladder.csv"))
        write(self.path("data", "ladder.csv"), ladder.replace(",0.5242,", ",0.5243,", 1))
        result = check()
        self.assertEqual(result.returncode, 1)
        self.assertIn("ladder.csv differs", result.stderr)

    def test_usage(self):
        result = run(FINDINGS, "ladder", cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("findings.py compress", result.stderr)
        self.assertNotIn("Traceback", result.stderr)


# ---------------------------------------------------------------------------------------------
# piece_values_table.py

VALUES = (
    "variant,piece,method,value,low,high,games,note\n"
    "alpha,pawn,tuned,1.000,,,4,the unit: 1 by definition\n"
    'alpha,knight,tuned,1.811,1.504,2.118,4,"602 cp, bootstrap"\n'
    "beta,king,tuned,,,,10,royal\n"
)


class PieceValuesTable(ScriptTest):
    def test_table_of_every_file(self):
        write(self.path("a.csv"), VALUES)
        write(self.path("b.csv"), VALUES.splitlines(keepends=True)[0] + "gamma,rook,tuned,5.1,4.9,5.3,7,x\n")
        result = run(VALUES_TABLE, "a.csv", "b.csv", cwd=self.dir)
        self.assertOk(result)
        self.assertEqual(
            result.stdout,
            "| variant | piece | method | value (units) | 95% interval | games | note |\n"
            "|---|---|---|---|---|---|---|\n"
            "| alpha | pawn | tuned | 1.000 |  | 4 | the unit: 1 by definition |\n"
            "| alpha | knight | tuned | 1.811 | [1.504, 2.118] | 4 | 602 cp, bootstrap |\n"
            "| beta | king | tuned | - |  | 10 | royal |\n"
            "| gamma | rook | tuned | 5.1 | [4.9, 5.3] | 7 | x |\n",
        )

    def test_missing_column(self):
        write(self.path("a.csv"), VALUES.replace(",note", ",remark"))
        self.assertFails(run(VALUES_TABLE, "a.csv", cwd=self.dir), "piece_values_table:", "a.csv", "no column 'note'")

    def test_not_a_piece_values_file_even_without_rows(self):
        write(self.path("a.csv"), "x,y\n")
        self.assertFails(run(VALUES_TABLE, "a.csv", cwd=self.dir), "a.csv", "no column 'variant'")

    def test_truncated_file_prints_nothing(self):
        write(self.path("a.csv"), VALUES)
        write(self.path("b.csv"), VALUES[: VALUES.index("beta") + 8] + "\n")
        self.assertFails(run(VALUES_TABLE, "a.csv", "b.csv", cwd=self.dir), "b.csv", "line 4", "fields")
        write(self.path("b.csv"), VALUES[:-3])
        self.assertFails(run(VALUES_TABLE, "a.csv", "b.csv", cwd=self.dir), "b.csv", "truncated")

    def test_empty_or_missing_file(self):
        write(self.path("a.csv"), "")
        self.assertFails(run(VALUES_TABLE, "a.csv", cwd=self.dir), "a.csv", "empty")
        self.assertFails(run(VALUES_TABLE, "gone.csv", cwd=self.dir), "gone.csv", "No such file")

    def test_usage(self):
        result = run(VALUES_TABLE, cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("Usage:", result.stderr)
        self.assertNotIn("Traceback", result.stderr)


# ---------------------------------------------------------------------------------------------
# compare_eval.py

COMPARE = os.path.join(SCRIPTS, "compare_eval.py")

# Two fake UCI engines. The reference's position after n moves has Material known(n), a term
# Hidden hidden(n) and their sum as Total, in Stockfish's trace rows; its FEN carries n as the
# move number, from which the fake variantlab reports Material known(n) and nothing else.
FAKE_COMMON = """import sys
known = lambda n: (n % 7) * 0.3
hidden = lambda n: ((n * n) % 11) * 0.2 - 1
n = 0
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "quit":
        break
"""
FAKE_REFERENCE = FAKE_COMMON + """    elif cmd[0] == "position":
        n = len(cmd) - 3
    elif cmd[0] == "eval":
        for name, v in [("Material", known(n)), ("Hidden", hidden(n)), ("Total", known(n) + hidden(n))]:
            print(f" {name} |  ----  ---- |  ----  ---- | {v:.2f} {v:.2f}", flush=True)
    elif cmd[0] == "d":
        print(f"Fen: 8/8/8/8/8/8/8/K6k w - - 0 {n}", flush=True)
        print("Checkers: ", flush=True)
"""
FAKE_OURS = FAKE_COMMON + """    elif cmd[0] == "position":
        n = int(cmd[-1])
    elif cmd[0] == "eval":
        print("        Group |      MG      EG |   Blend", flush=True)
        print(f"     Material | 0 0 | {known(n):+.2f}", flush=True)
        print(f"        Total | 0 0 | {known(n):+.2f}", flush=True)
        print("Phase 0 of 256", flush=True)
"""


class CompareEval(ScriptTest):
    def setUp(self):
        super().setUp()
        write(self.path("ref.py"), FAKE_REFERENCE)
        write(self.path("ours.py"), FAKE_OURS)
        for name in ("ref", "ours"):
            with open(self.path(name), "w") as f:
                f.write(f"#!/bin/sh\nexec {sys.executable} {self.path(name + '.py')} \"$@\"\n")
            os.chmod(self.path(name), 0o755)

    def run_folder(self, variant="chess", moves=45):
        write(self.path("run", "games.csv"), f"game_id,variant,opening\n0,{variant},\n")
        write(
            self.path("run", "moves.csv"),
            "game_id,ply,move\n" + "".join(f"0,{i + 1},m{i}\n" for i in range(moves)),
        )

    def compare(self, *extra):
        return run(
            COMPARE, "run", "--variantlab", self.path("ours"), "--reference", self.path("ref"),
            "--every", "1", "--from-ply", "0", "--to-ply", "45", *extra, cwd=self.dir,
        )

    def test_names_the_term_our_evaluation_lacks(self):
        self.run_folder()
        result = self.compare("--out", "cmp.json")
        self.assertOk(result)
        lines = result.stdout.splitlines()
        self.assertTrue(lines[0].startswith("45 positions"), lines[0])
        self.assertTrue(lines[2].startswith("Hidden"), result.stdout)
        self.assertGreater(float(lines[2].split()[1]), 0.99)
        data = json.loads(read(self.path("cmp.json")))
        self.assertEqual(len(data["positions"]), 45)
        self.assertNoTempFiles(self.dir)

    def test_least_squares_recovers_known_coefficients(self):
        sys.path.insert(0, SCRIPTS)
        import compare_eval

        rows = [[x, (x * x) % 5, 1.0] for x in range(20)]
        targets = [2 * r[0] - 3 * r[1] + 0.5 for r in rows]
        for got, want in zip(compare_eval.least_squares(rows, targets), [2, -3, 0.5]):
            self.assertAlmostEqual(got, want, places=6)
        trace = [" Mobility | 0.10 0.20 | 0.00 0.00 | 0.40 -0.20", "Total evaluation: 1.00"]
        self.assertEqual(compare_eval.parse_reference_trace(trace, 128), {"Mobility": 0.4})
        self.assertAlmostEqual(compare_eval.parse_reference_trace(trace, 0)["Mobility"], -0.2)

    def test_other_variants_are_refused(self):
        self.run_folder(variant="gateway")
        self.assertFails(self.compare(), "chess")

    def test_too_few_positions(self):
        self.run_folder(moves=12)
        self.assertFails(self.compare(), "positions")

    def test_a_run_without_moves(self):
        write(self.path("run", "games.csv"), "game_id,variant,opening\n0,chess,\n")
        self.assertFails(self.compare(), "moves.csv")


if __name__ == "__main__":
    unittest.main()


class VariantExample(ScriptTest):
    """variant_example.py: the worked example of docs/variant-files.md."""

    DATA = os.path.join(REPO, "data", "variant-example")

    def copy_doc(self):
        doc = self.path("variant-files.md")
        write(doc, read(os.path.join(REPO, "docs", "variant-files.md")))
        return doc

    def test_reproduces_the_committed_page(self):
        doc = self.copy_doc()
        self.assertOk(run(EXAMPLE, self.DATA, doc, cwd=REPO))
        self.assertEqual(read(doc), read(os.path.join(REPO, "docs", "variant-files.md")))
        self.assertNoTempFiles(self.dir)

    def test_the_figures_come_from_the_data(self):
        # One more White win in the data: the table follows.
        data = self.path("data")
        for v in ("dream-chess-46", "dream-46-queen-back"):
            write(os.path.join(data, v, "run.json"), read(os.path.join(self.DATA, v, "run.json")))
        lines = read(os.path.join(self.DATA, "balance.csv")).splitlines(True)
        fields = lines[1].split(",")
        header = lines[0].split(",")
        fields[header.index("white_wins")] = "99"
        write(os.path.join(data, "balance.csv"), lines[0] + ",".join(fields) + "".join(lines[2:]))
        doc = self.copy_doc()
        self.assertOk(run(EXAMPLE, data, doc, cwd=REPO))
        self.assertIn("| `dream-chess-46` | 40 | 99 / ", read(doc))

    def test_bad_input_leaves_the_page(self):
        doc = self.copy_doc()
        before = read(doc)
        data = self.path("data")
        write(os.path.join(data, "balance.csv"), "variant,games\nx,1\n")
        self.assertFails(run(EXAMPLE, data, doc, cwd=REPO), "variant_example:", "balance.csv", "white_score")
        self.assertEqual(read(doc), before)
        write(doc, "# no markers\n")
        self.assertFails(run(EXAMPLE, self.DATA, doc, cwd=REPO), "variant_example:", "markers")
        self.assertEqual(read(doc), "# no markers\n")


class NetLoop(ScriptTest):
    def test_one_round_on_the_linear_evaluation_keeps_nothing_without_h1(self):
        """scripts/net.sh at toy sizes with ON_LINEAR=1: the data, a network whose description
        says it is added to the linear evaluation, an SPRT too short to accept, and nothing
        written outside the round's folder."""
        binary = os.path.join(REPO, "target", "release", "variantlab")
        self.assertTrue(os.path.exists(binary), "build first: make build")
        env = dict(os.environ, ON_LINEAR="1", GAMES="4", NODES="60", HIDDEN="8", EPOCHS="2",
                   SPRT_NODES="60", SPRT_GAMES="4", THREADS="1", OUT=self.path("out"))
        result = subprocess.run([os.path.join(SCRIPTS, "net.sh"), binary, "chess"], cwd=self.dir, env=env,
                                capture_output=True, text=True, timeout=600)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("not kept", result.stdout)
        round_dir = self.path("out", "chess", "1")
        with open(os.path.join(round_dir, "candidate.vlnet"), "rb") as f:
            head = f.read(4096)
        self.assertIn(b'"base":"linear"', head)
        self.assertTrue(os.path.exists(os.path.join(round_dir, "sprt", "sprt.json")))
        self.assertEqual(sorted(os.listdir(self.dir)), ["out"])


class NetTrials(ScriptTest):
    """scripts/net_trials.py: docs/evaluation.md's table of network trials, from their record."""

    SCRIPT = os.path.join(SCRIPTS, "net_trials.py")
    TRIALS = os.path.join(REPO, "data", "eval", "nets", "trials")

    def trial(self, name, source="r1-6.7m-linear-path", cut=None):
        """A copy of a committed chess trial as NAME (its network cut to `cut` bytes)."""
        os.makedirs(self.path("trials", "chess"), exist_ok=True)
        for ext in (".vlnet", ".config.json", ".sprt.json"):
            with open(os.path.join(self.TRIALS, "chess", source + ext), "rb") as f:
                data = f.read()
            if ext == ".vlnet" and cut is not None:
                data = data[:cut]
            with open(self.path("trials", "chess", name + ext), "wb") as f:
                f.write(data)

    def test_the_committed_table_agrees_with_the_record(self):
        result = run(self.SCRIPT, self.TRIALS, "--check", "docs/evaluation.md", cwd=REPO)
        self.assertOk(result)

    def test_each_trial_is_a_row_with_its_figures(self):
        self.trial("small", source="r1-358k")
        self.trial("large")
        doc = self.path("doc.md")
        write(doc, "# A\n<!-- net-trials:begin (scripts/net_trials.py writes this part) -->\nold\n<!-- net-trials:end -->\ntail\n")
        self.assertOk(run(self.SCRIPT, self.path("trials"), "--write", doc, cwd=self.dir))
        text = read(doc)
        self.assertTrue(text.startswith("# A\n") and text.endswith("tail\n"))
        self.assertNotIn("old", text)
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        self.assertEqual([r.split("`")[1] for r in rows], ["small", "large"])  # by positions
        with open(os.path.join(self.TRIALS, "chess", "r1-6.7m-linear-path.sprt.json")) as f:
            sprt = json.load(f)
        elo, lo, hi = sprt["elo"][:3]
        self.assertIn(f"{sprt['result']} after {sprt['games']} games", rows[1])
        self.assertIn(f"{elo:+.1f} [{lo:+.1f}, {hi:+.1f}]", rows[1])
        self.assertOk(run(self.SCRIPT, self.path("trials"), "--check", doc, cwd=self.dir))
        write(doc, text.replace(f"{elo:+.1f}", "+99.9"))
        self.assertFails(run(self.SCRIPT, self.path("trials"), "--check", doc, cwd=self.dir), "differs")

    def test_a_second_sprt_of_a_network_is_a_row_of_its_own(self):
        self.trial("large")
        folder = self.path("trials", "chess")
        with open(os.path.join(folder, "large.config.json")) as f:
            config = json.load(f)
        config["tc"] = {"base_ms": 1000, "inc_ms": 10}  # the nodes stay recorded, unused
        write(os.path.join(folder, "large@tc.config.json"), json.dumps(config))
        with open(os.path.join(folder, "large.sprt.json")) as f:
            sprt = json.load(f)
        sprt.update(result="H1", games=936, elo=[34.1, 13.6, 54.6])
        write(os.path.join(folder, "large@tc.sprt.json"), json.dumps(sprt))
        result = run(self.SCRIPT, self.path("trials"), cwd=self.dir)
        self.assertOk(result)
        rows = [line for line in result.stdout.splitlines() if line.startswith("| `")]
        self.assertEqual([r.split("`")[1] for r in rows], ["large", "large@tc"])
        self.assertIn("H1 after 936 games at 1+0.01 s a game | +34.1 [+13.6, +54.6]", rows[1])
        self.assertEqual(rows[0].split("|")[2:5], rows[1].split("|")[2:5])  # the same network
        os.remove(os.path.join(folder, "large.vlnet"))
        self.assertFails(run(self.SCRIPT, self.path("trials"), cwd=self.dir), "large.vlnet")

    def test_a_cut_network_is_refused_and_nothing_written(self):
        self.trial("cut", cut=40)
        doc = self.path("doc.md")
        before = "<!-- net-trials:begin (scripts/net_trials.py writes this part) -->\n<!-- net-trials:end -->\n"
        write(doc, before)
        result = run(self.SCRIPT, self.path("trials"), "--write", doc, cwd=self.dir)
        self.assertFails(result, "cut.vlnet", "cut short")
        self.assertEqual(read(doc), before)


class ImportCycles(ScriptTest):
    """scripts/import_cycles.py: the crates' modules import each other without a cycle."""

    SCRIPT = os.path.join(SCRIPTS, "import_cycles.py")

    def test_the_crates_have_no_cycle_between_their_modules(self):
        for crate in ("engine/src", "selfplay/src"):
            for depth in ("1", "2"):
                result = run(self.SCRIPT, crate, depth, cwd=REPO)
                self.assertOk(result)
                self.assertIn("no cycles", result.stdout)

    def test_a_cycle_is_found_and_named(self):
        write(self.path("src", "lib.rs"), "mod a;\nmod b;\nmod c;\n")
        write(self.path("src", "a.rs"), "use crate::b::Thing;\n")
        write(self.path("src", "b", "mod.rs"), "// crate::c is only a comment\nuse crate::{c};\npub struct Thing;\n")
        write(self.path("src", "c.rs"), "fn f() -> crate::a::X { todo!() }\n#[cfg(test)]\nuse crate::b;\n")
        result = run(self.SCRIPT, self.path("src"), cwd=REPO)
        self.assertEqual(result.returncode, 0, result.stdout)  # `crate::{c}` is not a path into c
        write(self.path("src", "b", "mod.rs"), "use crate::c::helper;\npub struct Thing;\n")
        result = run(self.SCRIPT, self.path("src"), cwd=REPO)
        self.assertEqual(result.returncode, 1, result.stdout)
        self.assertIn("cycle: a, b, c", result.stdout)
        self.assertIn("b -> c", result.stdout)

    def test_a_parent_and_its_child_are_not_a_cycle(self):
        write(self.path("src", "v", "mod.rs"), "pub mod file;\nuse crate::v::file::Parsed;\n")
        write(self.path("src", "v", "file.rs"), "use crate::v::Registry;\n")
        result = run(self.SCRIPT, self.path("src"), "2", cwd=REPO)
        self.assertOk(result)
        self.assertIn("no cycles", result.stdout)

    def test_a_missing_folder_is_refused(self):
        result = run(self.SCRIPT, self.path("nowhere"), cwd=REPO)
        self.assertFails(result, "usage")
