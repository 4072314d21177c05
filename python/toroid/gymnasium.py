"""Gymnasium adapter: one rule set against a house bot, as a single-agent environment.

    env = toroid.gymnasium.make("go", opponent="greedy", size=9)

Importing this module registers each rule set with Gymnasium as `toroid/<name>-v0`, so
`gymnasium.make("toroid/go-v0", size=9)` works too.

The agent plays `player` ("black" or "white"); the house bot `opponent` (a `toroid.Bot`
level, with `opponent_options` such as `{"playouts": 300}`) answers each move. Observations
are the planes of `Game.observation` for the agent; actions are integers as in `Game`.
`info["action_mask"]` (int8) and `action_masks()` (bool) give the legal actions. The reward
is +1 for a win, -1 for a loss, 0 for a draw, at the end; an illegal action ends the episode
as a loss, with the reason in `info["illegal_move"]`.
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from . import PLANES, Bot, Game, IllegalMove, games
from ._render import RENDER_MODES, after_move, check_render_mode, render


def env_id(name):
    """The Gymnasium id of a rule set: `toroid/go-v0`."""
    return f"toroid/{name}-v0"


def make(
    name, opponent="greedy", player="black", render_mode=None, opponent_options=None, **params
):
    """A Gymnasium environment of the rule set `name` against the house bot `opponent`, made
    by `gymnasium.make` (with its wrappers; the environment itself is `.unwrapped`)."""
    return gymnasium.make(
        env_id(name),
        opponent=opponent,
        player=player,
        render_mode=render_mode,
        opponent_options=opponent_options,
        **params,
    )


class ToroidEnv(gymnasium.Env):
    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        name,
        opponent="greedy",
        player="black",
        render_mode=None,
        opponent_options=None,
        **params,
    ):
        if player not in ("black", "white"):
            raise ValueError(f"player must be 'black' or 'white', not {player!r}")
        check_render_mode(render_mode)
        self._name, self._params = name, params
        self._opponent, self._opponent_options = opponent, dict(opponent_options or {})
        Bot(opponent, **self._opponent_options)  # refuse a bad opponent now, not at reset
        self.player = player
        self.render_mode = render_mode
        self.game = Game(name, **params)
        shape = (PLANES, self.game.height, self.game.width)
        self.observation_space = spaces.Box(0.0, 1.0, shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        bot_seed = int(self.np_random.integers(2**63))
        self._bot = Bot(self._opponent, seed=bot_seed, **self._opponent_options)
        self.game = Game(self._name, **self._params)
        self._let_the_opponent_move()
        after_move(self.render_mode, self.game)
        return self._observation(), self._info()

    def step(self, action):
        try:
            self.game.play(int(action))
        except IllegalMove as refusal:
            return (
                self._observation(),
                -1.0,
                True,
                False,
                {**self._info(), "illegal_move": str(refusal)},
            )
        self._let_the_opponent_move()
        after_move(self.render_mode, self.game)
        winner = self.game.winner()
        reward = 0.0 if winner in (None, "draw") else (1.0 if winner == self.player else -1.0)
        return self._observation(), reward, self.game.is_over(), False, self._info()

    def action_masks(self):
        """The legal actions as booleans (the name that maskable learners ask for)."""
        return self.game.legal_mask()

    def render(self):
        return render(self.render_mode, self.game)

    def _let_the_opponent_move(self):
        # In CTOR the opponent may move twice in a row.
        while not self.game.is_over() and self.game.to_move() != self.player:
            self.game.play(self._bot.genmove(self.game))

    def _observation(self):
        return self.game.observation(self.player)

    def _info(self):
        return {"action_mask": self.game.legal_mask().astype(np.int8)}


for _rule_set in games():
    gymnasium.register(
        env_id(_rule_set["name"]),
        entry_point=ToroidEnv,
        kwargs={"name": _rule_set["name"]},
    )
