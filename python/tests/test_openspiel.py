"""The OpenSpiel adapter passes OpenSpiel's own random simulation test for every registered
game, and OpenSpiel's MCTS bot plays a full game of toroid_hex_torus."""

import pickle
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from conftest import RULE_SETS, rule_set_id
from open_spiel.python.algorithms import mcts

import toroid
import toroid.openspiel

toroid.openspiel.register()


def test_every_rule_set_is_registered():
    names = set(pyspiel.registered_names())
    for rule_set in toroid.games():
        assert toroid.openspiel.game_name(rule_set["name"]) in names


@pytest.mark.parametrize("name", [g["name"] for g in toroid.games()])
def test_random_sim_test_with_the_defaults(name):
    game = pyspiel.load_game(toroid.openspiel.game_name(name))
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
def test_random_sim_test_with_parameters(rule_set):
    name, params = rule_set
    game = pyspiel.load_game(toroid.openspiel.game_name(name), params)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_mcts_bot_plays_a_full_hex_torus_game():
    game = pyspiel.load_game("toroid_hex_torus")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) == [-1.0, 1.0], "hex-torus has no draws"
    replay = toroid.Game("hex-torus")
    for action in state.history():
        replay.play(action)
    assert replay.winner() == ["black", "white"][state.returns().index(1.0)]


def test_a_draw_returns_nothing_to_either_player():
    game = pyspiel.load_game("toroid_capture_go", {"size": 3})
    assert game.max_game_length() == 4 * 9
    state = game.new_initial_state()
    state.apply_action(9)  # two passes, no captures: a draw
    state.apply_action(9)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_pickled_game_loads_in_a_process_that_never_registered():
    # OpenSpiel's AlphaZero hands the game to its actor processes pickled.
    game = pyspiel.load_game("toroid_hex_torus", {"width": 5, "height": 4, "swap": True})
    child = subprocess.run(
        [sys.executable, "-c", UNPICKLE],
        input=pickle.dumps(game),
        capture_output=True,
        check=True,
    )
    assert child.stdout.decode().split() == [
        "toroid_hex_torus(height=4,swap=True,width=5)",
        "20",
        "23",
    ]


UNPICKLE = """
import pickle, sys
game = pickle.loads(sys.stdin.buffer.read())
state = game.new_initial_state()
print(game, len(state.legal_actions()), game.num_distinct_actions())
"""
