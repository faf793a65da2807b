"""What bench.sh's summaries share: the process kinds of kiwi-loadtest's reports, a leg's rounds pooled, and the
columns every leg's row of a summary table has.

A leg's CPU per scan is all its rounds' CPU over all their scans finished in the windows, so a round with more scans
weighs more; each round's own figure is kept beside it, as its spread.
"""
import json
import os

KINDS = (("gateway", "kiwi-gateway"), ("worker", "kiwi-scan-worker"), ("PostgreSQL", "postgres"), ("RabbitMQ", "rabbitmq"),
         ("auth", "kiwi-auth"))
LABELS = [label for label, _ in KINDS]


def kind(name):
    return next((label for label, prefix in KINDS if name.startswith(prefix)), "other")


def pooled(reports):
    finished = sum(r["scansFinishedInWindow"] for r in reports)
    cpu = {}
    for report in reports:
        for process in report["processes"]:
            if process["kiwi"]:
                cpu[kind(process["name"])] = cpu.get(kind(process["name"]), 0) + process["cpuSeconds"]
    messages = [r.get("eventMessages") for r in reports]
    return {
        "scans": sum(r["scans"] for r in reports),
        "succeeded": sum(r["succeeded"] for r in reports),
        "scansPerSecond": sum(r["successfulScansPerSecond"] for r in reports) / len(reports),
        "kiwiCPUMsPerScan": sum(r["kiwiCPUSeconds"] for r in reports) * 1000 / finished,
        "byRound": [r["kiwiCPUMsPerScan"] for r in reports],
        "byKindMsPerScan": {label: seconds * 1000 / finished for label, seconds in cpu.items()},
        "eventMessagesPerScan": sum(messages) / finished if None not in messages else None,
    }


def pooled_rounds(run, leg, rounds):
    """The rounds of leg LEG, BENCH_RUN/LEG-1.json … LEG-ROUNDS.json, pooled."""
    return pooled([json.load(open(f"{run}/{leg}-{n}.json")) for n in range(1, rounds + 1)])


def pooled_sizes(run, scenario, rounds):
    """Each size N of a scenario whose legs are sizes (BENCH_RUN/SCENARIO-N-R.json), its rounds pooled, the smallest
    first."""
    sizes = sorted({int(name.split("-")[1]) for name in os.listdir(run) if name.startswith(f"{scenario}-") and name.endswith(".json")})
    return {size: pooled_rounds(run, f"{scenario}-{size}", rounds) for size in sizes}


# The header of the columns `cells` fills, and how many there are.
HEADER = "scans (succeeded) | successful scans/s | Kiwi CPU ms per scan (each round) | " + " | ".join(LABELS)
COLUMNS = 3 + len(LABELS)


def cells(figures):
    """A pooled leg's scans, rate, CPU per scan with each round's, and CPU per scan by process kind, as table cells."""
    rounds = ", ".join(f"{value:.2f}" for value in figures["byRound"])
    kinds = " | ".join(f"{figures['byKindMsPerScan'].get(label, 0):.2f}" for label in LABELS)
    return (f"{figures['scans']} ({figures['succeeded']}) | {figures['scansPerSecond']:.1f} | "
            f"**{figures['kiwiCPUMsPerScan']:.2f}** ({rounds}) | {kinds}")
