#!/usr/bin/env bash
# `make test`: the whole test suite against a real PostgreSQL and RabbitMQ. Reuses them when they are
# already running (make up); otherwise starts them and stops them again afterwards.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

# The formatter first: it takes seconds, and a tree it would change fails before anything is started or built.
"$here/format.sh" lint
# Then the imports: every module a target's sources import is declared in Package.swift, and goes down the layers
# (check-imports.py; docs/architecture.md, "Modules and layers").
"$here/check-imports.py"

# Test-only tools: headless Chromium for the share page, valgrind and objcopy for the instruction budget, and in a virtualenv of
# our own under .run/ (never the system Python's packages) recipe-scrapers (what Mealie and Tandoor import with) and
# schemathesis (the API description fuzzed against the running system); and the fake APNs's packages in one of its own
# (common.sh). Installed once, and again only when a pinned version changes.
"$here/install-packages.sh" chromium python3-venv valgrind binutils
venv="$KIWI_RUN/test-venv"
test_packages=("recipe-scrapers==15.13.0" "schemathesis==4.32.5" "icalendar==7.3.2")
pinned='import sys; from importlib.metadata import version; sys.exit(any(version(n) != v for n, v in (p.split("==") for p in sys.argv[1:])))'
if ! "$venv/bin/python" -c "$pinned" "${test_packages[@]}" 2>/dev/null; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${test_packages[@]}"
fi
export KIWI_TEST_PYTHON="$venv/bin/python"
export KIWI_TEST_SCHEMATHESIS="$venv/bin/schemathesis"
export KIWI_TEST_CHROMIUM="$(command -v chromium)"
KIWI_TEST_FAKE_APNS_PYTHON="$(fake_apns_python)"
export KIWI_TEST_FAKE_APNS_PYTHON

use_local_infrastructure postgres rabbitmq

export KIWI_TEST_DATABASE_URL="$KIWI_DATABASE_URL"
export KIWI_TEST_AMQP_URL="$KIWI_AMQP_URL"
export KIWI_TEST_RABBITMQ_METRICS_URL="http://127.0.0.1:$KIWI_RABBITMQ_METRICS_PORT"
cd "$KIWI_ROOT"
# Build every product first: the service tests run the real executables.
swift build --build-tests
# The temporary databases the tests create are dropped between runs, not during one: each drop forces a checkpoint
# that stalls every other test's commits (Tests/Support/Postgres.swift). These are an earlier run's leftovers.
"$KIWI_ROOT/deploy/local/infra.sh" drop-databases kiwi_test_
# At most 20 test cases at once. swift-testing otherwise starts every suite together: two dozen system rigs, each three
# service processes, beside promtool, Prometheus and the in-process tests, drove the load average on two cores to 12-18,
# RabbitMQ past its timeouts and a first scan past 10 s. With the bound the suite takes as long, and the slowest
# successful scan took 1.6 s (3.0 s with a busy loop on one core). A toolchain without the (experimental) setting ignores it.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-20}"
# A watchdog: the suite takes minutes; a test that hangs (one that ignores its time limit's cancellation) would keep
# the run, and CI, waiting for ever. After 20 minutes the run is stopped, naming the tests that never finished.
output="$KIWI_RUN/test-output.log"
status=0
timeout --kill-after=10 1200 swift test --skip-build "$@" 2>&1 | tee "$output" || status=$?
# The rigs' job queues (kiwi.test.…) outlive their tests in a broker that outlives the run; gone, they cost it nothing.
"$KIWI_ROOT/deploy/local/infra.sh" delete-queues kiwi.test. >/dev/null || log "could not delete the suite's queues (kiwi.test.…)"
"$KIWI_ROOT/deploy/local/infra.sh" drop-databases kiwi_test_ || log "could not drop the suite's databases (kiwi_test_…)"
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "kiwi: the test run did not finish in 20 minutes; tests that started and never finished:" >&2
    sed -n 's/^◇ Test "\(.*\)" started\.$/\1/p' "$output" | sort > "$output.started"
    sed -n 's/^[✔✘] Test "\(.*\)" \(with [0-9]* test cases \)\{0,1\}\(passed\|failed\) after .*$/\1/p' "$output" | sort -u > "$output.ended"
    comm -23 "$output.started" "$output.ended" >&2
elif [ "$status" -ne 0 ]; then
    # CI keeps only the last lines a run prints: the failed expectations once more, last, where they are read.
    echo "kiwi: the failed expectations (the whole output: $output):" >&2
    grep -a '^✘ Test "' "$output" | grep -av '" \(with [0-9]* test cases \)\{0,1\}failed after ' | cut -c1-320 | tail -n 12 >&2 || true
fi
# Once the tests pass, what one request costs in instructions, against Tests/instruction-budget.txt: a regression of
# more than 5 % fails the run, however busy the machine (docs/operations.md, "The instruction budget").
if [ "$status" -eq 0 ]; then
    "$here/instruction-budget.py" || status=$?
fi
exit "$status"
