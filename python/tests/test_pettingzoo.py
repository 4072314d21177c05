"""The PettingZoo adapter passes PettingZoo's own API, seed and render tests for every rule
set."""

import numpy as np
import pytest
from conftest import RULE_SETS, rule_set_id
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

import toroid
import toroid._render
import toroid.pettingzoo


# Two notices about the action-masking convention itself (a Dict of "observation" and
# "action_mask"), which api_test waives by name for PettingZoo's own board games (go_v5,
# chess_v6, ...). Its checks of the planes and the mask inside still fail the test.
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be"
    ":UserWarning:pettingzoo.test.api_test",
    "ignore:Observation is not a NumPy array:UserWarning:pettingzoo.test.api_test",
)
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


def pixel(image, row, column, shift=0):
    """The colour at the centre of a cell of an "rgb_array" picture."""
    cell = toroid._render.CELL
    return tuple(image[row * cell + cell // 2 - 1, column * cell + cell // 2 - 1 + shift])


def test_rgb_array_render_draws_the_stones_and_marks_the_last():
    env = toroid.pettingzoo.env("go", size=5, render_mode="rgb_array")
    env.reset()
    env.step(12)  # black on cc, the centre
    env.step(6)  # white on bb
    image = env.render()
    assert image.shape == (5 * 32, 5 * 32, 3) and image.dtype == np.uint8
    black, white, wood = (0x11,) * 3, (0xF4,) * 3, (0xE3, 0xBD, 0x72)
    # The last stone (white) carries a black dot; black's stone is black at its centre.
    assert pixel(image, 2, 2) == black and pixel(image, 1, 1) == black
    assert tuple(image[1 * 32 + 4, 1 * 32 + 16]) == white
    assert tuple(image[4, 4]) == wood


def test_rgb_array_render_shifts_odd_rows_of_hex_boards():
    env = toroid.pettingzoo.env("hex-torus", width=4, height=4, render_mode="rgb_array")
    env.reset()
    env.step(5)  # black on row 1, column 1: an odd row, half a cell right
    image = env.render()
    assert image.shape == (4 * 32, 4 * 32 + 16, 3)
    assert pixel(image, 1, 1, shift=16 + 8) == (0x11,) * 3  # off the white last-move dot
    assert pixel(image, 1, 1, shift=-16 + 8) != (0x11,) * 3


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
