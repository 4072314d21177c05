"""A complete small AlphaZero in PyTorch on toroid's search hook and VectorEnv: self-play by
`toroid.Search` guided by a PyTorch network, training on the visit shares and on values half
the game's result and half the search's, under the board's symmetries (`toroid.symmetries`),
with a learning rate that falls over the run; every few minutes a short match against the
`greedy` house bot keeps the best network so far, and at the end that network plays 100 new
games against `greedy`, in one `VectorEnv`.

    pip install torch './python'
    python python/examples/alphazero.py --minutes 25

On 6×6 hex-torus (the default) the network is a few residual convolutions with circular
padding: on a torus of even height the odd-r rows wrap consistently, and a 3×3 kernel covers
a hex cell's six neighbours (docs/python.md, "A small AlphaZero in PyTorch", has the figures).
"""

import argparse
import copy
import math
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import toroid


class Net(nn.Module):
    """Residual convolutions over the planes; a policy over every action and a value."""

    def __init__(self, planes, height, width, actions, channels=32, blocks=3):
        super().__init__()
        conv = lambda c_in: nn.Conv2d(c_in, channels, 3, padding=1, padding_mode="circular")
        self.stem = conv(planes)
        self.blocks = nn.ModuleList([nn.ModuleList([conv(channels), conv(channels)]) for _ in range(blocks)])
        self.cells = height * width
        self.policy_cells = nn.Conv2d(channels, 1, 1)
        self.policy_beyond = nn.Linear(channels, actions - self.cells)
        self.value = nn.Sequential(nn.Linear(channels, channels), nn.ReLU(), nn.Linear(channels, 1))

    def forward(self, x):
        x = F.relu(self.stem(x))
        for first, second in self.blocks:
            x = F.relu(x + second(F.relu(first(x))))
        pooled = x.mean(dim=(2, 3))
        logits = torch.cat([self.policy_cells(x).flatten(1), self.policy_beyond(pooled)], dim=1)
        return logits, torch.tanh(self.value(pooled)).squeeze(1)


def evaluator(net):
    """The search hook: observations and masks in, priors and values out."""

    @torch.no_grad()
    def evaluate(observations, masks):
        logits, values = net(torch.from_numpy(observations))
        logits = logits.masked_fill(~torch.from_numpy(masks), -1e9)
        return torch.softmax(logits, dim=1).numpy(), values.numpy()

    return evaluate


def self_play(net, game_args, playouts, rng):
    """One game: (observation, visit shares, mover, the search's value) per position, and the
    winner."""
    game = toroid.Game(*game_args[:1], **game_args[1])
    search = toroid.Search(evaluator(net), playouts=playouts, batch=8, noise=0.3, seed=int(rng.integers(1 << 62)))
    positions = []
    while not game.is_over():
        result = search.analyse(game)
        policy = result["policy"]
        positions.append((game.observation(), policy, game.to_move(), result["value"] or 0.0))
        # Variety in the opening: the first plies in proportion to the visits.
        if game.ply() < 6:
            action = int(rng.choice(len(policy), p=policy / policy.sum()))
        else:
            action = int(np.argmax(policy))
        game.play(action)
    return positions, game.winner()


def train_steps(net, optimiser, window, symmetries, steps, batch, rng):
    observations, policies, values = window
    for _ in range(steps):
        picked = rng.integers(len(values), size=batch)
        row = symmetries[rng.integers(len(symmetries))]
        obs, pol = toroid.transform(row, observations[picked], policies[picked])
        logits, value = net(torch.from_numpy(np.ascontiguousarray(obs)))
        target = torch.from_numpy(np.ascontiguousarray(pol))
        loss = -(target * F.log_softmax(logits, dim=1)).sum(1).mean() + F.mse_loss(
            value, torch.from_numpy(values[picked])
        )
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return float(loss.detach())


