#!/usr/bin/env bash
# `make bench-messaging`: the messaging benchmark (release build) against the local RabbitMQ.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

use_local_infrastructure rabbitmq

cd "$KIWI_ROOT"
swift build -c release --product kiwi-messaging-bench
AMQP_URL="$KIWI_AMQP_URL" .build/release/kiwi-messaging-bench
