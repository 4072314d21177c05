"""Random games played through `toroid.Game` agree move by move with `toroid replay --json`:
legal moves, board, player to move, winner and reason."""

import random

import numpy as np
import pytest
from conftest import RULE_SETS, rule_set_id

import toroid

LETTER = {0: ".", 1: "b", 2: "w"}


def board_rows(game):
    return ["".join(LETTER[v] for v in row) for row in game.board()]


def random_game_moves(game, rng, max_moves=200):
    """Plays random legal moves (rarely passing, so that games get somewhere) and yields the
    game after each."""
    yield game
    for _ in range(max_moves):
        if game.is_over():
            return
        moves = game.legal_moves()
        placements = [m for m in moves if m not in ("pass", "end")]
        move = rng.choice(placements) if placements and rng.random() < 0.9 else rng.choice(moves)
        game.play(move)
        yield game


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
def test_random_games_agree_with_the_cli(cli, rule_set):
    name, params = rule_set
    for seed in range(2):
        game = toroid.Game(name, **params)
        for position in random_game_moves(game, random.Random(seed)):
            view = cli.replay(name, params, position.moves())
            assert position.legal_moves() == view["legal_moves"]
            assert board_rows(position) == view["board"]
            assert position.to_move() == view["to_move"]
            assert position.is_over() == view["over"]
            assert position.winner() == view["winner"]
            assert (position.reason() or "") == view["reason"]
            mask = position.legal_mask()
            assert sorted(np.flatnonzero(mask)) == sorted(
                position.move_to_action(m) for m in view["legal_moves"]
            )
        assert game.is_over(), f"{name} {params}: a random game should end"


@pytest.mark.parametrize("rule_set", RULE_SETS, ids=rule_set_id)
def test_topology_agrees_with_the_cli(cli, rule_set):
    name, params = rule_set
    topology = toroid.Game(name, **params).topology()
    view = cli.topology(name, params)
    assert topology["cells"].tolist() == view["cells"]
    edges = np.concatenate([topology["edges"], topology["seams"]], axis=1)
    assert edges.tolist() == view["edges"]
