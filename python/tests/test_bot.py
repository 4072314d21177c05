"""`toroid.Bot`: house bots choose legal moves and report their analysis."""

import threading
import time

import pytest

import toroid


@pytest.mark.parametrize("level", ["random", "greedy", "beginner"])
def test_bots_choose_legal_moves(level):
    game = toroid.Game("hex-torus", width=6, height=6)
    bot = toroid.Bot(level, seed=1, **({"playouts": 50} if level == "beginner" else {}))
    for _ in range(6):
        move = bot.genmove(game)
        assert move in game.legal_moves()
        game.play(move)


def test_a_playout_budget_is_deterministic_under_the_seed():
    game = toroid.Game("go", size=7)
    moves = {toroid.Bot("casual", seed=5, playouts=300).genmove(game) for _ in range(2)}
    assert len(moves) == 1


def test_analysis_reports_moves_visits_and_the_visit_map():
    game = toroid.Game("torus", size=6)
    analysis = toroid.Bot("beginner", seed=2, playouts=400).analyse(game)
    # The whole budget, as training targets need (a move choice may stop once more
    # simulations could not change the move).
    assert analysis["simulations"] == 400 and analysis["seconds"] >= 0
    best = analysis["moves"][0]
    assert best["move"] in game.legal_moves()
    assert best["action"] == game.move_to_action(best["move"])
    assert best["pv"][0] == best["move"] and 0 <= best["win_rate"] <= 1
    assert best["proof"] in (None, "win", "loss")
    visit_map = analysis["visit_map"]
    assert visit_map.shape == (6, 6)
    x, y = best["action"] % 6, best["action"] // 6
    assert visit_map[y, x] == best["visits"]


def test_a_seconds_budget_is_searched_and_kept():
    deadline = 0.3
    # On a quiet 2-core machine the search ends within a few ms of its deadline; the margin is
    # room for scheduling, and a search that overruns by most of its budget still fails.
    margin = 0.2
    # The empty Go board on a torus: every move is alike, so no move pulls ahead and the
    # search hardly ever stops early (which would hide an overrun of its budget).
    game = toroid.Game("go", size=9, topology="torus")
    bot = toroid.Bot("strong", seconds=deadline)
    start = time.perf_counter()
    bot.genmove(game)
    elapsed = time.perf_counter() - start
    # Even stopping early needs the best move to lead by more simulations than the time left
    # allows at the rate so far, which takes over half the budget: it cannot return at once.
    assert deadline / 2 <= elapsed <= deadline + margin


@pytest.mark.parametrize(
    "args, message",
    [
        ({"level": "godlike"}, "unknown level"),
        ({"level": "casual", "seconds": 1, "playouts": 10}, "not both"),
        ({"level": "casual", "seconds": -1}, "positive"),
        ({"level": "casual", "playouts": 0}, "at least 1"),
        ({"level": "random", "playouts": 10}, "does not search"),
        ({"level": "zero", "threads": 2}, "one thread"),
    ],
)
def test_bad_bots_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        toroid.Bot(**args)


def test_zero_plays_and_analyses_with_its_network():
    # Every rule set has a house network (crates/search/data/networks); it plays a board of
    # any size of its lattice.
    game = toroid.Game("hex-torus", width=6, height=6)
    bot = toroid.Bot("zero", seed=1, playouts=64)
    analysis = bot.analyse(game)
    assert analysis["simulations"] == 64
    assert analysis["moves"][0]["move"] in game.legal_moves()
    move = bot.genmove(game)
    assert move in game.legal_moves()
    go = toroid.Game("go", size=5)
    assert bot.genmove(go) in go.legal_moves()
    for name, params in [("hex-torus", {"width": 4, "height": 4}), ("go", {"size": 5})]:
        actions = toroid.VectorEnv(name, 2, **params).bot_actions("zero", playouts=16)
        assert len(actions) == 2


def test_a_finished_game_has_no_move_and_plain_levels_no_analysis():
    game = toroid.Game("go", size=5)
    game.play("pass")
    with pytest.raises(ValueError, match="does not search"):
        toroid.Bot("greedy").analyse(game)
    game.play("pass")
    with pytest.raises(ValueError, match="the game is over"):
        toroid.Bot("random").genmove(game)


def test_a_search_lets_other_python_threads_run():
    # The empty torus, where the search runs its whole budget (see the test above).
    game = toroid.Game("go", size=9, topology="torus")
    search = threading.Thread(target=toroid.Bot("strong", seconds=0.6).genmove, args=(game,))
    started = time.perf_counter()
    search.start()
    longest_pause, last = 0.0, started
    while search.is_alive():
        now = time.perf_counter()
        longest_pause, last = max(longest_pause, now - last), now
    search.join()
    # The loop ran beside a real search, not one that returned at once...
    assert last - started >= 0.3
    # ...and holding the GIL through the search would have stopped it for the whole 0.6 s.
    assert longest_pause < 0.3
