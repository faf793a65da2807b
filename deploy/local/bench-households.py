"""Pools scenario H's rounds (bench.sh): Kiwi's CPU per scan for households of one and of four, and how long a
shopping-list change took to reach another member's stream through another gateway.

    bench-households.py BENCH_RUN ROUNDS

Reads BENCH_RUN/H-N-R.json (kiwi-loadtest --json; households of N, round R = 1…ROUNDS) and prints a Markdown table:
each size's CPU per scan (all rounds' CPU over all their scans finished in the windows), in all and by process kind,
and its growth over a household of one, against issue 57's goal of at most 10 %; then the list changes' delays, all
rounds' samples pooled, per size and in all.
"""
import json
import math
import sys

from bench_figures import COLUMNS, HEADER, cells, pooled_sizes

GOAL_GROWTH = 0.10


def percentile(samples, q):
    """Nearest rank, as kiwi-loadtest's LatencySummary."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(len(ordered) * q) - 1))] if ordered else 0.0


def list_changes(run, size, rounds):
    """All rounds' list changes of households of SIZE: how many, how many never showed, and every shown one's delay."""
    changes, lost, samples = 0, 0, []
    for n in range(1, rounds + 1):
        report = json.load(open(f"{run}/H-{size}-{n}.json"))["listChanges"]
        changes += report["changes"]
        lost += report["lost"]
        samples += report["samplesMs"]
    return changes, lost, samples


def delay_row(label, changes, lost, samples):
    p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
    return f"| {label} | {changes} | {lost} | {p50:.1f} | {p99:.1f} | {max(samples, default=0):.1f} |"


def main(run, rounds):
    figures = pooled_sizes(run, "H", rounds)
    sizes = list(figures)
    base = figures[sizes[0]]["kiwiCPUMsPerScan"]
    print(f"## H — Kiwi's CPU per scan for a household, and the shopping list's delay ({rounds} rounds per size, interleaved)\n")
    print(f"| household of | {HEADER} | growth over {sizes[0]} |")
    print("|---" * (2 + COLUMNS) + "|")
    for size in sizes:
        growth = figures[size]["kiwiCPUMsPerScan"] / base - 1
        print(f"| {size} | {cells(figures[size])} | {growth * 100:+.1f} % |")
    largest = figures[sizes[-1]]["kiwiCPUMsPerScan"] / base - 1
    verdict = "met" if largest <= GOAL_GROWTH else "missed"
    print(f"\nGoal: a scan for {sizes[-1]} members costs at most {GOAL_GROWTH * 100:.0f} % more CPU than one for {sizes[0]}: "
          f"{largest * 100:+.1f} %, {verdict}.")

    print("\nShopping-list changes (an add or a deletion through gateway 1), from sending each to the first event on the "
          "other member's stream (gateway 2) that shows it:\n")
    print("| during households of | changes | not shown within 10 s | p50 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    every = (0, 0, [])
    for size in sizes:
        changes, lost, samples = list_changes(run, size, rounds)
        print(delay_row(size, changes, lost, samples))
        every = (every[0] + changes, every[1] + lost, every[2] + samples)
        figures[size]["listChanges"] = {"changes": changes, "lost": lost, "p50Ms": percentile(samples, 0.5), "p99Ms": percentile(samples, 0.99)}
    print(delay_row("all", *every))
    json.dump(figures, open(f"{run}/H.json", "w"), indent=2, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
