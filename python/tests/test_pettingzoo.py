"""The PettingZoo adapter passes PettingZoo's own API, seed and render tests for every rule
set."""

import pytest
from conftest import RULE_SETS, rule_set_id
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

import toroid
import toroid.pettingzoo


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
def test_pettingzoo_api_test(rule_set):
    name, params = rule_set
    api_test(toroid.pettingzoo.env(name, **params), num_cycles=300)


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
def test_pettingzoo_seed_and_render_tests(rule_set, capsys):
    name, params = rule_set
    seed_test(lambda: toroid.pettingzoo.env(name, **params), num_cycles=100)
    render_test(lambda render_mode=None: toroid.pettingzoo.env(name, render_mode, **params))
    assert "to move" in capsys.readouterr().out  # "human" printed the board


def test_ansi_render_shows_the_board():
    env = toroid.pettingzoo.env("go", size=5, render_mode="ansi")
    env.reset()
    env.step(12)
    text = env.render()
    assert text.splitlines()[2] == ". . b . ." and "white to move" in text


def test_rewards_go_to_the_winner():
    env = toroid.pettingzoo.env("go", size=5, komi=0.5)
    env.reset()
    for action in [12, 25, 25]:
        env.step(action)
    assert all(env.terminations.values())
    assert env.rewards == {"black_0": 1, "white_0": -1}


def test_an_illegal_action_raises_or_loses_under_the_wrapper():
    env = toroid.pettingzoo.env("go", size=5)
    env.reset()
    env.step(12)
    with pytest.raises(toroid.IllegalMove, match="occupied"):
        env.step(12)
    assert env.agent_selection == "white_0" and not any(env.terminations.values())
    wrapped = TerminateIllegalWrapper(toroid.pettingzoo.env("go", size=5), illegal_reward=-1)
    wrapped.reset()
    wrapped.step(12)
    wrapped.step(12)
    assert all(wrapped.terminations.values()) and wrapped.rewards["white_0"] == -1
