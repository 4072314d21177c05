"""`toroid.Game`: actions, observations, records, copies, and clear errors."""

import copy
import pickle

import numpy as np
import pytest

import toroid


def test_games_lists_every_rule_set_with_its_parameters():
    games = {g["name"]: g for g in toroid.games()}
    assert list(games) == ["torus", "hex-torus", "m-torus", "ctor", "capture-go", "go"]
    size = next(p for p in games["go"]["params"] if p["name"] == "size")
    assert (size["kind"], size["default"], size["min"], size["max"]) == ("int", 9, 2, 25)


def test_actions_number_cells_then_pass_then_end():
    game = toroid.Game("ctor", size=6)
    assert game.num_actions == 6 * 6 + 3
    assert game.move_to_action("aa") == 0
    assert game.move_to_action("ba") == 1
    assert game.move_to_action("ab") == 6
    assert game.move_to_action("pass") == 36
    assert game.move_to_action("end") == 37
    for action in range(game.num_actions):
        assert game.move_to_action(game.action_to_move(action)) == action
    game.play(7)
    game.play("cc")
    assert game.moves() == ["bb", "cc"]
    # CTOR: after the first placement of a turn (black's first turn has one) the mover may
    # end it.
    assert game.to_move() == "white"
    assert "end" in game.legal_moves() and game.legal_mask()[37]
    assert (game.observation()[5] == 1).all(), "the planes show a turn half played"
    game.play("end")
    assert game.to_move() == "black"
    assert (game.observation()[5] == 0).all()


def test_observation_planes():
    game = toroid.Game("go", size=5)
    game.play("cc")
    game.play("aa")
    game.play("bb")
    obs = game.observation()
    assert obs.shape == (toroid.PLANES, 5, 5) and obs.dtype == np.float32
    mine, theirs, empty, black, legal, mid_turn = obs
    assert game.to_move() == "white"
    assert mine[0, 0] == 1 and mine.sum() == 1
    assert theirs[2, 2] == 1 and theirs[1, 1] == 1 and theirs.sum() == 2
    assert (empty == (game.board() == 0)).all()
    assert black.sum() == 0
    placements = game.legal_mask()[: 5 * 5].reshape(5, 5)
    assert (legal == placements).all()
    assert mid_turn.sum() == 0
    as_black = game.observation("black")
    assert (as_black[0] == theirs).all() and (as_black[1] == mine).all()
    assert (as_black[3] == 1).all()


def test_last_move_planes_and_the_extra_planes():
    game = toroid.Game("go", size=5)
    for move in ["cc", "aa", "bb", "pass"]:
        game.play(move)
    obs = game.observation(last_moves=3, extras=True)
    assert obs.shape == (toroid.PLANES + 3 + 5, 5, 5) and obs.dtype == np.float32
    np.testing.assert_array_equal(obs[: toroid.PLANES], game.observation())
    last, before, third = obs[toroid.PLANES : toroid.PLANES + 3]
    assert last.sum() == 0  # a pass takes no cell
    assert before[1, 1] == 1 and before.sum() == 1
    assert third[0, 0] == 1 and third.sum() == 1
    mine, theirs, komi, moves_left, to_move = obs[toroid.PLANES + 3 :]
    assert game.to_move() == "black"
    assert (mine == 0).all() and (theirs == 0).all()
    np.testing.assert_allclose(komi, -7.5 / 25)  # komi is white's
    np.testing.assert_allclose(moves_left, 1 - 4 / 75)  # max_moves is 3 × 25
    assert (to_move == 1).all()
    as_white = game.observation("white", extras=True)[toroid.PLANES :]
    np.testing.assert_allclose(as_white[2], 7.5 / 25)
    assert (as_white[4] == 0).all()
    # Before the game has that many moves, the planes are empty.
    assert toroid.Game("go", size=5).observation(last_moves=2).sum(axis=(1, 2))[-2:].tolist() == [0, 0]
    with pytest.raises(ValueError, match="float32"):
        game.observation(dtype="uint8", extras=True)
    assert game.observation(dtype="uint8", last_moves=2).shape == (toroid.PLANES + 2, 5, 5)


def test_captures_tell_apart_boards_that_are_alike():
    # The case: capture-go with captures (1, 0) and (0, 0) on equal boards.
    captured = toroid.Game("capture-go", size=5, target=2)
    for move in ["ba", "aa", "ab"]:
        captured.play(move)
    quiet = toroid.Game("capture-go", size=5, target=2)
    for move in ["ba", "pass", "ab"]:
        quiet.play(move)
    np.testing.assert_array_equal(captured.observation(), quiet.observation())
    white_sees = captured.observation(extras=True)[toroid.PLANES :]
    assert captured.to_move() == "white"
    assert (white_sees[0] == 0).all()
    np.testing.assert_allclose(white_sees[1], 0.5)  # one capture of a target of two
    assert (quiet.observation(extras=True)[toroid.PLANES + 1] == 0).all()