def match_against(net, level, games, game_args, playouts, seed):
    """`games` games against house bot `level` in one VectorEnv, colours alternating; the
    network's share of the wins."""
    env = toroid.VectorEnv(game_args[0], games, seed=seed, **game_args[1])
    env.reset(seed=seed)
    ours = np.array([0 if i % 2 == 0 else 1 for i in range(games)])  # 0 black, 1 white
    searches = [toroid.Search(evaluator(net), playouts=playouts, batch=8, seed=seed + i) for i in range(games)]
    results = np.full(games, -1)
    while (results < 0).any():
        actions = env.bot_actions(level, seed=int(seed))
        seed += 1
        for i in np.flatnonzero((results < 0) & (env.to_move == ours)):
            actions[i] = env.game(i).move_to_action(searches[i].genmove(env.game(i)))
        movers = env.to_move.copy()
        _, rewards, done, _ = env.step(actions)
        for i in np.flatnonzero(done & (results < 0)):
            results[i] = 1 if (rewards[i] > 0) == (movers[i] == ours[i]) else 0
    return results.mean()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hex-torus")
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--minutes", type=float, default=25.0, help="self-play, training and probes")
    parser.add_argument("--playouts", type=int, default=96, help="simulations a self-play move")
    parser.add_argument("--games-per-round", type=int, default=12)
    parser.add_argument("--steps-per-round", type=int, default=30)
    parser.add_argument("--window", type=int, default=20_000)
    parser.add_argument("--learning-rate", type=float, default=2e-3, help="at the start; a tenth of it at the end")
    parser.add_argument("--probe-minutes", type=float, default=3.0, help="time between probes against greedy")
    parser.add_argument("--probe-games", type=int, default=40)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--eval-playouts", type=int, default=200)
    parser.add_argument("--value-mix", type=float, default=0.5,
                        help="share of the search's root value in the value target, the rest the game's result")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # One thread: the search calls the network a few positions at a time, where more threads
    # cost more in waking each other than they save (32 ms a call instead of 1.3 on a busy
    # 2-core machine).
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    params = {"width": args.size, "height": args.size} if args.game in ("hex-torus", "m-torus") else {"size": args.size}
    game_args = (args.game, params)
    probe = toroid.Game(args.game, **params)
    net = Net(toroid.PLANES, probe.height, probe.width, probe.num_actions)
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.learning_rate, weight_decay=1e-4)
    symmetries = toroid.symmetries(args.game, **params)
    observations, policies, values = [], [], []
    start, games, rounds, probes = time.monotonic(), 0, 0, 0
    budget = 60 * args.minutes
    # A small loop's network swings from round to round; the probes keep the best one seen
    # (on games apart from the final match's, whose seeds differ).
    best_share, best_weights = -1.0, None

    def probe_against_greedy():
        nonlocal best_share, best_weights, probes
        net.eval()
        probes += 1
        share = match_against(net, "greedy", args.probe_games, game_args, args.eval_playouts, args.seed + 1000 * probes)
        if share >= best_share:
            best_share, best_weights = share, copy.deepcopy(net.state_dict())
        print(f"probe {probes:2d}  against greedy {round(share * args.probe_games)} of {args.probe_games}  "
              f"best {round(best_share * args.probe_games)}  "
              f"{time.monotonic() - start:6.0f} s", flush=True)

    while time.monotonic() - start < budget:
        net.eval()
        for _ in range(args.games_per_round):
            positions, winner = self_play(net, game_args, args.playouts, rng)
            for obs, policy, mover, searched in positions:
                observations.append(obs)
                policies.append(policy)
                result = 0.0 if winner is None else (1.0 if winner == mover else -1.0)
                # The game's result alone is a noisy target for a position early in a game
                # of a weak network; the search's root value is less noisy but biased.
                values.append((1 - args.value_mix) * result + args.value_mix * searched)
            games += 1
        observations, policies, values = (x[-args.window :] for x in (observations, policies, values))
        net.train()
        # Cosine decay to a tenth over the time budget: late rounds refine instead of swinging.
        done = min(1.0, (time.monotonic() - start) / budget)
        for group in optimiser.param_groups:
            group["lr"] = args.learning_rate * (0.1 + 0.45 * (1 + math.cos(math.pi * done)))
        window = (np.stack(observations), np.stack(policies).astype(np.float32), np.array(values, np.float32))
        loss = train_steps(net, optimiser, window, symmetries, args.steps_per_round, 128, rng)
        rounds += 1
        print(f"round {rounds:3d}  games {games:5d}  positions {len(values):6d}  loss {loss:.3f}  "
              f"{time.monotonic() - start:6.0f} s", flush=True)
        if time.monotonic() - start >= 60 * args.probe_minutes * (probes + 1):
            probe_against_greedy()
    probe_against_greedy()
    net.load_state_dict(best_weights)
    net.eval()
    share = match_against(net, "greedy", args.eval_games, game_args, args.eval_playouts, args.seed)
    print(f"against greedy: {round(share * args.eval_games)} of {args.eval_games} games, with the network "
          f"that won {round(best_share * args.probe_games)} of {args.probe_games} in a probe "
          f"({games} self-play games, {time.monotonic() - start:.0f} s in all)")


if __name__ == "__main__":
    main()
