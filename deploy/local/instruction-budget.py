#!/usr/bin/env python3
"""The instruction budget of `make test` (docs/operations.md, "The instruction budget").

Counts the instructions one request of each workload costs, with callgrind, and compares them with the budget in
Tests/instruction-budget.txt: a count more than 5 % over its budget fails. Instructions, unlike time, do not change with
the machine's load, so a regression shows however busy the machine is.

Each workload is an XCTest case of the debug test bundle `make test` has just built (`make test` runs it once as a
test), making as many requests as KIWI_INSTRUCTION_REPEATS says. XCTest's, because its entry point is synchronous:
Debian's valgrind 3.19 crashes on the asynchronous one of swift-testing's runner (the main thread leaves through
dispatch_main). Counting starts once the workload is set up (`InstructionWorkload.startCounting()`, callgrind's
`--zero-before`), and it is counted twice, with N and with 2N requests: the difference over N is one request's cost,
and what ending the run costs falls out too.

    instruction-budget.py                     count every workload and check the counts against the budget
    instruction-budget.py check COUNTS.json   check counts already made (the checker's own tests plant them)
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUDGET = ROOT / "Tests" / "instruction-budget.txt"
BUNDLE = ROOT / ".build" / "debug" / "kiwiPackageTests.xctest"
WORK = Path(os.environ.get("KIWI_RUN", ROOT / ".run")) / "instructions"
# How far over its budget a count may go before the check fails.
TOLERANCE = 0.05

# Each workload: its XCTest case, and N, the requests of the smaller run. Two runs of the same N differ by a few million
# instructions, as threads happen to interleave: N keeps that within 2 % of one request's cost (2026-12-01, two
# countings: 16.35 and 16.45 million for a blocking scan, 17.23 and 16.95 for a priced one), inside the budget's 5 %,
# and a run under callgrind within a minute.
WORKLOADS = {
    "worker-streamed-answer": ("KiwiScanWorkerTests.PipelineInstructionWorkload/testStreamedAnswers", 2),
    "worker-household-answer": ("KiwiScanWorkerTests.PipelineInstructionWorkload/testStreamedAnswersForAHousehold", 2),
    "gateway-blocking-scan": ("KiwiGatewayTests.BlockingScanInstructionWorkload/testBlockingScans", 50),
    "gateway-household-scan": ("KiwiGatewayTests.BlockingScanInstructionWorkload/testBlockingScansForAHousehold", 50),
    "gateway-priced-scan": ("KiwiGatewayTests.BlockingScanInstructionWorkload/testBlockingScansAtKitchenPrices", 50),
}
# The function every workload calls once set up: entering it zeroes the counts.
START_COUNTING = "InstructionWorkloadO13startCountingyyFZ"  # KiwiTestSupport.InstructionWorkload.startCounting(), mangled


class BudgetError(Exception):
    pass


def read_budget(path):
    """Each workload's budget: the count on its last line. Every line says when and why it was set."""
    budgets = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split(None, 3)
        if len(fields) < 4 or not fields[1].isdigit() or len(fields[2]) != 10 or len(fields[3].split()) < 3:
            raise BudgetError(
                f"{path.name}:{number}: a budget line is `workload count yyyy-mm-dd why`, the why in a few words: {line!r}"
            )
        budgets[fields[0]] = int(fields[1])
    return budgets


def shown(path):
    """`path` as a developer finds it: from the repository's root when it is inside it."""
    path = path.resolve()
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def check(counts, budget_path=BUDGET):
    """Prints each count against its budget; returns the failures."""
    budgets = read_budget(budget_path)
    failures = []
    for workload in sorted(set(counts) | set(budgets)):
        if workload not in budgets:
            failures.append(f"{workload}: counted, but {budget_path.name} has no budget for it; add one with a line saying why")
            continue
        if workload not in counts:
            failures.append(f"{workload}: {budget_path.name} budgets it, but no workload counts it; remove its lines")
            continue
        count, budget = counts[workload], budgets[workload]
        change = count / budget - 1
        print(f"  {workload:<24} {count:>14,} instructions per request, budget {budget:>14,} ({change:+.1%})")
        if change > TOLERANCE:
            failures.append(
                f"{workload}: {count:,} instructions per request, {change:.1%} over its budget of {budget:,}. "
                f"Make the change cheaper, or, if the feature is worth it, raise the budget in the same commit with a "
                f"line in {shown(budget_path)} saying why, and report the feature's cost "
                f"per scan in the issue's closing note."
            )
        elif change < -4 * TOLERANCE:
            print(f"  {workload}: {-change:.0%} under its budget: lower the budget, so that the next regression shows")
    return failures