def test_hex_boards_are_in_odd_r_layout():
    game = toroid.Game("hex-torus", width=4, height=4)
    game.play("cb")  # x=2, y=1: an odd row, drawn half a cell to the right
    assert game.board()[1, 2] == 1
    topology = game.topology()
    assert topology["lattice"] == "hex-odd-r"
    cell = 1 * 4 + 2
    neighbours = sorted(
        tuple(topology["cells"][to]) for frm, to in topology["edges"] if frm == cell
    )
    assert neighbours == [(1, 1), (2, 0), (2, 2), (3, 0), (3, 1), (3, 2)]


def test_topology_labels_seam_crossings():
    topology = toroid.Game("go", size=5, topology="torus").topology()
    assert (topology["left_right"], topology["top_bottom"]) == ("straight", "straight")
    crossings = {
        (int(f), int(t)): tuple(s) for (f, t), s in zip(topology["edges"], topology["seams"])
    }
    assert crossings[(4, 0)] == (1, 0)  # from column 4 right to column 0
    assert crossings[(0, 20)] == (0, -1)  # from row 0 up to row 4
    assert crossings[(6, 7)] == (0, 0)


def test_sgf_round_trip_keeps_moves_and_result():
    game = toroid.Game("go", size=5, komi=0.5)
    for move in ["cc", "pass", "pass"]:
        game.play(move)
    assert game.is_over() and game.reason() == "two-passes"
    sgf = game.to_sgf()
    assert "RE[B+" in sgf
    again = toroid.Game.from_sgf(sgf)
    assert again.moves() == game.moves()
    assert again.winner() == game.winner() == "black"
    assert (again.board() == game.board()).all()


def test_sgf_setup_stones_are_played_out():
    game = toroid.Game.from_sgf("(;GM[1]FF[4]SZ[5]AB[aa][bb]AW[cc];W[dd])")
    assert game.board()[0, 0] == 1 and game.board()[2, 2] == 2 and game.board()[3, 3] == 2
    assert game.to_move() == "black"
    assert "AB[aa][bb]" in game.to_sgf()


def test_clone_is_independent():
    game = toroid.Game("torus", size=5)
    game.play("cc")
    for other in (game.clone(), copy.copy(game), copy.deepcopy(game)):
        other.play("dd")
        assert game.moves() == ["cc"] and other.moves() == ["cc", "dd"]


def test_games_pickle_as_their_record():
    game = toroid.Game("ctor", size=5)
    for move in ["aa", "bb", "end", "cc"]:
        game.play(move)
    again = pickle.loads(pickle.dumps(game))
    assert again.moves() == game.moves() and again.to_move() == game.to_move()
    assert (again.observation() == game.observation()).all()


def test_params_resolve_defaults():
    game = toroid.Game("go", size=7, komi=6)
    assert game.params() == {
        "size": 7,
        "topology": "plane",
        "komi": 6.0,
        "scoring": "area",
        "ko": "simple",
        "max_moves": 147,
        "scoring_phase": "none",
    }
    assert (game.width, game.height, game.name) == (7, 7, "go")


# Errors: each a Python exception that says what is wrong, and the game unchanged.


def test_an_illegal_move_raises_illegal_move_with_the_reason():
    game = toroid.Game("go", size=5)
    game.play("cc")
    with pytest.raises(toroid.IllegalMove, match="cc: the cell is occupied"):
        game.play("cc")
    with pytest.raises(toroid.IllegalMove, match="end"):
        game.play("end")
    assert isinstance(toroid.IllegalMove("x"), ValueError)
    assert game.moves() == ["cc"] and game.to_move() == "white"


def test_a_move_after_the_end_is_illegal():
    game = toroid.Game("go", size=5)
    game.play("pass")
    game.play("pass")
    with pytest.raises(toroid.IllegalMove, match="the game is over"):
        game.play("aa")


@pytest.mark.parametrize("action", [-1, 5 * 5 + 3, 10**30])
def test_a_bad_action_index_raises_value_error(action):
    game = toroid.Game("go", size=5)
    with pytest.raises((ValueError, OverflowError), match="action|int"):
        game.play(action)
    with pytest.raises((ValueError, OverflowError)):
        game.action_to_move(action)
    assert game.ply() == 0


@pytest.mark.parametrize("move", ["zz", "e", "", "e5"])
def test_a_malformed_move_raises_value_error(move):
    game = toroid.Game("go", size=5)
    with pytest.raises(ValueError, match="not a move on this board"):
        game.play(move)


def test_numpy_integers_are_actions():
    game = toroid.Game("go", size=5)
    game.play(np.int64(12))
    game.play(np.argmax(game.legal_mask()))
    assert game.moves() == ["cc", "aa"]


