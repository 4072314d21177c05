#!/usr/bin/env python3
"""An example GTP bot for every toroid rule set, in Python with the standard library only.

It does not implement the rules. It runs `toroid gtp` as a rules oracle, passes every
command that changes the game on to it (the oracle's answer, error or not, is the bot's),
and when it must move it asks the oracle for the legal moves and the board. The bot's own
part is the choice: the legal move with the most of its own stones around it.

    python3 toroid_bot.py [--toroid PATH] [--seed N]

The oracle is the `toroid` binary given by --toroid, else by the TOROID environment
variable, else `toroid` on the PATH. docs/protocol.md ("Writing a bot") lists the commands
a controller such as `toroid match` sends.
"""

import argparse
import json
import os
import random
import subprocess
import sys

NAME = "toroid-python-example"
VERSION = "0.1"

# Commands that change the game: the oracle judges them, and its answer is ours.
MIRRORED = ["boardsize", "clear_board", "komi", "play", "toroid-game", "toroid-play"]
COMMANDS = ["protocol_version", "name", "version", "known_command", "list_commands",
            "quit", "genmove", "toroid-genmove"] + MIRRORED

COLORS = {"b": "black", "black": "black", "w": "white", "white": "white"}
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # toroid notation: ee
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP vertices (E5) skip the letter I


class Oracle:
    """A `toroid gtp` engine that keeps the game. Its own bot never moves: it is never
    sent genmove."""

    def __init__(self, toroid):
        self.process = subprocess.Popen(
            [toroid, "gtp", "--level", "random"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command):
        """Sends one command; returns (success, text of the answer)."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the toroid oracle stopped")
            line = line.rstrip("\r\n")
            if not line:
                break  # the empty line that ends every answer
            lines.append(line)
        # We send no ids, so the text starts after the status and one space.
        text = "\n".join([lines[0][2:]] + lines[1:])
        return lines[0].startswith("="), text

    def close(self):
        """Ends the oracle: at the end of its input it exits."""
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Bot:
    def __init__(self, oracle, rng):
        self.oracle = oracle
        self.rng = rng

    def handle(self, command, args):
        """Answers one command: (success, text)."""
        if command == "protocol_version":
            return True, "2"
        if command == "name":
            return True, NAME
        if command == "version":
            return True, VERSION
        if command == "known_command":
            if len(args) != 1:
                return False, "syntax error"
            return True, "true" if args[0] in COMMANDS else "false"
        if command == "list_commands":
            return True, "\n".join(COMMANDS)
        if command == "quit":
            self.oracle.close()
            return True, ""
        if command in MIRRORED:
            return self.oracle.ask(" ".join([command] + args))
        if command in ("genmove", "toroid-genmove"):
            return self.genmove(args, vertex=command == "genmove")
        return False, "unknown command"

    def genmove(self, args, vertex):
        """Chooses a move, plays it on the oracle and answers it: in toroid notation, or
        for `genmove` in go and capture-go as a GTP vertex."""
        color = COLORS.get(args[0].lower()) if len(args) == 1 else None
        if color is None:
            return False, "syntax error"
        board = json.loads(self.oracle.ask("toroid-board")[1])
        if board["over"]:
            return False, "game is over"
        if board["to_move"] != color:
            return False, "wrong colour"
        legal = self.oracle.ask("toroid-legal")[1].split()
        move = self.choose(board, color[0], legal)
        played, why = self.oracle.ask(f"toroid-play {color} {move}")
        if not played:
            return False, why
        if vertex and board["game"] in ("go", "capture-go") and move != "pass":
            x, y = LETTERS.index(move[0]), LETTERS.index(move[1])
            move = f"{GTP_COLUMNS[x]}{board['height'] - y}"
        return True, move

    def choose(self, board, own, legal):
        """The legal move with the most `own` stones ('b' or 'w') in the 3×3 square around
        it, counted across the board's edges as if every board wrapped: a cheap stand-in
        for each game's real neighbours that keeps the bot's stones together, which helps
        in every game. `pass` and `end` come after every placement. Ties are broken at
        random."""
        rows, width, height = board["board"], board["width"], board["height"]

        def score(move):
            if move in ("pass", "end"):
                return -1
            x, y = LETTERS.index(move[0]), LETTERS.index(move[1])
            return sum(rows[(y + dy) % height][(x + dx) % width] == own
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1))

        scores = {move: score(move) for move in legal}
        best = max(scores.values())
        return self.rng.choice([m for m in legal if scores[m] == best])


def serve(bot):
    """Answers GTP commands from standard input until `quit` or its end."""
    for line in sys.stdin:
        # GTP: control characters go, `#` starts a comment, a blank line gets no answer.
        line = "".join(c for c in line if c.isprintable() or c.isspace())
        words = line.split("#")[0].split()
        if not words:
            continue
        ident = words.pop(0) if words[0].isascii() and words[0].isdigit() else ""
        ok, text = bot.handle(words[0], words[1:]) if words else (False, "syntax error")
        sys.stdout.write(f"{'=' if ok else '?'}{ident} {text}\n\n")
        sys.stdout.flush()
        if words[:1] == ["quit"]:
            return


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--toroid", default=os.environ.get("TOROID", "toroid"),
                        help="the toroid binary (default: $TOROID, else toroid on the PATH)")
    parser.add_argument("--seed", type=int,
                        help="seed for the random tie-breaks (default: from the system)")
    args = parser.parse_args()
    try:
        oracle = Oracle(args.toroid)
    except OSError as e:
        sys.exit(f"toroid_bot.py: cannot start the oracle '{args.toroid}': {e}")
    try:
        serve(Bot(oracle, random.Random(args.seed)))
    except (OSError, RuntimeError) as e:
        sys.exit(f"toroid_bot.py: {e}")
    finally:
        oracle.close()


if __name__ == "__main__":
    main()
