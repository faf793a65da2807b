#!/usr/bin/env bash
# `make bench-worker`: scan worker throughput (release build) — a real kiwi-scan-worker process per row, fed by this
# program through the local RabbitMQ (scans reserved in the local PostgreSQL), answered by kiwi-llm-stub at zero
# latency. Uses ports 18082 and 18089.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

use_local_infrastructure postgres rabbitmq

cd "$KIWI_ROOT"
for product in kiwi-scan-worker kiwi-llm-stub kiwi-scan-worker-bench; do swift build -c release --product "$product"; done
DATABASE_URL="$KIWI_DATABASE_URL" AMQP_URL="$KIWI_AMQP_URL" .build/release/kiwi-scan-worker-bench
