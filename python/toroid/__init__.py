"""toroid: board games on wrapped surfaces for Python.

The rules, the house bots and the batched environment are toroid's Rust crates; see
docs/python.md for the API, the integer actions and the observation planes.
"""

import json

from ._toroid import PLANES, Bot, Game, IllegalMove, VectorEnv
from ._toroid import games_json as _games_json

__all__ = ["PLANES", "Bot", "Game", "IllegalMove", "VectorEnv", "games"]


def games():
    """The rule sets: a list of {name, summary, params}, each parameter with its kind,
    default, range or choices and help, as `toroid games --json` prints them."""
    return json.loads(_games_json())
