"""Rendering shared by the PettingZoo and Gymnasium adapters, which follow one convention:
"ansi" returns the text board, "human" prints it (after every move, by itself) and returns
None, "rgb_array" returns a picture of the board as an (H, W, 3) uint8 array."""

import functools

import gymnasium
import numpy as np

RENDER_MODES = ["ansi", "human", "rgb_array"]

# Pixels a cell takes in an "rgb_array" picture, and the colours of the web page's board.
CELL = 32
WOOD = (0xE3, 0xBD, 0x72)
LINE = (0x6B, 0x4E, 0x1F)
STONES = {1: (0x11, 0x11, 0x11), 2: (0xF4, 0xF4, 0xF4)}
OUTLINE = (0x44, 0x44, 0x44)

# Each pixel of a cell's picture: its offset from the cell's centre, and its distance.
_Y, _X = np.mgrid[0:CELL, 0:CELL] + 0.5 - CELL / 2
_RADIUS = np.hypot(_X, _Y)


def check_render_mode(render_mode):
    if render_mode not in (None, *RENDER_MODES):
        modes = ", ".join(repr(m) for m in RENDER_MODES)
        raise ValueError(f"render_mode must be None, {modes}, not {render_mode!r}")


def render(render_mode, game):
    """What `render()` gives in `render_mode` for `game`; without a mode a warning, and None."""
    if render_mode is None:
        gymnasium.logger.warn("render() was called without a render_mode")
        return None
    if render_mode == "human":
        print(game, end="\n\n")
        return None
    if render_mode == "rgb_array":
        return rgb_array(game)
    return str(game)


def after_move(render_mode, game):
    """In "human" mode the environment shows each move itself."""
    if render_mode == "human":
        render(render_mode, game)


@functools.lru_cache(maxsize=None)
def _tiles(lattice):
    """One CELL × CELL picture per board value (0 empty, 1 black, 2 white), drawn around the
    cell's centre: grid lines through it that join their neighbours' into the board's
    lattice (diagonals too where cells touch corners), a dot on hex boards. Drawn once per
    lattice (callers must not write into them)."""
    empty = np.empty((CELL, CELL, 3), np.uint8)
    empty[:] = WOOD
    if lattice == "hex-odd-r":
        empty[_RADIUS <= CELL * 0.1] = LINE
    else:
        empty[(abs(_X) < 1) | (abs(_Y) < 1)] = LINE
        if lattice == "square-8":
            empty[abs(abs(_X) - abs(_Y)) < 0.75] = LINE
    tiles = [empty]
    for value in (1, 2):
        tile = empty.copy()
        tile[_RADIUS <= CELL * 0.46] = OUTLINE
        tile[_RADIUS <= CELL * 0.46 - 1.5] = STONES[value]
        tiles.append(tile)
    return np.stack(tiles)


def _last_placement(game, board):
    """(row, column) of the last stone placed, if a move placed it and it is still on
    `board`, the game's board."""
    for move in reversed(game.moves()):
        if move in ("pass", "end", "swap"):
            continue
        row, column = divmod(game.move_to_action(move), game.width)
        return (row, column) if board[row, column] else None
    return None


def rgb_array(game):
    """A picture of `game`'s board, (H·CELL, W·CELL, 3) uint8, with the web page's colours.
    The last stone placed carries a dot of the other colour. Hex boards are drawn in their
    odd-r layout: odd rows shifted half a cell right, so the picture is half a cell wider."""
    board = game.board().astype(np.intp)
    height, width = board.shape
    lattice = game.topology()["lattice"]
    shift = CELL // 2 if lattice == "hex-odd-r" else 0
    tiles = _tiles(lattice)
    image = np.empty((height * CELL, width * CELL + shift, 3), np.uint8)
    image[:] = WOOD
    rows = image.reshape(height, CELL, -1, 3)
    for row in range(height):
        # The row's tiles side by side: (W, CELL, CELL, 3) -> (CELL, W·CELL, 3).
        strip = tiles[board[row]].transpose(1, 0, 2, 3).reshape(CELL, width * CELL, 3)
        left = shift if row % 2 else 0
        rows[row, :, left : left + width * CELL] = strip
    last = _last_placement(game, board)
    if last is not None:
        row, column = last
        left = column * CELL + (shift if row % 2 else 0)
        cell = rows[row, :, left : left + CELL]
        cell[_RADIUS <= CELL * 0.12] = STONES[3 - board[row, column]]
    return image
