"""The Gymnasium adapter passes Gymnasium's own environment checker."""

import numpy as np
import pytest
from conftest import RULE_SETS, rule_set_id
from gymnasium.utils.env_checker import check_env

import toroid
import toroid.gymnasium


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
@pytest.mark.parametrize("player", ["black", "white"])
def test_check_env(rule_set, player):
    name, params = rule_set
    env = toroid.gymnasium.make(name, player=player, render_mode="ansi", **params)
    check_env(env.unwrapped, skip_render_check=False)


def test_check_env_with_pictures():
    env = toroid.gymnasium.make("go", size=5, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)


def test_a_game_against_the_bot_ends_with_the_winners_reward():
    env = toroid.gymnasium.make("hex-torus", opponent="random", width=5, height=6)
    observation, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    terminated = False
    while not terminated:
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        assert observation in env.observation_space and not truncated
    assert reward == {"black": 1.0, "white": -1.0}[env.unwrapped.game.winner()]


def test_an_illegal_action_loses():
    env = toroid.gymnasium.make("go", size=5, player="white", opponent="greedy")
    _, info = env.reset(seed=0)
    occupied = int(np.flatnonzero(env.unwrapped.game.board().ravel())[0])
    _, reward, terminated, _, info = env.step(occupied)
    assert (reward, terminated) == (-1.0, True)
    assert "occupied" in info["illegal_move"]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="unknown level"):
        toroid.gymnasium.make("go", opponent="godlike")
    with pytest.raises(ValueError, match="player"):
        toroid.gymnasium.make("go", player="red")
