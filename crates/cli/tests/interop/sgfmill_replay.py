"""Replays SGF records with sgfmill (a third-party Go library) and prints, for each file
named on the command line, one JSON line: the file, the record's GM, and the final board as
sgfmill's (plain) Go rules make it, rows top to bottom (`b`, `w`, `.`), or the error sgfmill
raised replaying it.

Used by crates/cli/tests/records_interop.rs, which compares the boards with toroid's."""

import json
import sys

from sgfmill import boards, sgf, sgf_moves


def replay(path):
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    answer = {"gm": game.get_root().get("GM")}
    try:
        answer["board"] = final_board(game)
    except ValueError as error:  # sgfmill refuses a move, as plain Go would
        answer["error"] = "ValueError: %s" % error
    return answer


def final_board(game):
    size = game.get_size()
    board, moves = sgf_moves.get_setup_and_moves(game, boards.Board(size))
    for colour, point in moves:
        if point is not None:
            row, col = point
            board.play(row, col, colour)
    # sgfmill's row 0 is the bottom row.
    rows = []
    for row in reversed(range(size)):
        rows.append("".join({"b": "b", "w": "w", None: "."}[board.get(row, col)]
                            for col in range(size)))
    return rows


for path in sys.argv[1:]:
    answer = replay(path)
    answer["file"] = path
    print(json.dumps(answer))
