"""Rendering shared by the PettingZoo and Gymnasium adapters, which follow one convention:
"ansi" returns the text board, "human" prints it (after every move, by itself) and returns
None."""

import gymnasium

RENDER_MODES = ["ansi", "human"]


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
    return str(game)


def after_move(render_mode, game):
    """In "human" mode the environment shows each move itself."""
    if render_mode == "human":
        render(render_mode, game)
