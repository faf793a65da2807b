#!/usr/bin/env bash
# `make test`: the whole test suite against a real PostgreSQL and RabbitMQ. Reuses them when they are
# already running (make up); otherwise starts them and stops them again afterwards.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

# The formatter first: it takes seconds, and a tree it would change fails before anything is started or built.
"$here/format.sh" lint

use_local_infrastructure postgres rabbitmq

export KIWI_TEST_DATABASE_URL="$KIWI_DATABASE_URL"
export KIWI_TEST_AMQP_URL="$KIWI_AMQP_URL"
export KIWI_TEST_RABBITMQ_METRICS_URL="http://127.0.0.1:$KIWI_RABBITMQ_METRICS_PORT"
cd "$KIWI_ROOT"
# Build every product first: the service tests run the real executables.
swift build --build-tests
swift test --skip-build "$@"
