"""What bench.sh's summaries share: the process kinds of kiwi-loadtest's reports, and a leg's rounds pooled.

A leg's CPU per scan is all its rounds' CPU over all their scans finished in the windows, so a round with more scans
weighs more; each round's own figure is kept beside it, as its spread.
"""

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
