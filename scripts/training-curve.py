"""Strength against training time, from the matches of `scripts/strength training`.

Usage: training-curve.py TOROID TRAIN_DIR OUTDIR GAME...

Each snapshot of a run played the one before it (the first played `greedy`), so the matches
chain into an Elo over `greedy` per snapshot; each snapshot also played fixed opponents
(`greedy` and `beginner`), whose results the levels' ladder ratings put on the same scale.
A match's score takes half a game of prior (one drawn game more), so that a match won or
lost in every game gives a finite estimate (a bound, drawn hollow); the steps' variances add
up along the chain. Prints a Markdown table per rule set and writes
OUTDIR/training.csv and OUTDIR/training.svg: one panel per rule set, the Elos over
`greedy` against the run's logged hours, with the house levels' ratings (`toroid games
--json`) drawn for scale.
"""

import csv
import glob
import json
import math
import re
import subprocess
import sys

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

ELO_PER_LOGIT = 400 / math.log(10)
# The fixed opponents `scripts/strength training` may play (its ANCHORS), weakest first; a
# rule set's table and panel show those it played.
ANCHORS = ("greedy", "beginner")


def step(summary):
    """A match's Elo for its first player and that estimate's variance."""
    games = summary["games"] + 1
    score = (summary["wins"] + 0.5 * summary["draws"] + 0.5) / games
    elo = ELO_PER_LOGIT * math.log(score / (1 - score))
    return elo, ELO_PER_LOGIT**2 / (games * score * (1 - score))


def result(summary):
    return f'{summary["wins"]}-{summary["losses"]}-{summary["draws"]}'


def load(path):
    try:
        return json.load(open(path))["summary"]
    except FileNotFoundError:
        return None


def curve(train_dir, out, game, ratings):
    """The points of one rule set: dicts of round, hours, the chained Elo over `greedy`, and
    for each fixed opponent (anchor) the direct result on the same scale."""
    hours = {
        int(row["round"]): float(row["seconds"]) / 3600
        for row in csv.DictReader(open(f"{train_dir}/{game}/log.csv"))
    }
    rounds = sorted(
        int(match[1])
        for path in glob.glob(f"{out}/training-{game}-round-*.json")
        if (match := re.search(r"round-(\d+)\.json$", path))
    )
    points, elo, variance = [], 0.0, 0.0
    for round_ in rounds:
        name = f"{out}/training-{game}-round-{round_}"
        chained = load(f"{name}.json")
        gain, gain_variance = step(chained)
        elo, variance = elo + gain, variance + gain_variance
        point = {"round": round_, "hours": hours[round_], "result": result(chained),
                 "step": gain, "elo": elo, "sd": math.sqrt(variance), "anchors": {}}
        for anchor in ANCHORS:
            # The first snapshot's link is its match against greedy.
            direct = load(f"{name}-{anchor}.json") or (chained if not points and anchor == "greedy" else None)
            if direct:
                over_anchor, anchor_variance = step(direct)
                point["anchors"][anchor] = {
                    "result": result(direct),
                    "elo": over_anchor + ratings[anchor] - ratings["greedy"],
                    "sd": math.sqrt(anchor_variance),
                    "bound": "above" if direct["losses"] == 0 else "below" if direct["wins"] == 0 else None,
                }
        points.append(point)
    return points


def interval(elo, sd, bound=None):
    """An Elo and its 95% interval, in words; a bound where every game was won or lost."""
    if bound == "above":
        return f"above {elo - 1.96 * sd:+.0f}"
    if bound == "below":
        return f"below {elo + 1.96 * sd:+.0f}"
    return f"{elo:+.0f} ({elo - 1.96 * sd:+.0f} to {elo + 1.96 * sd:+.0f})"


