#!/usr/bin/env bash
# `make test`: the whole test suite against a real PostgreSQL and RabbitMQ. Reuses them when they are
# already running (make up); otherwise starts them and stops them again afterwards.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

# The formatter first: it takes seconds, and a tree it would change fails before anything is started or built.
"$here/format.sh" lint

# Test-only tools: headless Chromium for the share page, and recipe-scrapers (what Mealie and Tandoor import with) in
# a virtualenv of our own under .run/, never the system Python's packages.
"$here/install-packages.sh" chromium python3-venv
venv="$KIWI_RUN/test-venv"
if ! "$venv/bin/python" -c 'import recipe_scrapers' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "recipe-scrapers==15.13.0"
fi
export KIWI_TEST_PYTHON="$venv/bin/python"
export KIWI_TEST_CHROMIUM="$(command -v chromium)"

use_local_infrastructure postgres rabbitmq

export KIWI_TEST_DATABASE_URL="$KIWI_DATABASE_URL"
export KIWI_TEST_AMQP_URL="$KIWI_AMQP_URL"
export KIWI_TEST_RABBITMQ_METRICS_URL="http://127.0.0.1:$KIWI_RABBITMQ_METRICS_PORT"
cd "$KIWI_ROOT"
# Build every product first: the service tests run the real executables.
swift build --build-tests
swift test --skip-build "$@"
