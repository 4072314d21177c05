"""Training by self-play from Python: toroid.self_play, toroid.TrainingRun, and the Ray driver
on a local Ray cluster of two nodes."""

import csv

import numpy as np
import pytest

import toroid

BOARD = {"width": 4, "height": 4}


def small_run(tmp_path, **options):
    return toroid.TrainingRun(
        "hex-torus", tmp_path / "run", channels=8, blocks=1, steps=4, batch=16, **BOARD, **options
    )


def test_self_play_games_are_samples_of_the_board_with_results_for_the_mover(tmp_path):
    run = small_run(tmp_path)
    name, params = run.game
    assert name == "hex-torus" and params["width"] == 4 and params["height"] == 4
    games = toroid.self_play(
        name, run.network(), games=2, simulations=8, seed=3, value_mix=0, **params
    )
    assert len(games) == 2
    cells = 16
    for planes, policy, value, winner in games:
        n = len(value)
        assert planes.shape == (n, toroid.PLANES * cells) and planes.dtype == np.float32
        assert policy.shape == (n, toroid.Game(name, **params).num_actions)
        np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-5)
        # A hex-torus game has a winner; its moves alternate, so the values alternate too.
        assert winner in ("black", "white")
        assert set(np.abs(value)) == {1.0}
        assert all(value[i] == -value[i + 1] for i in range(n - 1))
        # The first position is the empty board, black to move: black won iff value[0] is 1.
        assert (value[0] == 1.0) == (winner == "black")
        assert planes[0][: 2 * cells].sum() == 0
    again = toroid.self_play(name, run.network(), games=2, simulations=8, seed=3, **params)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(games, again))


def test_value_mix_blends_the_result_with_the_search_value_and_plays_the_same_games(tmp_path):
    run = small_run(tmp_path)
    played = {
        mix: toroid.self_play(
            "hex-torus", run.network(), games=2, simulations=8, seed=3, value_mix=mix, **BOARD
        )
        for mix in (0.0, 0.5, 1.0)
    }
    for result, half, searched in zip(played[0.0], played[0.5], played[1.0]):
        # The mix changes the targets only: the same moves and visit shares.
        assert np.array_equal(result[1], searched[1]) and result[3] == searched[3]
        assert set(np.abs(result[2])) == {1.0}
        # The search's values: within -1..1, and a position's own (not one figure for all).
        assert np.all(np.abs(searched[2]) <= 1.0) and np.ptp(searched[2]) > 0
        np.testing.assert_allclose(half[2], (result[2] + searched[2]) / 2, atol=1e-6)
    with pytest.raises(ValueError, match="value_mix"):
        toroid.self_play(
            "hex-torus", run.network(), games=1, simulations=4, value_mix=1.5, **BOARD
        )


def test_playout_share_makes_the_search_value_leaves_by_playouts_too(tmp_path):
    run = small_run(tmp_path)

    def first_position(share):
        (game,) = toroid.self_play(
            "hex-torus", run.network(), simulations=16, seed=4, value_mix=1,
            playout_share=share, **BOARD
        )
        return game[1][0], game[2][0]

    alone, mixed = first_position(0.0), first_position(1.0)
    assert np.array_equal(first_position(1.0)[0], mixed[0])
    assert not np.array_equal(alone[0], mixed[0]) and alone[1] != mixed[1]
    with pytest.raises(ValueError, match="playout_share"):
        toroid.self_play("hex-torus", run.network(), playout_share=-0.5, **BOARD)


def test_a_run_learns_from_games_played_elsewhere_and_resumes(tmp_path):
    run = small_run(tmp_path)
    before = run.network()
    games = toroid.self_play("hex-torus", before, games=2, simulations=8, **BOARD)
    figures = run.learn(games, 1.5)
    assert figures["rounds"] == 1 and figures["games"] == 2
    assert figures["samples"] == sum(len(g[2]) for g in games)
    # The games' 1.5 s and the training's own time.
    assert figures["policy_loss"] > 0 and 1.5 < figures["seconds"] < 60
    assert run.network() != before
    with open(tmp_path / "run" / "log.csv") as log:
        rows = list(csv.DictReader(log))
    assert [r["round"] for r in rows] == ["1"]
    # `toroid train`'s folder: a new TrainingRun (or the CLI) resumes from it.
    resumed = small_run(tmp_path)
    assert resumed.progress()["rounds"] == 1
    assert resumed.network() == run.network()


def test_a_run_refuses_games_of_another_board_and_changes_nothing(tmp_path):
    run = small_run(tmp_path)
    other = toroid.self_play("hex-torus", run.network(), games=1, simulations=4, width=6, height=6)
    with pytest.raises(ValueError, match="this board"):
        run.learn(other, 1.0)
    with pytest.raises(ValueError, match="planes, policy, value, winner"):
        run.learn([("not", "a", "game")], 1.0)
    assert run.progress()["rounds"] == 0
    assert not (tmp_path / "run" / "log.csv").exists()
    with pytest.raises(ValueError, match="another lattice"):
        toroid.self_play("torus", run.network(), games=1, simulations=4, size=5)
    with pytest.raises(ValueError, match="not a network"):
        toroid.self_play("hex-torus", b"garbage", games=1, **BOARD)


def test_self_play_on_a_local_ray_cluster_of_two_nodes(tmp_path):
    import ray
    from ray.cluster_utils import Cluster

    from toroid import ray_train

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    try:
        ray.init(address=cluster.address, log_to_driver=False)
        cluster.wait_for_nodes()
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        # More CPUs than the cluster has: refused before the run's folder is made.
        with pytest.raises(ValueError, match="need 4 CPUs; the cluster has 2"):
            ray_train.train("hex-torus", tmp_path / "run", tasks=2, cpus_per_task=2, games=4, **BOARD)
        with pytest.raises(ValueError, match="value_mix 2 is not a share"):
            ray_train.train("hex-torus", tmp_path / "run", value_mix=2, **BOARD)
        with pytest.raises(ValueError, match="playout_share 3 is not a share"):
            ray_train.train("hex-torus", tmp_path / "run", playout_share=3, **BOARD)
        assert not (tmp_path / "run").exists()
        rounds = []
        progress = ray_train.train(
            "hex-torus",
            tmp_path / "run",
            games=4,
            simulations=8,
            rounds=2,
            report=rounds.append,
            channels=8,
            blocks=1,
            steps=4,
            batch=16,
            **BOARD,
        )
        assert progress["rounds"] == 2 and progress["games"] == 8
        # Two tasks a round, spread over the two nodes.
        assert [r["nodes"] for r in rounds] == [2, 2]
        # The folder is an ordinary run: it resumes on one machine without Ray.
        resumed = small_run(tmp_path)
        assert resumed.progress()["games"] == 8
        assert (tmp_path / "run" / "networks").is_dir()
    finally:
        ray.shutdown()
        cluster.shutdown()
