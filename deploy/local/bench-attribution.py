"""Pools scenario W's rounds (bench.sh): where a scan's CPU goes, feature by feature (issue 56).

    bench-attribution.py BENCH_RUN ROUNDS LEG…

Reads BENCH_RUN/W-LEG-R.json (kiwi-loadtest --json; R = 1…ROUNDS) for each LEG: `all`, every feature on, and one leg
per feature left out. Prints a Markdown table: each leg's CPU per scan in all and by process kind, pooled over its
rounds (bench_figures.pooled), and what leaving the feature out saved against `all`: that feature's cost per scan.
"""
import json
import sys

from bench_figures import COLUMNS, HEADER, LABELS, cells, pooled_rounds

LEFT_OUT = {
    "all": "nothing: every feature on",
    "stream": "streaming (LLM_STREAM=false): whole answers, so no shows either",
    "shows": "shows: no recipe stored and announced as it streams",
    "labels": "allergen labels",
    "nutrition": "nutrition estimates",
    "quorum": "the quorum queue: jobs through a classic queue in memory",
}


def main(run, rounds, legs):
    figures = {leg: pooled_rounds(run, f"W-{leg}", rounds) for leg in legs}
    base = figures["all"]
    print(f"## W — where a scan's CPU goes, each feature left out in turn ({rounds} rounds per leg, interleaved)\n")
    print(f"| left out | {HEADER} | the feature's cost per scan |")
    print("|---" * (2 + COLUMNS) + "|")
    for leg in legs:
        f = figures[leg]
        if leg == "all":
            cost = "–"
        else:
            saved = base["kiwiCPUMsPerScan"] - f["kiwiCPUMsPerScan"]
            by_kind = ", ".join(
                f"{label} {base['byKindMsPerScan'].get(label, 0) - f['byKindMsPerScan'].get(label, 0):+.2f}" for label in LABELS
            )
            cost = f"**{saved:+.2f} ms** ({saved / base['kiwiCPUMsPerScan'] * 100:+.1f} %; {by_kind})"
        print(f"| {LEFT_OUT.get(leg, leg)} | {cells(f)} | {cost} |")
    json.dump(figures, open(f"{run}/W.json", "w"), indent=2, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
