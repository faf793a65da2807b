"""Sets scenario R's rounds side by side (bench.sh): what a refinement costs against a photo scan.

    bench-refinements.py BENCH_RUN

Reads BENCH_RUN/R-KIND.json (kiwi-loadtest --json) and R-KIND-cost.json (what the succeeded scans' records say their
model calls cost) for KIND = photo, refine (text route on the photo route's model) and refine-mini (gpt-4o-mini),
prints a Markdown table and writes the figures to BENCH_RUN/R.json. Nano-dollars are what the ledger records
(ModelPrices); a refinement's share is against the photo scan's.
"""
import json
import sys

KINDS = (("photo", "photo scan"), ("refine", "refinement, gpt-4o"), ("refine-mini", "refinement, gpt-4o-mini"))


def main():
    run = sys.argv[1]
    figures = {}
    for kind, _ in KINDS:
        report = json.load(open(f"{run}/R-{kind}.json"))
        cost = json.load(open(f"{run}/R-{kind}-cost.json"))
        figures[kind] = {
            "started": report["scans"],
            "succeeded": report["succeeded"],
            "latencyP50Ms": report["latencyMs"]["p50"],
            "kiwiCPUMsPerScan": report["kiwiCPUMsPerScan"],
            "recorded": cost,
        }
    photo = figures["photo"]

    def share(kind, value):
        mine, theirs = value(figures[kind]), value(photo)
        return "" if kind == "photo" or not mine or not theirs else f" ({mine / theirs * 100:.0f} %)"

    def cell(kind, value, form):
        v = value(figures[kind])
        return "—" if v is None else form.format(v) + share(kind, value)

    rows = [
        ("scans ok / started", lambda f: None, None),
        ("model (recorded)", lambda f: None, None),
        ("prompt tokens per scan", lambda f: f["recorded"]["promptTokens"], "{:.0f}"),
        ("completion tokens per scan", lambda f: f["recorded"]["completionTokens"], "{:.0f}"),
        ("recorded cost per scan, $", lambda f: f["recorded"]["costNanousd"] and f["recorded"]["costNanousd"] / 1e9, "{:.5f}"),
        ("Kiwi's CPU ms per scan", lambda f: f["kiwiCPUMsPerScan"], "{:.2f}"),
        ("to result, p50 ms", lambda f: f["latencyP50Ms"], "{:.0f}"),
    ]
    lines = [
        "## R — a refinement against a photo scan (the stub at the same latency for both)",
        "",
        "| | " + " | ".join(title for _, title in KINDS) + " |",
        "|---|" + "---|" * len(KINDS),
    ]
    for title, value, form in rows:
        if title == "scans ok / started":
            cells = [f"{figures[k]['succeeded']} / {figures[k]['started']}" for k, _ in KINDS]
        elif title == "model (recorded)":
            cells = [", ".join(m for m in figures[k]["recorded"]["models"] or [] if m) or "—" for k, _ in KINDS]
        else:
            cells = [cell(k, value, form) for k, _ in KINDS]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    free = [f"{figures[k]['recorded']['free']} of {figures[k]['recorded']['scans']} ({title})" for k, title in KINDS if k != "photo"]
    lines += ["", "Tokens and cost are averaged over every succeeded scan each round recorded, warm-up included. Free refinements "
              "(the first two of each photo scan's chain): " + ", ".join(free) + "."]
    print("\n".join(lines))
    json.dump(figures, open(f"{run}/R.json", "w"), indent=2, sort_keys=True)


main()
