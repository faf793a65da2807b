#!/usr/bin/env bash
# `make bench-floors`: each of Kiwi's processes asked for no more than a scan asks of it, beside what scenario A
# measured in the same run (release build): scenarios A and B of `make bench`, then their floors (bench.sh's F): each
# process's CPU at A's rate, and the latency a scan's commits and confirmed publishes alone add at B's pace.
# Reads the processes' CPU from /proc, so nothing else should be using the stack meanwhile. KIWI_BENCH_SERVICES and
# KIWI_BENCH_SECONDS apply as to `make bench`.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/bench.sh" A B F
