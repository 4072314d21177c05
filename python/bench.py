"""Random self-play on 9×9 Go in steps (moves) per second: toroid.VectorEnv, toroid.Game in a
Python loop, OpenSpiel's Python loop, and pgx's go_9x9 batched with jax.vmap and jit on the
CPU at the same batch size (VectorEnv with float32 observations, and with uint8 ones); then
what one observation costs. Every contender plays uniformly random legal moves (pass
included), makes an observation and the legal moves of every position it moves from, and
starts a finished game again. Prints Markdown tables (docs/performance.md).

    python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install -r python/requirements-bench.txt ./python
    target/bench-venv/bin/python python/bench.py
"""

import argparse
import os
import random
import sys
import time

# Python puts this script's folder first on the path, and python/toroid there is the package's
# source without its compiled extension: import the installed package instead.
sys.path = [p for p in sys.path if os.path.abspath(p) != os.path.dirname(os.path.abspath(__file__))]

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pgx  # noqa: E402
import pgx.experimental  # noqa: E402
import pyspiel  # noqa: E402

import toroid  # noqa: E402


def timed(seconds, work, rounds=5):
    """Runs `work()` (which returns the steps it made) repeatedly for about `seconds`, in
    `rounds` rounds; returns the steps per second of the best round (the one least slowed
    by whatever else ran on the machine)."""
    work()  # warm up: compilation, caches
    best = 0.0
    for _ in range(rounds):
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / rounds:
            steps += work()
        best = max(best, steps / (time.perf_counter() - start))
    return best


def vector_env(batch, seconds, dtype=None):
    env = toroid.VectorEnv("go", batch, seed=0, size=9, dtype=dtype)
    env.reset()

    def work():
        for _ in range(10):
            env.step(env.sample_actions())
        return 10 * batch

    return timed(seconds, work)


def game_loop(seconds):
    rng = random.Random(0)
    game = toroid.Game("go", size=9)

    def work():
        nonlocal game
        for _ in range(1000):
            if game.is_over():
                game = toroid.Game("go", size=9)
            game.observation()
            game.play(rng.choice(game.legal_actions()))
        return 1000

    return timed(seconds, work)


def openspiel_loop(seconds, observe=True):
    rng = random.Random(0)
    game = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})
    state = game.new_initial_state()

    def work():
        nonlocal state
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            if observe:
                state.observation_tensor()
            state.apply_action(rng.choice(state.legal_actions()))
        return 1000

    return timed(seconds, work)


def pgx_vmap(batch, seconds):
    env = pgx.make("go_9x9")
    step = pgx.experimental.auto_reset(env.step, env.init)

    def act(state, key):
        choose, reset = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        return step(state, jax.random.categorical(choose, logits), reset)

    act = jax.jit(jax.vmap(act))
    key = jax.random.PRNGKey(0)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))

    def work():
        nonlocal state, key
        for _ in range(10):
            key, sub = jax.random.split(key)
            state = act(state, jax.random.split(sub, batch))
        state.observation.block_until_ready()
        return 10 * batch

    return timed(seconds, work)


def observation_cost(repeats=20000, rounds=5):
    """Microseconds per observation (the best of `rounds`): toroid.Game.observation() and
    OpenSpiel's observation_tensor(), each on a 9×9 position 40 random moves in."""
    rng = random.Random(1)
    game = toroid.Game("go", size=9)
    state = pyspiel.load_game("go", {"board_size": 9}).new_initial_state()
    for _ in range(40):
        action = rng.choice(game.legal_actions())
        game.play(action)
        state.apply_action(action)
    costs = {}
    for name, observe in [
        ("toroid.Game.observation()", game.observation),
        ("OpenSpiel observation_tensor()", state.observation_tensor),
    ]:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(repeats):
                observe()
            best = min(best, time.perf_counter() - start)
        costs[name] = best / repeats * 1e6
    return costs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per contender (5 rounds)")
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args()
    print(f"9×9 Go, uniformly random self-play, {os.cpu_count()} cores, batch {args.batch}\n")
    float_planes = f"toroid.VectorEnv ({args.batch} games)"
    byte_planes = f"toroid.VectorEnv ({args.batch} games), uint8 observations"
    rates = {
        float_planes: vector_env(args.batch, args.seconds),
        byte_planes: vector_env(args.batch, args.seconds, "uint8"),
        "toroid.Game, Python loop": game_loop(args.seconds),
        "OpenSpiel, Python loop": openspiel_loop(args.seconds),
        "OpenSpiel, Python loop without observations": openspiel_loop(args.seconds, False),
        f"pgx go_9x9, jax.vmap + jit on CPU ({args.batch} games)": pgx_vmap(
            args.batch, args.seconds
        ),
    }
    vector, vector_bytes = rates[float_planes], rates[byte_planes]
    print("| contender | steps/s | VectorEnv is | VectorEnv with uint8 observations is |")
    print("| --- | ---: | ---: | ---: |")
    for name, rate in rates.items():
        print(f"| {name} | {rate:,.0f} | {vector / rate:,.1f}× | {vector_bytes / rate:,.1f}× |")
    print("\n| one observation | µs |")
    print("| --- | ---: |")
    for name, cost in observation_cost().items():
        print(f"| {name} | {cost:.2f} |")
    print(f"| toroid.VectorEnv, a whole step per game | {1e6 / vector:.2f} |")


if __name__ == "__main__":
    main()
