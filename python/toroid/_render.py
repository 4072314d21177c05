"""Rendering shared by the PettingZoo and Gymnasium adapters, which follow one convention."""

import gymnasium

RENDER_MODES = ["ansi"]


def check_render_mode(render_mode):
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")


def render(render_mode, game):
    """The text board in "ansi" mode; without a render mode a warning, and None."""
    if render_mode is None:
        gymnasium.logger.warn("render() was called without a render_mode")
        return None
    return str(game)
