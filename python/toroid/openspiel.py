"""OpenSpiel adapter: `register()` registers every rule set with OpenSpiel as a Python game
named `toroid_<name>` (`-` written `_`), so that OpenSpiel's algorithms run on them:

    toroid.openspiel.register()
    game = pyspiel.load_game("toroid_hex_torus", {"width": 6, "height": 6})

Player 0 is black, player 1 white. Actions are integers as in `toroid.Game`; the
observation tensor is `Game.observation` for the observing player, flattened. The game
parameters are the rule set's, with their defaults (Go's derived `max_moves` is left at its
default: 3 × the number of points). OpenSpiel needs a bound on a game's length: where the
rules give one it is theirs (Go's `max_moves`, every cell filled in hex-torus, m-torus and
CTOR); torus and capture-go, whose captures could make a game go on for long, end here as a
draw after 4 × (number of cells) moves, as OpenSpiel's own Go ends at its move limit.
"""

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from . import PLANES, Game, games

COLORS = ["black", "white"]


def game_name(name):
    """The OpenSpiel name of a rule set: `toroid_hex_torus`."""
    return "toroid_" + name.replace("-", "_")


def max_game_length(game):
    """The most moves a game of these parameters can last (see the module's doc)."""
    cells = game.width * game.height
    if game.name == "go":
        return game.params()["max_moves"]
    if game.name in ("hex-torus", "m-torus"):
        return cells
    if game.name == "ctor":
        return 2 * cells  # one placement or `end` after each placement
    return 4 * cells


def register():
    """Registers every rule set with OpenSpiel (again is harmless)."""
    registered = set(pyspiel.registered_names())
    for rule_set in games():
        if game_name(rule_set["name"]) not in registered:
            _register(rule_set)


def _load_game(short_name, params):
    """`pyspiel.load_game` after `register()`, for a game unpickled in another process."""
    register()
    return pyspiel.load_game(short_name, params)


def _default(param):
    """A parameter's default as OpenSpiel types it: OpenSpiel reads `true` and `false` in a
    game string as bools, so a choice of exactly those two (the pie rule's `swap`) is a bool,
    which `toroid.Game` takes too."""
    if param.get("choices") == ["false", "true"]:
        return param["default"] == "true"
    return param["default"]


def _register(rule_set):
    name = rule_set["name"]
    defaults = {p["name"]: _default(p) for p in rule_set["params"] if not p["default_derived"]}
    game_type = pyspiel.GameType(
        short_name=game_name(name),
        long_name=f"toroid {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )

    class ToroidGame(pyspiel.Game):
        def __init__(self, params=None):
            values = {**defaults, **(params or {})}
            self.start = Game(name, **values)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.start.num_actions,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max_game_length(self.start),
            )
            super().__init__(game_type, info, values)

        def new_initial_state(self):
            return ToroidState(self)

        def __reduce__(self):
            # Pickled as its name and parameters, loaded again where it is unpickled (pybind11's
            # own pickling would lose the Python attributes): OpenSpiel's AlphaZero hands the
            # game to its actor processes this way.
            return (_load_game, (game_name(name), self.get_parameters()))

        def make_py_observer(self, iig_obs_type=None, params=None):
            if iig_obs_type is None or (
                iig_obs_type.public_info and not iig_obs_type.perfect_recall
            ):
                return BoardObserver(self.start, params)
            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    ToroidGame.__name__ = ToroidGame.__qualname__ = f"ToroidGame_{game_name(name)}"
    pyspiel.register_game(game_type, ToroidGame)


class ToroidState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.game = game.start.clone()
        self._length_limit = game.max_game_length()

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return COLORS.index(self.game.to_move())

    def _legal_actions(self, player):
        return sorted(self.game.legal_actions())

    def _apply_action(self, action):
        self.game.play(action)

    def _action_to_string(self, player, action):
        return f"{COLORS[player]} {self.game.action_to_move(action)}"

    def is_terminal(self):
        return self.game.is_over() or self.game.ply() >= self._length_limit

    def returns(self):
        winner = self.game.winner()
        if winner in (None, "draw"):
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == "black" else [-1.0, 1.0]

    def __str__(self):
        return str(self.game)


class BoardObserver:
    """The observation planes of `Game.observation` for the observing player."""

    def __init__(self, start, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        shape = (PLANES, start.height, start.width)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        self.dict["observation"][...] = state.game.observation(COLORS[player])

    def string_from(self, state, player):
        return str(state.game)