def main():
    toroid, train_dir, out, *games = sys.argv[1:]
    listing = json.loads(subprocess.check_output([toroid, "games", "--json"]))
    levels = {g["name"]: {l["name"]: l["rating"] for l in g["levels"]} for g in listing}
    curves = [(g, c) for g in games if (c := curve(train_dir, out, g, levels[g]))]
    columns = min(3, len(curves))
    rows = math.ceil(len(curves) / columns)
    figure, axes = plt.subplots(
        rows, columns, figsize=(4.2 * columns, 3.4 * rows), squeeze=False
    )
    rows_csv = []
    for (game, points), axis in zip(curves, axes.flat):
        played = [a for a in ANCHORS if any(a in p["anchors"] for p in points)]
        header = "| round | hours | against the one before | step | chained Elo over `greedy` (95%) |"
        header += "".join(f" against `{a}` | Elo over `greedy` by it (95%) |" for a in played)
        print(f"\n`{game}`\n\n{header}\n|" + " ---: | ---: | --- | ---: | --- |" + " --- | --- |" * len(played))
        for p in points:
            line = (f'| {p["round"]} | {p["hours"]:.2f} | {p["result"]} | {p["step"]:+.0f} '
                    f'| {interval(p["elo"], p["sd"])} |')
            row = {k: v for k, v in p.items() if k != "anchors"} | {"game": game}
            for anchor in played:
                a = p["anchors"].get(anchor)
                line += f' {a["result"]} | {interval(a["elo"], a["sd"], a["bound"])} |' if a else " | |"
            for anchor in ANCHORS:
                a = p["anchors"].get(anchor)
                for key in ("result", "elo", "sd", "bound"):
                    row[f"{anchor}_{key}"] = a[key] if a else ""
            print(line)
            rows_csv.append(row)
        x = [p["hours"] for p in points]
        y = [p["elo"] for p in points]
        spread = [1.96 * p["sd"] for p in points]
        axis.fill_between(
            x, [a - b for a, b in zip(y, spread)], [a + b for a, b in zip(y, spread)],
            alpha=0.2, color="tab:blue", linewidth=0,
        )
        axis.plot(x, y, "o-", color="tab:blue", label="chained: each against the one before")
        for anchor, colour in zip(ANCHORS, ("tab:orange", "tab:green")):
            for bound in (False, True):
                shown = [(p["hours"], p["anchors"][anchor]) for p in points
                         if anchor in p["anchors"] and bool(p["anchors"][anchor]["bound"]) == bound]
                if not shown:
                    continue
                axis.errorbar(
                    [h for h, _ in shown], [a["elo"] for _, a in shown],
                    yerr=[1.96 * a["sd"] for _, a in shown], fmt="s", color=colour,
                    markerfacecolor="white" if bound else colour, capsize=2,
                    label=f"against {anchor}" + (" (hollow: won or lost every game)" if bound else ""),
                )
        greedy = levels[game]["greedy"]
        for level in ("greedy", "beginner", "casual", "strong", "max"):
            rating = levels[game][level] - greedy
            axis.axhline(rating, color="grey", linestyle="--", linewidth=0.8)
            axis.annotate(
                level, (1, rating), xycoords=("axes fraction", "data"),
                xytext=(-2, 2), textcoords="offset points", ha="right", fontsize=8,
                color="grey",
            )
        axis.set_title(game)
        axis.set_xlabel("hours of self-play (logged)")
        axis.set_ylabel("Elo over greedy")
        axis.set_xlim(left=0)
    for axis in axes.flat[len(curves):]:
        axis.set_visible(False)
    legend = {}
    for axis in axes.flat:
        for handle, label in zip(*axis.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    figure.legend(legend.values(), legend.keys(), loc="lower center", ncol=3, frameon=False)
    figure.tight_layout(rect=(0, 0.07, 1, 1))
    figure.savefig(f"{out}/training.svg", metadata={"Date": None})
    with open(f"{out}/training.csv", "w", newline="") as file:
        writer = csv.DictWriter(file, list(rows_csv[0]) if rows_csv else [])
        writer.writeheader()
        writer.writerows(rows_csv)
    print(f"\nwrote {out}/training.svg and {out}/training.csv")


main()