def test_undo_takes_the_last_move_back():
    game = toroid.Game("capture-go", size=5, target=1)
    for move in ["cc", "ba", "aa", "ab"]:
        game.play(move)
    assert game.winner() == "white"
    assert game.undo() == "ab"
    assert (game.is_over(), game.to_move(), game.moves()) == (False, "white", ["cc", "ba", "aa"])
    fresh = toroid.Game("capture-go", size=5, target=1)
    for move in ["cc", "ba", "aa"]:
        fresh.play(move)
    assert (game.observation() == fresh.observation()).all()
    assert "W[ab]" not in game.to_sgf() and "RE[" not in game.to_sgf()
    for _ in range(3):
        game.undo()
    with pytest.raises(ValueError, match="no move to take back"):
        game.undo()
    # Setup stones read from a record stay.
    setup = toroid.Game.from_sgf("(;GM[1]FF[4]SZ[5]AB[cc];W[dd])")
    assert setup.undo() == "dd"
    assert setup.board()[2, 2] == 1


def test_a_move_of_another_type_raises_type_error():
    with pytest.raises(TypeError):
        toroid.Game("go", size=5).play(1.5)
    with pytest.raises(TypeError):
        toroid.Game("go", size=5).play(True)


@pytest.mark.parametrize(
    "name, params, error, message",
    [
        ("chess", {}, ValueError, "unknown game 'chess'"),
        ("go", {"colour": "red"}, ValueError, "unknown parameter 'colour'"),
        ("go", {"size": 1}, ValueError, "expected an integer from 2 to 25"),
        ("go", {"size": 9.5}, ValueError, "bad value '9.5' for parameter 'size'"),
        ("go", {"ko": "none"}, ValueError, "expected one of simple"),
        ("go", {"komi": float("nan")}, ValueError, "komi"),
        ("go", {"size": True}, ValueError, "bad value 'true' for parameter 'size'"),
        ("go", {"size": [9]}, TypeError, "not list"),
        ("hex-torus", {"height": 5}, ValueError, "height must be even"),
    ],
)
def test_a_bad_parameter_raises_a_clear_error(name, params, error, message):
    with pytest.raises(error, match=message):
        toroid.Game(name, **params)


@pytest.mark.parametrize(
    "sgf, message",
    [
        ("(;GM[1]SZ[9];B[ee]", "SGF"),
        ("not sgf at all", "SGF"),
        ("", "no game|SGF"),
        ("(;GM[1]SZ[9];B[ee];B[dd])", "move 2"),
        ("(;GM[1]SZ[9];B[ee];W[ee])", "occupied"),
        ("(;GM[100]TG[chess])", "unknown game"),
        ("(;GM[1]SZ[99])", "SZ|size"),
    ],
)
def test_a_malformed_sgf_raises_value_error(sgf, message):
    with pytest.raises(ValueError, match=message):
        toroid.Game.from_sgf(sgf)


@pytest.mark.parametrize("name, params", [("hex-torus", {}), ("m-torus", {"height": 9})])
def test_the_pie_rule_is_one_action_legal_exactly_at_move_2(name, params):
    game = toroid.Game(name, swap=True, **params)
    swap = game.move_to_action("swap")
    assert swap == game.width * game.height + 2
    assert "swap" not in game.legal_moves() and not game.legal_mask()[swap]
    game.play("cc")
    assert "swap" in game.legal_moves() and game.legal_mask()[swap]
    game.play(swap)
    assert game.to_move() == "black" and game.board()[2, 2] == 2
    with pytest.raises(toroid.IllegalMove, match="swap"):
        game.play("swap")
    assert toroid.Game(name, **params).params()["swap"] == "false"


@pytest.mark.parametrize(
    "name, params, count",
    [
        ("go", {"size": 5}, 8),
        ("go", {"size": 5, "topology": "torus"}, 8 * 25),
        ("hex-torus", {"width": 4, "height": 4}, 8),
        ("ctor", {"size": 4}, 8 * 16),
    ],
)
def test_symmetries_map_observations_masks_and_moves_alike(name, params, count):
    game = toroid.Game(name, **params)
    rng = np.random.default_rng(3)
    for _ in range(6):
        game.play(int(rng.choice(game.legal_actions())))
    rows = game.symmetries()
    assert rows.shape == (count, game.num_actions)
    assert (rows[0] == np.arange(game.num_actions)).all()
    cells = game.width * game.height
    for row in rows[:: max(1, count // 12)]:
        image = toroid.Game(name, **params)
        for move in toroid.Game.from_sgf(game.to_sgf()).moves():
            image.play(int(row[game.move_to_action(move)]))
        planes = game.observation()
        mapped = np.empty_like(planes)
        mapped.reshape(planes.shape[0], -1)[:, row[:cells]] = planes.reshape(planes.shape[0], -1)
        assert (mapped == image.observation()).all()
        mask = np.empty_like(game.legal_mask())
        mask[row] = game.legal_mask()
        assert (mask == image.legal_mask()).all()
        # The helper does the same, for a batch and a policy at once.
        batch, policy = toroid.transform(row, planes[None], game.legal_mask()[None])
        assert (batch[0] == image.observation()).all() and (policy[0] == image.legal_mask()).all()
    assert (toroid.symmetries(name, **params) == rows).all()
