"""toroid: board games on wrapped surfaces for Python.

The rules, the house bots and the batched environment are toroid's Rust crates; see
docs/python.md for the API, the integer actions and the observation planes.
"""

import json

from ._toroid import PLANES, Bot, Game, IllegalMove, Network, Search, TrainingRun, VectorEnv, self_play
from ._toroid import games_json as _games_json

__all__ = [
    "PLANES",
    "Bot",
    "Game",
    "IllegalMove",
    "Network",
    "Search",
    "TrainingRun",
    "VectorEnv",
    "games",
    "self_play",
    "symmetries",
    "transform",
]


def games():
    """The rule sets: a list of {name, summary, params}, each parameter with its kind,
    default, range or choices and help, as `toroid games --json` prints them."""
    return json.loads(_games_json())


def symmetries(name, **params):
    """The symmetries of the rule set's board that keep its rules, as `Game.symmetries()`
    gives them: an `(S, A)` int64 array mapping every action to its image, identity first."""
    return Game(name, **params).symmetries()


def transform(row, observations=None, policy=None):
    """The images under one symmetry (`row`, a row of `symmetries()`) of observations
    `(..., C, H, W)` and of a policy over actions `(..., A)`: numpy arrays, or any array
    type that supports numpy's indexing (JAX's, PyTorch's, with `row` converted)."""
    images = []
    if observations is not None:
        shape = observations.shape
        cells = shape[-2] * shape[-1]
        flat = observations.reshape(*shape[:-2], cells)
        inverse = _inverse(row[:cells])
        images.append(flat[..., inverse].reshape(shape))
    if policy is not None:
        images.append(policy[..., _inverse(row)])
    return images[0] if len(images) == 1 else tuple(images)


def _inverse(row):
    import numpy as np

    row = np.asarray(row)
    inverse = np.empty_like(row)
    inverse[row] = np.arange(len(row))
    return inverse
