"""Tests of the helper scripts in scripts/: transfer_weights.py, findings_tables.py,
piece_values_table.py, variant_example.py, compare_eval.py and import_cycles.py. Each script runs as a subprocess
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
TABLES = os.path.join(SCRIPTS, "findings_tables.py")
VALUES_TABLE = os.path.join(SCRIPTS, "piece_values_table.py")
EXAMPLE = os.path.join(SCRIPTS, "variant_example.py")

BEGIN = "<!-- findings-tables:begin (scripts/findings_tables.py writes this part) -->"
END = "<!-- findings-tables:end -->"


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
# findings_tables.py

ENDS = ["checkmate", "stalemate", "repetition", "move_rule", "insufficient_material", "variant_end", "max_plies", "adjudication"]
FORFEITS = ["illegal_move", "engine_crash", "time_forfeit"]
BALANCE_HEADER = (
    "variant,run,games,nodes,white_wins,draws,black_wins,"
    "white_score,white_score_low,white_score_high,white_elo,white_elo_low,white_elo_high,"
    "draw_rate,draw_rate_low,draw_rate_high,balance,balance_low,balance_high,"
    "duration,duration_low,duration_high,"
    + ",".join("end_" + e for e in ENDS + FORFEITS)
)
# alpha: 4 games (2 repetitions before ply 60 in its games.csv); beta: no games.csv.
BALANCE = (
    BALANCE_HEADER + "\n"
    "alpha,out/alpha,4,4000,2,1,1,0.51234,0.40001,0.61111,5.2,-17.7,28.1,"
    "0.25,0.1,0.4,0.97891,0.5,1.0,61.60,55.43,67.77,"
    "1,0,3,0,0,0,0,0,1,0,2\n"
    "beta,out/beta,10,,4,2,4,0.5,0.3,0.7,-0.3,-20,19.6,"
    "0.2,0.05,0.5,,,,100,90,110,"
    "6,1,1,1,0,1,0,0,0,0,0\n"
)
LENGTH = (
    "variant,run,subset,games,mean,median,q1,q3,min,max,histogram\n"
    "alpha,out/alpha,all,4,61.60,49.0,30.0,75.2,20,110,0:1\n"
    "alpha,out/alpha,white_win,2,70.24,70,60,80,60,80,\n"
    "alpha,out/alpha,draw,0,,,,,,,\n"
    "alpha,out/alpha,black_win,1,20,20,20,20,20,20,\n"
    "beta,out/beta,all,10,100,99.5,80,120.5,40,200,\n"
    "beta,out/beta,draw,2,150.05,150,150,150,150,150,\n"
    "gamma,out/gamma,white_win,3,1,1,1,1,1,1,\n"
)
VALUES = (
    "variant,piece,method,value,low,high,games,note\n"
    "alpha,pawn,tuned,1.000,,,4,the unit: 1 by definition\n"
    'alpha,knight,tuned,1.811,1.504,2.118,4,"602 cp, bootstrap"\n'
    "beta,king,tuned,,,,10,royal\n"
)
GAMES = (
    "game_id,variant,result,termination,plies\n"
    "0,alpha,1/2-1/2,repetition,30\n"
    "1,alpha,1/2-1/2,repetition,80\n"
    "2,alpha,1-0,checkmate,20\n"
    "3,alpha,1/2-1/2,repetition,59\n"
)
EXPECTED_TABLES = f"""{BEGIN}

### Balance

| variant | games | nodes | White's score [95%] | White's Elo [95%] | draw rate [95%] | W / D / B | balance of decisive games [95%] | mean length, plies [95%] |
|---|---|---|---|---|---|---|---|---|
| alpha | 4 | 4000 | 0.512 [0.400, 0.611] | +5 [−18, +28] | 0.250 [0.100, 0.400] | 2 / 1 / 1 | 0.98 [0.50, 1.00] | 61.6 [55.4, 67.8] |
| beta | 10 |  | 0.500 [0.300, 0.700] | 0 [−20, +20] | 0.200 [0.050, 0.500] | 4 / 2 / 4 | – [–, –] | 100.0 [90.0, 110.0] |

