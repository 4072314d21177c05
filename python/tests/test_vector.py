"""`toroid.VectorEnv` against `toroid.Game`: same seed, same games; rewards and done flags
from the games' winners; masks and observations as the games give them."""

import hashlib
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from conftest import RULE_SETS, rule_set_id

import toroid


def reward_for(mover, winner):
    if winner == "draw":
        return 0.0
    return 1.0 if winner == mover else -1.0


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
def test_steps_match_games_played_one_by_one(rule_set):
    name, params = rule_set
    num_envs = 8
    env = toroid.VectorEnv(name, num_envs, seed=3, **params)
    games = [toroid.Game(name, **params) for _ in range(num_envs)]
    observations, masks = env.reset()
    finished = 0
    for _ in range(150):
        for i, game in enumerate(games):
            assert (masks[i] == game.legal_mask()).all()
            assert sorted(np.flatnonzero(masks[i])) == sorted(game.legal_actions())
            assert (observations[i] == game.observation()).all()
            assert env.to_move[i] == ["black", "white"].index(game.to_move())
        actions = env.sample_actions().copy()
        movers = [game.to_move() for game in games]
        for game, action in zip(games, actions):
            game.play(int(action))
        observations, rewards, dones, masks = env.step(actions)
        for i, game in enumerate(games):
            assert dones[i] == game.is_over()
            if game.is_over():
                assert rewards[i] == reward_for(movers[i], game.winner())
                finished += 1
                games[i] = toroid.Game(name, **params)
            else:
                assert rewards[i] == 0.0
    assert finished > 0


def play(env, steps):
    boards = []
    for _ in range(steps):
        observations, _, _, _ = env.step(env.sample_actions())
        boards.append(observations.copy())
    return np.array(boards)


def test_same_seed_same_games():
    first = play(toroid.VectorEnv("go", 16, seed=7, size=5), 60)
    second = play(toroid.VectorEnv("go", 16, seed=7, size=5), 60)
    other = play(toroid.VectorEnv("go", 16, seed=8, size=5), 60)
    assert (first == second).all()
    assert not (first == other).all()
    reseeded = toroid.VectorEnv("go", 16, seed=8, size=5)
    reseeded.reset(seed=7)
    assert (play(reseeded, 60) == first).all()


def test_environments_of_neighbouring_seeds_do_not_share_streams():
    # Seeding environment i with seed + i made environment 1 of seed 0 replay environment
    # 0 of seed 1.
    zero = play(toroid.VectorEnv("go", 4, seed=0, size=5), 30)
    one = play(toroid.VectorEnv("go", 4, seed=1, size=5), 30)
    for i in range(3):
        assert not (zero[:, i + 1] == one[:, i]).all()
    # Nor do two environments of one seed.
    assert not (zero[:, 0] == zero[:, 1]).all()


def test_sampled_actions_are_legal_and_drawn_for_the_current_positions():
    env = toroid.VectorEnv("go", 16, seed=5, size=5)
    _, masks = env.reset()
    for _ in range(40):
        actions = env.sample_actions()
        assert masks[np.arange(16), actions].all()
        _, _, _, masks = env.step(actions)  # draws the next actions as it steps
    first = env.sample_actions().copy()
    assert not (env.sample_actions() == first).all(), "each call draws anew"
    env.step(env.sample_actions())
    # A reset discards the actions drawn ahead for the positions before it.
    env.reset(seed=9)
    fresh = toroid.VectorEnv("go", 16, seed=9, size=5)
    assert (env.sample_actions() == fresh.sample_actions()).all()


def test_buffers_are_reused():
    env = toroid.VectorEnv("torus", 4, size=5)
    observations, masks = env.reset()
    step = env.step(env.sample_actions())
    assert step[0] is observations and step[3] is masks
    assert env.observation_shape == (toroid.PLANES, 5, 5) and env.num_actions == 28
    assert observations.shape == (4, toroid.PLANES, 5, 5) and masks.shape == (4, 28)


def test_an_illegal_action_names_the_environment_and_changes_nothing():
    env = toroid.VectorEnv("go", 4, seed=1, size=5)
    env.reset()
    env.step([12, 12, 12, 12])
    buffers = env.step(env.sample_actions())
    before = [a.copy() for a in buffers]
    actions = env.sample_actions().copy()
    actions[2] = 12  # occupied since the first step
    with pytest.raises(
        toroid.IllegalMove, match=r"environment 2: action 12 \(cc\): the cell is occupied"
    ):
        env.step(actions)
    actions[2] = 27
    with pytest.raises(
        toroid.IllegalMove,
        match=r"environment 2: action 27 \(swap\): 'swap' is only allowed at move 2",
    ):
        env.step(actions)
    actions[2] = 28
    with pytest.raises(ValueError, match="environment 2: action 28 is not an action"):
        env.step(actions)
    for buffer, copy in zip(buffers, before):
        assert (buffer == copy).all(), "a refused step writes nothing"
    after = env.step(np.full(4, 25))  # everyone passes: the empty cells stay as they were
    assert (after[0][:, 2] == before[0][:, 2]).all(), "the refused steps placed no stone"


