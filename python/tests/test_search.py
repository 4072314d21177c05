"""toroid.Search: toroid's PUCT tree guided by an evaluator written in Python."""

import numpy as np
import pytest

import toroid


def uniform(observations, masks):
    """No knowledge: equal priors, every position even."""
    return np.ones(masks.shape, dtype=np.float32), np.zeros(len(masks), dtype=np.float32)


def torus_win():
    # White's cc has black on three sides; cd surrounds it (the search tests' position).
    game = toroid.Game("torus", size=5)
    for move in ["bc", "cc", "dc", "aa", "cb", "ae"]:
        game.play(move)
    return game


def test_the_evaluator_sees_observations_and_masks_of_the_positions():
    seen = []

    def evaluator(observations, masks):
        seen.append((observations.copy(), masks.copy()))
        return uniform(observations, masks)

    game = toroid.Game("hex-torus", width=6, height=6)
    game.play("aa")
    search = toroid.Search(evaluator, playouts=40, batch=4)
    result = search.analyse(game)
    assert result["simulations"] == 40
    assert sum(m["visits"] for m in result["moves"]) == 39  # the first evaluates the root
    observations, masks = seen[0]
    assert observations.shape == (1, toroid.PLANES, 6, 6) and observations.dtype == np.float32
    np.testing.assert_array_equal(observations[0], game.observation())
    np.testing.assert_array_equal(masks[0], game.legal_mask())
    assert max(len(m) for _, m in seen) <= 4 and len(seen) < 40
    policy = result["policy"]
    assert policy.shape == (game.num_actions,) and abs(policy.sum() - 1) < 1e-6
    assert np.all(policy[~game.legal_mask()] == 0)


def test_the_tree_finds_a_win_with_a_uniform_evaluator():
    game = torus_win()
    search = toroid.Search(uniform, playouts=300, seed=1)
    assert search.genmove(game) == "cd"


def test_priors_steer_the_search():
    # All the priors on one legal move: the search spends its visits there.
    game = toroid.Game("go", size=5)
    target = 7

    def favourite(observations, masks):
        priors = np.zeros(masks.shape, dtype=np.float32)
        priors[:, target] = 1.0
        return priors, np.zeros(len(masks))

    result = toroid.Search(favourite, playouts=50).analyse(game)
    assert result["moves"][0]["action"] == target
    assert result["policy"][target] > 0.5


def test_an_evaluators_error_is_raised_and_bad_answers_refused():
    game = toroid.Game("go", size=5)

    def broken(observations, masks):
        raise RuntimeError("the network is not loaded")

    with pytest.raises(RuntimeError, match="not loaded"):
        toroid.Search(broken, playouts=10).genmove(game)

    def wrong_shape(observations, masks):
        return np.ones((len(masks), 3)), np.zeros(len(masks))

    with pytest.raises(ValueError, match="priors"):
        toroid.Search(wrong_shape, playouts=10).analyse(game)
    with pytest.raises(ValueError, match="at least 1"):
        toroid.Search(uniform, playouts=0)
    finished = toroid.Game("go", size=5)
    finished.play("pass")
    finished.play("pass")
    with pytest.raises(ValueError, match="over"):
        toroid.Search(uniform).analyse(finished)