### How games ended

Counts of games. "early" = repetitions before ply 60 (issue #15's measure of aimless play), from each variant's `games.csv`.

| variant | checkmate | stalemate | repetition | move rule | insufficient | variant end | ply cap | adjudicated | repetition before ply 60 | forfeits |
|---|---|---|---|---|---|---|---|---|---|---|
| alpha | 1 | 0 | 3 | 0 | 0 | 0 | 0 | 0 | 2 (50.0%) | 3 |
| beta | 6 | 1 | 1 | 1 | 0 | 1 | 0 | 0 | – | 0 |

### Game length (plies)

| variant | all: median [q1, q3] | min–max | White wins: mean | draws: mean | Black wins: mean |
|---|---|---|---|---|---|
| alpha | 49 [30, 75] | 20–110 | 70.2 | – | 20.0 |
| beta | 100 [80, 120] | 40–200 | – | 150.1 | – |

### Piece values (tuned evaluation, in the variant's pawns)

| variant | piece | value [95%] | centipawns, bootstrap |
|---|---|---|---|
| alpha | pawn | 1.00 | the unit: 1 by definition |
| alpha | knight | 1.81 [1.50, 2.12] | 602 cp, bootstrap |
| beta | king | – | royal |

{END}"""
DOC_HEAD = "# Findings\n\nThe author's prose before the tables.\n\n"
DOC_TAIL = "\n\nThe author's prose after the tables, with a table of its own:\n\n| a | b |\n|---|---|\n"
DOC = DOC_HEAD + BEGIN + "\nold generated tables\n" + END + DOC_TAIL


class FindingsTables(ScriptTest):
    def setUp(self):
        super().setUp()
        write(self.path("data", "balance.csv"), BALANCE)
        write(self.path("data", "length.csv"), LENGTH)
        write(self.path("data", "piece_values.csv"), VALUES)
        write(self.path("data", "alpha", "games.csv"), GAMES)
        write(self.path("doc", "findings.md"), DOC)

    def markdown(self):
        return run(TABLES, "markdown", "data", os.path.join("doc", "findings.md"), cwd=self.dir)

    def test_fills_the_markers_and_keeps_the_prose(self):
        self.assertOk(self.markdown())
        self.assertEqual(read(self.path("doc", "findings.md")), DOC_HEAD + EXPECTED_TABLES + DOC_TAIL)
        self.assertNoTempFiles(self.path("doc"))

    def test_same_tables_a_second_time(self):
        self.assertOk(self.markdown())
        first = read(self.path("doc", "findings.md"))
        self.assertOk(self.markdown())
        self.assertEqual(read(self.path("doc", "findings.md")), first)

    def test_a_missing_document_is_created(self):
        os.remove(self.path("doc", "findings.md"))
        self.assertOk(self.markdown())
        self.assertEqual(read(self.path("doc", "findings.md")), "# Findings\n\n" + EXPECTED_TABLES + "\n")

    def test_without_piece_values(self):
        os.remove(self.path("data", "piece_values.csv"))
        self.assertOk(self.markdown())
        text = read(self.path("doc", "findings.md"))
        self.assertIn("| variant | piece | value [95%] | centipawns, bootstrap |\n|---|---|---|---|\n\n" + END, text)
        self.assertNotIn("| alpha | knight |", text)

    @unittest.skipUnless(
        os.path.exists(os.path.join(REPO, "data", "findings", "balance.csv")), "no committed findings"
    )
    def test_reproduces_the_committed_findings_page(self):
        doc = self.path("findings.md")
        write(doc, read(os.path.join(REPO, "docs", "findings.md")))
        self.assertOk(run(TABLES, "markdown", "data/findings", doc, cwd=REPO))
        self.assertEqual(read(doc), read(os.path.join(REPO, "docs", "findings.md")))

    # Bad input: exit 1, a message, no traceback, the document unchanged.

    def assertRefused(self, *words):
        result = self.markdown()
        self.assertFails(result, "findings_tables:", *words)
        self.assertEqual(read(self.path("doc", "findings.md")), DOC, "the document was changed")
        self.assertNoTempFiles(self.path("doc"))

    def test_missing_markers(self):
        for doc in (DOC.replace(BEGIN, ""), DOC.replace(END, ""), "# Findings\n"):
            write(self.path("doc", "findings.md"), doc)
            result = self.markdown()
            self.assertFails(result, "findings.md", "markers")
            self.assertEqual(read(self.path("doc", "findings.md")), doc)

    def test_markers_in_the_wrong_order(self):
        doc = DOC_HEAD + END + "\n" + BEGIN + DOC_TAIL
        write(self.path("doc", "findings.md"), doc)
        self.assertFails(self.markdown(), "findings.md", "before")
        self.assertEqual(read(self.path("doc", "findings.md")), doc)

    def test_markers_twice(self):
        doc = DOC + BEGIN + "\n" + END + "\n"
        write(self.path("doc", "findings.md"), doc)
        self.assertFails(self.markdown(), "findings.md", "more than once")
        self.assertEqual(read(self.path("doc", "findings.md")), doc)

    def test_missing_balance_csv(self):
        os.remove(self.path("data", "balance.csv"))
        self.assertRefused("balance.csv", "No such file")

    def test_missing_length_csv(self):
        os.remove(self.path("data", "length.csv"))
        self.assertRefused("length.csv", "No such file")

    def test_empty_balance_csv(self):
        write(self.path("data", "balance.csv"), "")
        self.assertRefused("balance.csv", "empty")

    def test_balance_csv_with_only_its_header(self):
        write(self.path("data", "balance.csv"), BALANCE_HEADER + "\n")
        self.assertRefused("balance.csv", "no rows")

    def test_balance_csv_truncated_in_a_row(self):
        lines = BALANCE.splitlines(keepends=True)
        write(self.path("data", "balance.csv"), lines[0] + lines[1] + lines[2][:40] + "\n")
        self.assertRefused("balance.csv", "line 3", "fields")

    def test_balance_csv_truncated_without_its_last_newline(self):
        write(self.path("data", "balance.csv"), BALANCE[:-1])
        self.assertRefused("balance.csv", "truncated")

    def test_balance_csv_with_a_row_too_long(self):
        lines = BALANCE.splitlines(keepends=True)
        write(self.path("data", "balance.csv"), lines[0] + lines[1].rstrip("\n") + ",extra\n" + lines[2])
        self.assertRefused("balance.csv", "line 2", "fields")

    def test_balance_csv_missing_columns(self):
        header, rows = BALANCE.split("\n", 1)
        for column in ("white_elo_low", "end_time_forfeit", "variant"):
            renamed = ",".join("renamed" if name == column else name for name in header.split(","))
            self.assertNotEqual(renamed, header)
            write(self.path("data", "balance.csv"), renamed + "\n" + rows)
            self.assertRefused("balance.csv", f"no column '{column}'")

    def test_balance_csv_value_not_a_number(self):
        write(self.path("data", "balance.csv"), BALANCE.replace("0.51234", "abc"))
        self.assertRefused("balance.csv", "line 2", "'white_score'", "'abc'")
        write(self.path("data", "balance.csv"), BALANCE.replace("beta,out/beta,10,", "beta,out/beta,ten,"))
        self.assertRefused("balance.csv", "line 3", "'games'", "'ten'")

    def test_length_csv_missing_column(self):
        write(self.path("data", "length.csv"), LENGTH.replace(",median,", ",middle,"))
        self.assertRefused("length.csv", "no column 'median'")

    def test_length_csv_value_not_a_number(self):
        write(self.path("data", "length.csv"), LENGTH.replace("white_win,2,", "white_win,two,"))
        self.assertRefused("length.csv", "line 3", "'games'", "'two'")

    def test_length_csv_with_only_its_header(self):
        write(self.path("data", "length.csv"), LENGTH.splitlines(keepends=True)[0])
        self.assertRefused("length.csv", "no rows")

    def test_games_csv_truncated(self):
        write(self.path("data", "alpha", "games.csv"), GAMES[: GAMES.index("2,alpha") + 10] + "\n")
        self.assertRefused("games.csv", "line 4", "fields")

    def test_games_csv_plies_not_a_number(self):
        write(self.path("data", "alpha", "games.csv"), GAMES.replace("checkmate,20", "checkmate,x"))
        self.assertRefused("games.csv", "'plies'", "'x'")

    def test_games_csv_missing_column(self):
        write(self.path("data", "alpha", "games.csv"), GAMES.replace("termination", "how"))
        self.assertRefused("games.csv", "no column 'termination'")

    def test_piece_values_csv_value_not_a_number(self):
        write(self.path("data", "piece_values.csv"), VALUES.replace("1.504", "1,504"))
        self.assertRefused("piece_values.csv", "line 3", "fields")
        write(self.path("data", "piece_values.csv"), VALUES.replace("1.504", "low"))
        self.assertRefused("piece_values.csv", "'low'")

    def test_piece_values_csv_cut_inside_a_quoted_field(self):
        write(self.path("data", "piece_values.csv"), VALUES[: VALUES.index("bootstrap")] + "\n")
        self.assertRefused("piece_values.csv", "line")

    def test_data_that_is_not_text(self):
        with open(self.path("data", "length.csv"), "wb") as f:
            f.write(b"variant,\xff\xfe\n")
        self.assertRefused("length.csv", "not a text file")

    def test_document_that_cannot_be_written(self):
        result = run(TABLES, "markdown", "data", os.path.join("nowhere", "findings.md"), cwd=self.dir)
        self.assertFails(result, "findings_tables:", "findings.md", "cannot write")
        self.assertFalse(os.path.exists(self.path("nowhere")))

    def test_usage(self):
        result = run(TABLES, "markdown", "data", cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("Usage:", result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    # csv: piece_values.csv files into one.

    def test_csv_concatenates_files_with_one_header(self):
        write(self.path("a.csv"), VALUES)
        write(self.path("b.csv"), VALUES.splitlines(keepends=True)[0])  # no rows: skipped
        write(self.path("c.csv"), VALUES.splitlines(keepends=True)[0] + "gamma,rook,tuned,5.1,4.9,5.3,7,x\n")
        result = run(TABLES, "csv", "a.csv", "b.csv", "c.csv", cwd=self.dir)
        self.assertOk(result)
        self.assertEqual(result.stdout, VALUES + "gamma,rook,tuned,5.1,4.9,5.3,7,x\n")

    def test_csv_refuses_another_header(self):
        write(self.path("a.csv"), VALUES)
        write(self.path("b.csv"), "variant,piece,value\ngamma,rook,5\n")
        self.assertFails(run(TABLES, "csv", "a.csv", "b.csv", cwd=self.dir), "b.csv", "header")

    def test_csv_refuses_a_truncated_or_missing_file(self):
        write(self.path("a.csv"), VALUES)
        write(self.path("b.csv"), VALUES[:-12])
        self.assertFails(run(TABLES, "csv", "a.csv", "b.csv", cwd=self.dir), "b.csv", "truncated")
        self.assertFails(run(TABLES, "csv", "a.csv", "gone.csv", cwd=self.dir), "gone.csv", "No such file")


# ---------------------------------------------------------------------------------------------
# piece_values_table.py


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