def total_instructions(profile):
    """The `totals:` line of a callgrind profile: every instruction of every thread."""
    for line in profile.read_text().splitlines():
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    raise BudgetError(f"{profile} has no totals")


def stripped_bundle():
    """A copy of the test bundle without debug information, which Debian's valgrind 3.19 cannot read (DWARF 5)."""
    if not BUNDLE.exists():
        raise BudgetError(f"no test bundle at {BUNDLE}: build the tests first (swift build --build-tests)")
    WORK.mkdir(parents=True, exist_ok=True)
    copy = WORK / BUNDLE.name
    if not copy.exists() or copy.stat().st_mtime < BUNDLE.stat().st_mtime:
        subprocess.run(["objcopy", "--strip-debug", str(BUNDLE), str(copy)], check=True)
    return copy


def start_counting_symbol(bundle):
    """The mangled name of ``START_COUNTING`` in `bundle`, for callgrind's `--zero-before`."""
    symbols = subprocess.run(["nm", "--defined-only", str(bundle)], check=True, capture_output=True, text=True).stdout
    names = {line.split()[-1] for line in symbols.splitlines() if line.endswith(START_COUNTING)}
    if len(names) != 1:
        raise BudgetError(f"{bundle} defines {len(names)} functions ending in {START_COUNTING}, not one: {sorted(names)}")
    return names.pop()


def count(bundle, start, suite, repeats):
    """The instructions of one run of `suite` making `repeats` requests, from its call of `start`, under callgrind."""
    with tempfile.TemporaryDirectory(dir=WORK) as scratch:
        profile = Path(scratch) / "callgrind.out"
        environment = dict(
            os.environ,
            KIWI_INSTRUCTION_REPEATS=str(repeats),
            SWIFT_DETERMINISTIC_HASHING="1",
        )
        run = subprocess.run(
            [
                "valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", f"--zero-before={start}",
                "--dump-line=no", "--dump-instr=no", "--read-var-info=no", str(bundle), "--testing-library", "xctest", suite,
            ],
            env=environment, capture_output=True, text=True,
        )
        if run.returncode != 0 or not profile.exists():
            raise BudgetError(f"{suite} with {repeats} requests failed under callgrind:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
        if "Executed 1 test, with 0 failures" not in run.stdout:
            raise BudgetError(f"{suite} did not run as one passing test:\n{run.stdout[-3000:]}")
        return total_instructions(profile)


def measure():
    """Each workload's instructions per request: (count of 2N requests − count of N) / N."""
    if shutil.which("valgrind") is None:
        raise BudgetError("valgrind is not installed (deploy/local/install-packages.sh valgrind)")
    bundle = stripped_bundle()
    start = start_counting_symbol(bundle)
    runs = [(suite, repeats * times) for suite, repeats in WORKLOADS.values() for times in (1, 2)]
    # Two runs at a time, one per core: a count does not depend on what else the machine does.
    with ThreadPoolExecutor(max_workers=2) as pool:
        totals = dict(zip(runs, pool.map(lambda run: count(bundle, start, *run), runs)))
    counts = {}
    for workload, (suite, repeats) in WORKLOADS.items():
        counts[workload] = round((totals[(suite, 2 * repeats)] - totals[(suite, repeats)]) / repeats)
    (WORK / "counts.json").write_text(json.dumps(counts, indent=2) + "\n")
    return counts


def main(arguments):
    try:
        if arguments[:1] == ["check"] and len(arguments) in (2, 3):
            counts = json.loads(Path(arguments[1]).read_text())
            failures = check(counts, Path(arguments[2]) if len(arguments) == 3 else BUDGET)
        elif not arguments:
            print("kiwi: counting instructions per request (callgrind, debug build; docs/operations.md)")
            failures = check(measure())
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except BudgetError as error:
        print(f"kiwi: {error}", file=sys.stderr)
        return 1
    for failure in failures:
        print(f"kiwi: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
