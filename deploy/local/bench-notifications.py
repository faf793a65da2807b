"""Scenario N's figures (bench.sh): what one notifier sent the fake APNs, how fast, and how long after each scan's end.

    bench-notifications.py wait CONTROL_URL
    bench-notifications.py report CONTROL_URL DATABASE_URL LEG NOTIFIER_PID FAKE_PID OUT.json
    bench-notifications.py summary BENCH_RUN

`wait` returns once the fake APNs (its control port, CONTROL_URL) has received at least one notification and then
none more for 10 s (at most 10 minutes). `report` reads every notification the fake received since its start, looks up when each one's scan ended
(its record's `updated_at`, PostgreSQL's clock, on this machine as the fake's is), and writes LEG's figures: how many
were sent, the notifications per second from the first receipt to the last (in the backlog leg, the notifier sending
all it can), the delay from a scan's end to its phone's notification (p50, p99, max), and the CPU seconds the
notifier and the fake spent meanwhile (/proc). `summary` prints both legs as a Markdown table.
"""
import json
import math
import os
import subprocess
import sys
import time
import urllib.request


def received(control):
    with urllib.request.urlopen(f"{control}/received", timeout=30) as answer:
        return json.load(answer)["notifications"]


def percentile(samples, q):
    """Nearest rank, as kiwi-loadtest's LatencySummary."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(len(ordered) * q) - 1))] if ordered else 0.0


def cpu_seconds(pid):
    """User and system CPU of process PID and its reaped children so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def wait(control):
    count, last_change, deadline = 0, time.monotonic(), time.monotonic() + 600
    while time.monotonic() < deadline:
        now = len(received(control))
        if now != count:
            count, last_change = now, time.monotonic()
        elif count > 0 and time.monotonic() - last_change > 10:
            return
        time.sleep(0.5)


def ended_at(database_url, scan_ids):
    """Each scan's end, as Unix time, by id."""
    query = "SELECT id, extract(epoch FROM updated_at) FROM scans WHERE id = ANY(string_to_array(:'ids', ',')::uuid[])"
    rows = subprocess.run(
        ["psql", database_url, "-Atq", "-F", " ", "-v", "ON_ERROR_STOP=1", "-v", f"ids={','.join(scan_ids)}"],
        input=query, capture_output=True, text=True, check=True,
    ).stdout.split()
    return {rows[i]: float(rows[i + 1]) for i in range(0, len(rows), 2)}


def report(control, database_url, leg, notifier_pid, fake_pid, out):
    notifications = received(control)
    ends = ended_at(database_url, sorted({n["payload"]["scanId"] for n in notifications}))
    times = sorted(n["received_at"] for n in notifications)
    delays = [(n["received_at"] - ends[n["payload"]["scanId"]]) * 1000 for n in notifications if n["payload"]["scanId"] in ends]
    span = times[-1] - times[0] if len(times) > 1 else 0
    figures = {
        "leg": leg,
        "notifications": len(notifications),
        "scans": len(ends),
        "seconds": span,
        "perSecond": (len(times) - 1) / span if span > 0 else 0,
        "delayMs": {"p50": percentile(delays, 0.5), "p99": percentile(delays, 0.99), "max": max(delays, default=0)},
        "cpuSeconds": {"notifier": cpu_seconds(notifier_pid), "fakeAPNs": cpu_seconds(fake_pid)},
    }
    json.dump(figures, open(out, "w"), indent=2)


def summary(run):
    print("| leg | notifications | scans | notifications/s | delay p50 (ms) | delay p99 (ms) | delay max (ms) | notifier CPU ms per notification | fake APNs CPU ms per notification |")
    print("|---|---|---|---|---|---|---|---|---|")
    for leg in ("steady", "backlog"):
        path = f"{run}/N-{leg}-notifications.json"
        if not os.path.exists(path):
            continue
        f = json.load(open(path))
        count = max(1, f["notifications"])
        print(
            f"| {leg} | {f['notifications']} | {f['scans']} | {f['perSecond']:.0f} | {f['delayMs']['p50']:.0f} | {f['delayMs']['p99']:.0f} | "
            f"{f['delayMs']['max']:.0f} | {f['cpuSeconds']['notifier'] * 1000 / count:.2f} | {f['cpuSeconds']['fakeAPNs'] * 1000 / count:.2f} |"
        )
    print("\nsteady: the notifier running while scans end (the delay is the figure); backlog: the notifier started once every "
          "scan had ended (notifications/s is the figure: all one notifier sends). CPU: the processes' whole lives.")


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "wait":
        wait(arguments[0])
    elif command == "report":
        report(arguments[0], arguments[1], arguments[2], int(arguments[3]), int(arguments[4]), arguments[5])
    elif command == "summary":
        summary(arguments[0])
    else:
        sys.exit(__doc__)
