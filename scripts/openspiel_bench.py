#!/usr/bin/env python3
"""Random Go playouts and MCTS in OpenSpiel, for comparison with `toroid bench go`.

Two measurements of uniform-random playouts on OpenSpiel's `go` (9×9, komi 7.5 unless told
otherwise), from the empty board to the end of the game:

* python-loop: `state.legal_actions()` + `random.choice` + `state.apply_action()` driven from
  Python; every move crosses the Python/C++ boundary twice.
* cpp-mcts-rollouts: OpenSpiel has no Python entry point that runs bare random playouts in
  C++, but its C++ `MCTSBot` with the C++ `RandomRolloutEvaluator(n_rollouts=1)` runs one
  uniform-random playout per simulation (`LegalActions()` + uniform index + `ApplyAction()`
  until terminal). Timing `bot.step()` over N simulations from the empty board measures
  those playouts plus the tree's small overhead (per simulation: a state clone, one node
  expansion, one or two tree moves, so playouts start a move or two in). It is the
  C++-speed figure, slightly pessimistic for OpenSpiel. The same figure is the speed of
  OpenSpiel's MCTS with random rollouts, which `--mcts` prints alone.

Prints `<name> <playouts/s> <moves per playout or nan>` lines.
"""

import argparse
import random
import time

import pyspiel


def python_loop(game, seconds, seed):
    rng = random.Random(seed)
    playouts = moves = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        playouts += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return playouts / elapsed, moves / playouts


def cpp_mcts_rollouts(game, seconds, seed):
    """Simulations per second of one `MCTSBot.step` from the empty board lasting about
    `seconds`: a short step measures the rate that sizes the timed one."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)

    def step(simulations):
        # uct_c, max_simulations, max_memory_mb, solve, seed, verbose
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 4000, False, seed, False)
        state = game.new_initial_state()
        start = time.perf_counter()
        bot.step(state)
        return time.perf_counter() - start

    probe = 500
    simulations = max(probe, int(probe / step(probe) * seconds))
    return simulations / step(simulations)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument(
        "--max-moves", type=int, default=243,
        help="OpenSpiel's max_game_length; toroid's go default is 3 × points (243 on 9×9)")
    parser.add_argument(
        "--mcts", action="store_true", help="measure only the MCTS bot (cpp-mcts-rollouts)")
    args = parser.parse_args()
    game = pyspiel.load_game("go", {
        "board_size": args.board_size,
        "komi": args.komi,
        "max_game_length": args.max_moves,
    })
    if not args.mcts:
        rate, length = python_loop(game, args.seconds, args.seed)
        print(f"python-loop {rate:.1f} {length:.1f}")
    print(f"cpp-mcts-rollouts {cpp_mcts_rollouts(game, args.seconds, args.seed):.1f} nan")


if __name__ == "__main__":
    main()