@pytest.mark.parametrize(
    "actions, error, message",
    [
        ([0, 0, 0], ValueError, "3 actions for 4 environments"),
        ([0.5, 0, 0, 0], TypeError, "integers"),
        ([[0, 0], [0, 0]], ValueError, "one-dimensional array of 4 integers"),
    ],
)
def test_bad_action_arrays_are_refused(actions, error, message):
    env = toroid.VectorEnv("go", 4, size=5)
    with pytest.raises(error, match=message):
        env.step(actions)


def test_bad_construction_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        toroid.VectorEnv("chess", 4)
    with pytest.raises(ValueError, match="at least 1"):
        toroid.VectorEnv("go", 0)
    with pytest.raises(ValueError, match="size"):
        toroid.VectorEnv("go", 4, size=100)


@pytest.mark.parametrize("dtype", ["uint8", np.uint8, "bool", np.bool_, "float32"])
def test_observations_in_a_smaller_dtype_hold_the_same_planes(dtype):
    wide = toroid.VectorEnv("go", 8, seed=5, size=5)
    narrow = toroid.VectorEnv("go", 8, seed=5, size=5, dtype=dtype)
    game = toroid.Game("go", size=5)
    assert narrow.reset()[0].dtype == np.dtype(dtype)
    for _ in range(40):
        planes, _, _, _ = wide.step(wide.sample_actions())
        small, _, _, _ = narrow.step(narrow.sample_actions())
        assert small.dtype == np.dtype(dtype)
        assert (small.astype(np.float32) == planes).all()
    assert (game.observation(dtype=dtype).astype(np.float32) == game.observation()).all()
    assert game.observation("white", dtype=dtype).dtype == np.dtype(dtype)


@pytest.mark.parametrize("dtype", ["float64", "int8", "not a dtype", 3.5])
def test_other_observation_dtypes_are_refused(dtype):
    with pytest.raises(ValueError, match="float32, uint8 or bool|not a numpy dtype"):
        toroid.VectorEnv("go", 4, size=5, dtype=dtype)
    with pytest.raises(ValueError, match="float32, uint8 or bool|not a numpy dtype"):
        toroid.Game("go", size=5).observation(dtype=dtype)


def test_environments_step_from_any_thread():
    """The first thread to step an environment works among VectorEnv's threads; a call from
    another thread must still run, and give the same games."""
    here = play(toroid.VectorEnv("go", 64, seed=4, size=5), 30)
    results = []
    worker = threading.Thread(
        target=lambda: results.append(play(toroid.VectorEnv("go", 64, seed=4, size=5), 30))
    )
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "a step from a second thread never finished"
    assert (results[0] == here).all()


ONE_THREAD = """
import hashlib, threading, numpy as np, toroid
def play(env):
    boards = []
    for _ in range(30):
        boards.append(env.step(env.sample_actions())[0].copy())
    return hashlib.sha256(np.array(boards).tobytes()).hexdigest()
print(play(toroid.VectorEnv("go", 64, seed=4, size=5)))
results = []
worker = threading.Thread(
    target=lambda: results.append(play(toroid.VectorEnv("go", 64, seed=4, size=5))))
worker.start()
worker.join(timeout=60)
print(results[0])
"""


