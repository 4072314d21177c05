"""Learns a small policy for 7×7 Go against the random player, with REINFORCE on
`toroid.VectorEnv`: a softmax over legal moves of one linear layer on the observation planes,
in plain numpy. It plays black (komi 0.5) in every environment at once; the opponent's moves
are `sample_actions()`. Prints the policy's win rate as it learns: in about half a minute
on one core of the project's VM it goes from about 0.6 to 0.9.

    python python/examples/train_policy.py
"""

import argparse
import time

import numpy as np

import toroid

BLACK = 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=2000, help="steps of every environment")
    parser.add_argument("--envs", type=int, default=256, help="games played at once")
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = toroid.VectorEnv("go", args.envs, seed=args.seed, size=7, komi=0.5)
    features = int(np.prod(env.observation_shape))
    weights = np.zeros((features, env.num_actions))
    rng = np.random.default_rng(args.seed)
    # Each environment's current game: the agent's (features, probabilities, action) per move.
    episodes = [[] for _ in range(args.envs)]
    results = []  # +1 a win, -1 a loss, 0 a draw, for the agent, in the order games end
    gradient, finished = np.zeros_like(weights), 0
    observations, masks = env.reset()
    start = time.time()
    for iteration in range(1, args.iterations + 1):
        agent_turn = env.to_move == BLACK
        actions = env.sample_actions().copy()
        x = observations.reshape(args.envs, features)
        logits = np.where(masks, x @ weights, -np.inf)
        probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        for i in np.flatnonzero(agent_turn):
            actions[i] = rng.choice(env.num_actions, p=probabilities[i])
            episodes[i].append((x[i].copy(), probabilities[i], actions[i]))
        observations, rewards, dones, masks = env.step(actions)
        for i in np.flatnonzero(dones):
            # The reward is the mover's: the agent's own when it moved, else the opponent's.
            result = rewards[i] if agent_turn[i] else -rewards[i]
            results.append(result)
            for state, probs, action in episodes[i]:
                step = -probs
                step[action] += 1.0
                gradient += result * np.outer(state, step)  # d log π(action) / d weights
            episodes[i] = []
            finished += 1
        if finished >= args.envs:  # update once a batch of games is in
            weights += args.learning_rate * gradient / finished
            gradient[:] = 0.0
            finished = 0
        if iteration % 50 == 0 or iteration == args.iterations:
            recent = np.array(results[-1000:])
            print(
                f"step {iteration:4d}  games {len(results):6d}  "
                f"win rate (last {len(recent)}) {np.mean(recent == 1):.2f}  "
                f"{time.time() - start:5.1f}s",
                flush=True,
            )


if __name__ == "__main__":
    main()
