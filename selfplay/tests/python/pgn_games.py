"""Reads variantlab's games.pgn with python-chess and checks it against games.csv/moves.csv.

Two short chess runs are played (random-plies openings with a ply cap; positions from an
openings file, some with Black to move, castling rights or an en-passant square). For every
game, the PGN record must parse without errors; its tags must match the games.csv row
(Round = game_id, White, Black, Result, PlyCount, Variant, FEN/SetUp for position openings);
replaying its SAN movetext must reach the same final position as replaying the CSVs'
coordinate moves (games.csv `opening`, then moves.csv) independently; the final material
must be games.csv's; and the termination must hold in the final position (checkmate,
stalemate, insufficient material, 50-move rule, threefold repetition, the ply cap).

Usage: python pgn_games.py PATH/TO/variantlab
Exits non-zero on any failure; prints one line per check and a closing count.
"""

import csv
import io
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn

BIN = sys.argv[1]
passed = failed = 0

PIECES = {
    "pawn": chess.PAWN,
    "knight": chess.KNIGHT,
    "bishop": chess.BISHOP,
    "rook": chess.ROOK,
    "queen": chess.QUEEN,
    "king": chess.KING,
}

POSITIONS = [
    # Black to move, both sides may castle on both wings.
    "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 4 8",
    # An en-passant capture is possible at once.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    # Pawn endings: promotions, mates, insufficient material.
    "8/8/4k3/8/2P5/8/4K3/8 w - - 0 40",
    "4k3/8/8/8/8/8/1p2P3/4K3 b - - 0 1",
]


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name} {detail}")
    return ok


def play(out, *extra):
    cmd = [BIN, "play", "--variant", "chess", "--nodes", "300", "--threads", "2", "--quiet",
           "--record-moves", "--out", out, *extra]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_run(out, from_positions, max_plies):
    rows = csv_rows(os.path.join(out, "games.csv"))
    moves = {}
    for m in csv_rows(os.path.join(out, "moves.csv")):
        moves.setdefault(m["game_id"], []).append(m["move"])
    with open(os.path.join(out, "games.pgn")) as f:
        text = f.read()
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    check(f"{out}: one PGN record per games.csv row", len(games) == len(rows),
          f"{len(games)} records, {len(rows)} rows")
    terminations = set()
    for row, game in zip(rows, games):
        gid = row["game_id"]
        h = game.headers
        where = f"{out} game {gid}"
        check(f"{where}: parses without errors", not game.errors, game.errors)
        check(f"{where}: Seven Tag Roster first",
              list(h.keys())[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"],
              list(h.keys()))
        for tag, col in [("Round", "game_id"), ("White", "white"), ("Black", "black"),
                         ("Result", "result")]:
            check(f"{where}: {tag}", h.get(tag) == row[col], (h.get(tag), row[col]))
        check(f"{where}: Variant", h.get("Variant") == "Standard", h.get("Variant"))

        # The CSVs' coordinate moves, replayed independently of the PGN.
        if from_positions:
            reference = chess.Board(row["opening"])
            opening_plies = 0
            check(f"{where}: SetUp and FEN", h.get("SetUp") == "1"
                  and chess.Board(h.get("FEN")).fen() == reference.fen(), h.get("FEN"))
        else:
            reference = chess.Board()
            opening_plies = len(row["opening"].split())
            check(f"{where}: no FEN from the standard start", "FEN" not in h)
            for uci in row["opening"].split():
                reference.push_uci(uci)
        for uci in moves.get(gid, []):
            reference.push_uci(uci)

        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
        plies = len(board.move_stack)
        check(f"{where}: PlyCount", h.get("PlyCount") == str(plies)
              and plies == opening_plies + int(row["plies"]), (h.get("PlyCount"), plies))
        check(f"{where}: the SAN replay ends where the CSV moves end",
              board.fen() == reference.fen(), (board.fen(), reference.fen()))
        for side, color in [("white", chess.WHITE), ("black", chess.BLACK)]:
            for name, piece in PIECES.items():
                n = len(board.pieces(piece, color))
                check(f"{where}: {side} {name}s", n == int(row[f"{side}_{name}"]),
                      (n, row[f"{side}_{name}"]))

        termination = row["termination"]
        terminations.add(termination)
        check(f"{where}: termination comment", game.end().comment == termination,
              game.end().comment)
        expected_tag = {"max_plies": "adjudication", "adjudication": "adjudication"}.get(
            termination, "normal")
        check(f"{where}: Termination tag", h.get("Termination") == expected_tag,
              h.get("Termination"))
        holds = {
            "checkmate": lambda: board.is_checkmate()
            and row["result"] == ("0-1" if board.turn == chess.WHITE else "1-0"),
            "stalemate": lambda: board.is_stalemate(),
            "insufficient_material": lambda: board.is_insufficient_material(),
            "move_rule": lambda: board.halfmove_clock >= 100,
            "repetition": lambda: board.is_repetition(3),
            "max_plies": lambda: int(row["plies"]) == max_plies,
        }.get(termination, lambda: False)
        check(f"{where}: {termination} holds in the final position", holds(), board.fen())
    print(f"{out}: {len(games)} games checked; terminations {sorted(terminations)}")
    return len(games)


with tempfile.TemporaryDirectory() as tmp:
    random_run = os.path.join(tmp, "random")
    play(random_run, "--games", "16", "--max-plies", "120")
    check_run(random_run, from_positions=False, max_plies=120)

    positions = os.path.join(tmp, "positions.txt")
    with open(positions, "w") as f:
        f.write("\n".join(POSITIONS) + "\n")
    position_run = os.path.join(tmp, "positions")
    play(position_run, "--games", "8", "--openings", positions)
    check_run(position_run, from_positions=True, max_plies=400)

print(f"pgn-check: {passed} checks passed, {failed} failed")
sys.exit(1 if failed else 0)