def test_one_thread_steps_on_the_caller_and_gives_the_same_games(tmp_path):
    """With RAYON_NUM_THREADS=1 there is no pool: each call steps on its own thread, the
    first thread's and any other's."""
    here = hashlib.sha256(play(toroid.VectorEnv("go", 64, seed=4, size=5), 30).tobytes())
    alone = subprocess.run(
        [sys.executable, "-c", ONE_THREAD],
        env={**os.environ, "RAYON_NUM_THREADS": "1"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert alone.stdout.split() == [here.hexdigest()] * 2


def test_large_boards_observe_as_games_do():
    """Boards over 512 cells read their stones into a buffer of their own."""
    env = toroid.VectorEnv("go", 2, seed=6, size=25)
    games = [toroid.Game("go", size=25) for _ in range(2)]
    observations, _ = env.reset()
    for _ in range(60):
        actions = env.sample_actions().copy()
        for game, action in zip(games, actions):
            game.play(int(action))
        observations, _, _, _ = env.step(actions)
        for i, game in enumerate(games):
            assert (observations[i] == game.observation()).all()


def test_an_environment_gives_its_game_and_takes_another():
    env = toroid.VectorEnv("capture-go", 3, seed=4, size=5, target=1)
    env.step(np.array([12, 0, 24]))
    env.step(np.array([1, 1, 23]))
    game = env.game(2)
    assert game.moves() == ["ee", "de"] and game.to_move() == "black"
    # Black's stone in the corner has one liberty left: white captures it at once.
    corner = toroid.Game("capture-go", size=5, target=1)
    for move in ["aa", "ba"]:
        corner.play(move)
    corner.play("ee")
    env.set_game(1, corner)
    # Its rows show it at once.
    assert env.to_move[1] == 1
    assert (env.game(1).observation() == corner.observation()).all()
    actions = env.sample_actions().copy()
    actions[1] = corner.move_to_action("ab")
    _, rewards, dones, _ = env.step(actions)
    assert dones[1] and rewards[1] == 1
    # The final observation is the finished board, for white, who moved; the row itself
    # shows the new game.
    finished = corner.clone()
    finished.play("ab")
    assert (env.final_observations[1] == finished.observation("white")).all()
    assert env.game(1).moves() == []
    with pytest.raises(ValueError, match="other parameters"):
        env.set_game(0, toroid.Game("capture-go", size=5))
    with pytest.raises(IndexError):
        env.game(3)


def test_starts_are_kept_for_every_new_game_and_long_games_are_cut_short():
    opening = toroid.Game("go", size=5)
    opening.play("cc")
    env = toroid.VectorEnv("go", 4, seed=1, max_steps=6, size=5)
    observations, _ = env.reset(starts=opening)
    assert (observations[0] == opening.observation()).all()
    assert (env.to_move == 1).all()
    truncations = 0
    for _ in range(30):
        _, rewards, dones, _ = env.step(env.sample_actions())
        truncations += int(env.truncated.sum())
        assert not (env.truncated & dones).any()
        assert (rewards[env.truncated] == 0).all()
        for i in np.flatnonzero(env.truncated):
            # Started again from the opening, not from the empty board.
            assert env.game(i).moves() == ["cc"]
    assert truncations >= 4
    with pytest.raises(ValueError, match="3 starts for 4 environments"):
        env.reset(starts=[opening] * 3)
    with pytest.raises(ValueError, match="max_steps"):
        toroid.VectorEnv("go", 4, max_steps=0, size=5)


def test_house_bots_move_in_every_game_at_once():
    env = toroid.VectorEnv("capture-go", 4, seed=2, size=5, target=1)
    # In environment 2 white captures a corner stone at once; greedy sees it.
    corner = toroid.Game("capture-go", size=5, target=1)
    for move in ["aa", "ba", "ee"]:
        corner.play(move)
    env.set_game(2, corner)
    actions = env.bot_actions("greedy", seed=3)
    assert actions[2] == corner.move_to_action("ab")
    assert (actions == env.bot_actions("greedy", seed=3)).all()
    searched = env.bot_actions("beginner", seed=1, playouts=50)
    assert all(env.game(i).clone().legal_actions().count(a) == 1 for i, a in enumerate(searched))
    with pytest.raises(ValueError, match="does not search"):
        env.bot_actions("greedy", playouts=10)


def test_the_optional_planes_agree_with_the_games_own():
    # Capture Go on a small board: captures, passes and resets within a few dozen steps.
    env = toroid.VectorEnv("capture-go", 3, seed=4, size=4, target=2, last_moves=3, extras=True)
    assert env.observation_shape == (toroid.PLANES + 3 + 5, 4, 4)
    observations, _ = env.reset()
    # An environment set to a game with moves reads them in its last-move planes.
    start = toroid.Game("capture-go", size=4, target=2)
    for move in ["aa", "bb"]:
        start.play(move)
    env.set_game(2, start)
    observations = None
    ended = 0
    for _ in range(60):
        before = [env.game(i) for i in range(env.num_envs)]
        actions = env.sample_actions().copy()  # the step draws the next ones into its array
        observations, _, done, _ = env.step(actions)
        for i in range(env.num_envs):
            if done[i]:
                ended += 1
                after = before[i].clone()
                after.play(int(actions[i]))
                mover = before[i].to_move()
                np.testing.assert_array_equal(
                    env.final_observations[i], after.observation(mover, last_moves=3, extras=True)
                )
            np.testing.assert_allclose(
                observations[i], env.game(i).observation(last_moves=3, extras=True)
            )
    assert ended > 0
    with pytest.raises(ValueError, match="float32"):
        toroid.VectorEnv("go", 1, dtype="uint8", extras=True, size=5)
