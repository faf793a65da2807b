"""Pools scenario G's rounds (bench.sh): Kiwi's CPU per scan at one load through 1, 2 and 4 gateways.

    bench-gateways.py BENCH_RUN ROUNDS

Reads BENCH_RUN/G-N-R.json (kiwi-loadtest --json; N gateways and as many scan workers, round R = 1…ROUNDS) and prints
a Markdown table: each size's CPU per scan (all rounds' CPU over all their scans finished in the windows) in all and by
process kind, and its growth over one gateway, against issue 56's goal of at most 15 % from 1 to 4.
"""
import json
import sys

from bench_figures import COLUMNS, HEADER, cells, pooled_sizes

GOAL_GROWTH = 0.15


def main(run, rounds):
    figures = pooled_sizes(run, "G", rounds)
    sizes = list(figures)
    base = figures[sizes[0]]["kiwiCPUMsPerScan"]
    print(f"## G — Kiwi's CPU per scan as gateways are added ({rounds} rounds per size, interleaved)\n")
    print(f"| gateways (and workers) | {HEADER} | scan events published per scan | growth over 1 |")
    print("|---" * (3 + COLUMNS) + "|")
    for size in sizes:
        f = figures[size]
        messages = "–" if f["eventMessagesPerScan"] is None else f"{f['eventMessagesPerScan']:.2f}"
        growth = f["kiwiCPUMsPerScan"] / base - 1
        print(f"| {size} | {cells(f)} | {messages} | {growth * 100:+.1f} % |")
    largest = figures[sizes[-1]]["kiwiCPUMsPerScan"] / base - 1
    verdict = "met" if largest <= GOAL_GROWTH else "missed"
    print(f"\nGoal: at most {GOAL_GROWTH * 100:.0f} % more CPU per scan with {sizes[-1]} gateways than with {sizes[0]}: "
          f"{largest * 100:+.1f} %, {verdict}.")
    json.dump(figures, open(f"{run}/G.json", "w"), indent=2, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
