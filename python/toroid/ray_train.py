"""Training by self-play on a Ray cluster: the cluster's workers play the games, this
process learns from them.

The run is the one `toroid train GAME` keeps (`toroid.TrainingRun`: the same folder, the same
files, resumable by either); only where its games are played differs. Each round the current
weights go into Ray's object store once, `tasks` Ray tasks each play their share of the
round's games with `toroid.self_play` (Rust, every core of the task's CPUs, no GIL), and the
games come back to `TrainingRun.learn`. Every node needs the `toroid` package and Ray;
nothing else is shared, not even a file system.

From a shell, on a machine of the cluster (`ray start --head` started it)::

    python -m toroid.ray_train hex-torus --address auto --minutes 60

On one machine without a cluster, `toroid train GAME` does the same without Ray.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, Callable

from ._toroid import TrainingRun, self_play

__all__ = ["train"]

# Options of TrainingRun that `train` passes on.
_RUN_OPTIONS = (
    "channels",
    "blocks",
    "window",
    "steps",
    "batch",
    "learning_rate",
    "snapshot_every",
    "seed",
    "start_from",
)


def _play(name, params, weights, games, simulations, value_mix, playout_share, seed, workers):
    """A Ray task: `games` self-play games, and the node they were played on."""
    import ray

    played = self_play(
        name,
        weights,
        games=games,
        simulations=simulations,
        value_mix=value_mix,
        playout_share=playout_share,
        seed=seed,
        workers=workers,
        **params,
    )
    return played, ray.get_runtime_context().get_node_id()


def train(
    game: str,
    dir: str | Path | None = None,
    *,
    address: str | None = None,
    tasks: int | None = None,
    cpus_per_task: int = 1,
    games: int = 16,
    simulations: int = 100,
    value_mix: float = 0.5,
    playout_share: float = 0.5,
    rounds: int | None = None,
    minutes: float | None = None,
    report: Callable[[dict[str, Any]], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Trains (or resumes) the run in `dir` (`target/train/GAME` by default) with self-play
    on Ray until it has `rounds` rounds in all or `minutes` have passed; returns its progress.

    `address` is the cluster's (`"auto"` for the one this machine belongs to; a Ray already
    initialised in this process is used as it is; None starts a local one). `tasks` splits each
    round's `games` (default: one task per `cpus_per_task` CPUs of the cluster); their CPUs are
    reserved for the whole run, spread over the nodes. `report` gets each round's figures, `nodes` (how many nodes played) among them.
    Other keywords are `TrainingRun`'s options and the rule set's parameters.
    """
    import ray
    from ray.util.placement_group import placement_group, remove_placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    if games < 1 or simulations < 1 or cpus_per_task < 1:
        raise ValueError("games, simulations and cpus_per_task must be at least 1")
    # Checked here too, so that a bad share fails before Ray starts, not in every task.
    for option, share in (("value_mix", value_mix), ("playout_share", playout_share)):
        if not 0 <= share <= 1:
            raise ValueError(f"{option} {share} is not a share from 0 to 1")
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if tasks is None:
        tasks = max(1, cpus // cpus_per_task)
    tasks = max(1, min(tasks, games))
    if tasks * cpus_per_task > cpus:
        raise ValueError(
            f"{tasks} tasks of {cpus_per_task} CPUs need {tasks * cpus_per_task} CPUs; "
            f"the cluster has {cpus}"
        )
    run_options = {k: options.pop(k) for k in _RUN_OPTIONS if k in options}
    run = TrainingRun(game, dir or Path("target/train") / game, **run_options, **options)
    name, params = run.game
    # One bundle of CPUs per task, reserved on as many nodes as hold them: every round's tasks
    # run at once, one per bundle (plain tasks this short would queue on the first worker).
    group = placement_group([{"CPU": cpus_per_task}] * tasks, strategy="SPREAD")
    try:
        try:
            ray.get(group.ready(), timeout=120)
        except ray.exceptions.GetTimeoutError:
            raise RuntimeError(
                f"the cluster found no room for {tasks} tasks of {cpus_per_task} CPUs in 120 s: "
                "each task's CPUs must be free on one node"
            ) from None
        play = ray.remote(num_cpus=cpus_per_task)(_play)
        session = time.monotonic()
        while (rounds is None or run.progress()["rounds"] < rounds) and (
            minutes is None or time.monotonic() - session < 60 * minutes
        ):
            start = time.monotonic()
            round_seed = run.round_seed()
            weights = ray.put(run.network())
            shares = [games // tasks + (t < games % tasks) for t in range(tasks)]
            results = ray.get(
                [
                    play.options(
                        scheduling_strategy=PlacementGroupSchedulingStrategy(
                            group, placement_group_bundle_index=t
                        )
                    ).remote(
                        # Task seeds differ in bits that self_play's own threads leave alone.
                        name,
                        params,
                        weights,
                        n,
                        simulations,
                        value_mix,
                        playout_share,
                        round_seed ^ (t << 8),
                        cpus_per_task,
                    )
                    for t, n in enumerate(shares)
                ]
            )
            played = [g for games_of_task, _ in results for g in games_of_task]
            figures = run.learn(played, time.monotonic() - start)
            figures["nodes"] = len({node for _, node in results})
            if report is not None:
                report(figures)
    finally:
        remove_placement_group(group)
    return run.progress()


def _main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m toroid.ray_train",
        description="Train a rule set's network by self-play on a Ray cluster "
        "(the run folder is toroid train's).",
    )
    parser.add_argument("game")
    parser.add_argument("--address", default="auto", help="the Ray cluster (default: auto)")
    parser.add_argument("--dir", type=Path, help="the run's folder (default target/train/GAME)")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE")
    # Options not given take `train`'s defaults, and the run's own TrainingRun's (and
    # `toroid train`'s), so that no default is written twice.
    options = {option: int for option in ("tasks", "cpus_per_task", "games", "simulations")}
    options.update(value_mix=float, playout_share=float)
    for option in _RUN_OPTIONS:
        kind = float if option == "learning_rate" else Path if option == "start_from" else int
        options[option] = kind
    for option, kind in options.items():
        parser.add_argument("--" + option.replace("_", "-"), type=kind, default=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--minutes", type=float)
    args = parser.parse_args()
    params = {}
    for text in args.param:
        key, _, value = text.partition("=")
        params[key] = value

    def report(f):
        print(
            f"round {f['rounds']:>4}  games {f['games']:>6}  positions {f['samples']:>8}  "
            f"{f['seconds']:>7.0f} s  policy loss {f['policy_loss']:.3f}  "
            f"value loss {f['value_loss']:.3f}  nodes {f['nodes']}",
            flush=True,
        )

    train(
        args.game,
        args.dir,
        address=args.address,
        rounds=args.rounds,
        minutes=args.minutes,
        report=report,
        **{option: getattr(args, option) for option in options if hasattr(args, option)},
        **params,
    )


if __name__ == "__main__":
    _main()
