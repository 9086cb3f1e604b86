"""Drives `variantlab uci` with a real UCI client (python-chess) through chess games.

1. variantlab against itself for a short game, every move checked legal by python-chess;
   `stop` during `go infinite` answered at once; the `d` command; bad input survived.
2. variantlab against Debian's `stockfish` and `fairy-stockfish` (classical evaluation) when
   they are on PATH: one full game each (capped at 160 plies), python-chess as referee.

Usage: python uci_games.py PATH/TO/variantlab
Exits non-zero on any failure; prints one line per check and a closing count.
"""

import os
import shutil
import subprocess
import sys
import time

import chess
import chess.engine

BIN = sys.argv[1]
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def play(white, black, limit, max_plies):
    """Plays one game; returns (board, plies). Raises on an illegal move."""
    board = chess.Board()
    engines = [white, black]
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = engines[0 if board.turn == chess.WHITE else 1]
        result = engine.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            raise AssertionError(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    return board


def variantlab():
    return chess.engine.SimpleEngine.popen_uci([BIN, "uci"], timeout=20)


with variantlab() as a, variantlab() as b:
    check("uci handshake names the engine", a.id.get("name", "").startswith("variantlab"))
    check("UCI_Variant option offered", "UCI_Variant" in a.options)
    opt = a.options.get("lmr_divisor")
    check("search parameters offered as spin options", opt is not None and opt.type == "spin" and opt.default == 225 and opt.min == 50, opt)
    b.configure({"lmr_divisor": 180, "futility_slope": 100})
    board = play(a, b, chess.engine.Limit(nodes=2000), 40)
    check("a 40-ply game against itself, every move legal", board.ply() >= 1, board.fen())
    info = a.analyse(chess.Board(), chess.engine.Limit(depth=4))
    check("info lines carry depth, score, pv", info.get("depth") == 4 and "score" in info and info.get("pv"))

# Raw protocol: stop during go infinite, d, bad input.
proc = subprocess.Popen([BIN, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def read_until(prefix, timeout=10.0):
    end = time.time() + timeout
    lines = []
    while time.time() < end:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if line.startswith(prefix):
            return lines
    raise AssertionError(f"no {prefix!r} within {timeout} s; got {lines[-5:]}")


send("uci")
read_until("uciok")
send("position startpos moves e2e4")
send("go infinite")
time.sleep(0.3)
t = time.time()
send("stop")
lines = read_until("bestmove")
check("stop during go infinite answers at once", time.time() - t < 1.0, f"{time.time() - t:.2f} s")
send("position fen not a position")
send("position startpos moves e2e4 e7e5 e1e3")
send("frobnicate")
send("setoption name null_move_base value 0")
send("d")
lines = read_until("Legal moves")
text = "\n".join(lines)
check("bad position text answered with info string", "info string bad position text" in text, text)
check("illegal move answered with info string", 'illegal move "e1e3"' in text, text)
check("unknown command answered with info string", "unknown command: frobnicate" in text, text)
check("a search parameter out of range answered with info string", 'must be 1 to 10, got 0' in text, text)
check("d shows the last good position", "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq" in text, text)
# A Black Queen up: the trace's material and total say Black is ahead; groups sum to it.
send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
send("eval")
lines = read_until("Phase")
rows = {l.split("|")[0].strip(): l.split("|") for l in lines if l.count("|") == 2}
blend = lambda row: float(row[2])
check("eval prints a trace with material and a total", "Material" in rows and "Total" in rows, "\n".join(lines))
if "Material" in rows and "Total" in rows:
    parts = sum(blend(r) for k, r in rows.items() if k not in ("Total", "Group"))
    check("eval: Black's extra Queen shows as material", blend(rows["Material"]) < -5, rows["Material"])
    check("eval: the groups add up to the total", abs(parts - blend(rows["Total"])) < 0.01 * len(rows), f"{parts} {rows['Total']}")
send("isready")
read_until("readyok")
send("quit")
check("quit ends the process", proc.wait(timeout=5) == 0)

for name in ["stockfish", "fairy-stockfish"]:
    # Debian installs both into /usr/games, which a non-login PATH may lack.
    path = shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
    if path is None:
        print(f"SKIPPED the game against {name}: not installed")
        # `make test` lists the skips after the suite (VARIANTLAB_SKIPPED: the list's file).
        if os.environ.get("VARIANTLAB_SKIPPED"):
            with open(os.environ["VARIANTLAB_SKIPPED"], "a") as f:
                f.write(f"uci-check, the game against {name}: not installed (apt-get install {name})\n")
        continue
    with variantlab() as ours, chess.engine.SimpleEngine.popen_uci([path], timeout=20) as theirs:
        if "Use NNUE" in theirs.options:
            theirs.configure({"Use NNUE": False})
        try:
            board = play(ours, theirs, chess.engine.Limit(time=0.02), 160)
            check(f"a game against {name}, every move legal ({board.ply()} plies, {board.result(claim_draw=True)})", True)
        except (AssertionError, chess.engine.EngineError) as e:
            check(f"a game against {name}", False, str(e))

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
