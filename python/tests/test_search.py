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


def test_playout_share_mixes_a_playouts_result_into_each_leafs_value():
    # With every position even, the one move that two simulations visit (the first evaluates
    # the root) is worth its playout's ±1 times the share.
    game = toroid.Game("hex-torus", width=8, height=8)
    for share in [0.0, 0.5, 1.0]:
        for seed in range(5):
            search = toroid.Search(uniform, playouts=2, batch=1, seed=seed, playout_share=share)
            (visited,) = [m for m in search.analyse(game)["moves"] if m["visits"] > 0]
            assert visited["visits"] == 1
            assert abs(abs(2 * visited["win_rate"] - 1) - share) < 1e-6, (share, seed, visited)
    for share in [-0.1, 1.5, float("nan")]:
        with pytest.raises(ValueError, match="playout_share"):
            toroid.Search(uniform, playout_share=share)


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


@pytest.fixture(scope="module")
def weights(cli, tmp_path_factory):
    """A small network's weights, from one round of `toroid train` on a 4×4 hex-torus."""
    import subprocess

    run = tmp_path_factory.mktemp("train")
    subprocess.run(
        [str(cli.path), "train", "hex-torus", "-p", "width=4", "-p", "height=4", "--dir", str(run),
         "--rounds", "1", "--games", "1", "--simulations", "4", "--steps", "1",
         "--channels", "8", "--blocks", "1"],
        check=True, capture_output=True,
    )
    return run / "network.safetensors"


def test_a_trained_network_evaluates_games_and_guides_the_search(weights):
    network = toroid.Network(weights)
    assert network.shape == (7, 8, 1)
    games = [toroid.Game("hex-torus", width=4, height=4) for _ in range(3)]
    games[1].play("aa")
    priors, values = network.evaluate(games)
    assert priors.shape == (3, games[0].num_actions) and values.shape == (3,)
    for game, row in zip(games, priors):
        assert abs(row.sum() - 1) < 1e-5 and np.all(row[~game.legal_mask()] == 0)
    assert np.all(np.abs(values) <= 1)
    # A network of another board size reads it through the same weights.
    big = toroid.Game("hex-torus", width=8, height=8)
    assert network.evaluate([big])[0].shape == (1, big.num_actions)
    search = toroid.Search(network, playouts=30, seed=2)
    move = search.genmove(games[1])
    assert games[1].legal_mask()[games[1].move_to_action(move)]


def test_a_network_refuses_what_it_cannot_read(tmp_path):
    with pytest.raises(ValueError, match="not a network"):
        toroid.Network(tmp_path / "missing.safetensors")
    (tmp_path / "junk.safetensors").write_bytes(b"not weights")
    with pytest.raises(ValueError, match="not a network"):
        toroid.Network(tmp_path / "junk.safetensors")
