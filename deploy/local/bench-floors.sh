#!/usr/bin/env bash
# `make bench-floors`: what PostgreSQL and RabbitMQ cost for no more than a scan asks of them (release build), against
# the local stack; their CPU is read from /proc, so nothing else should be using the stack meanwhile.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

use_local_infrastructure postgres rabbitmq

cd "$KIWI_ROOT"
swift build -c release --product kiwi-floor-bench
servers="$("$here/infra.sh" pids)"
POSTGRES_PID="$(sed -n 's/^postgresql=//p' <<<"$servers")" RABBITMQ_PID="$(sed -n 's/^rabbitmq=//p' <<<"$servers")" \
    DATABASE_URL="$KIWI_DATABASE_URL" AMQP_URL="$KIWI_AMQP_URL" .build/release/kiwi-floor-bench
