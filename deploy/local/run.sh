#!/usr/bin/env bash
# `make run`: the whole system in the foreground. Ctrl-C stops everything this script started.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

"$here/install-packages.sh"

KIWI_STARTED_INFRA=()
cleanup() {
    trap - INT TERM EXIT
    if [ -n "${tail_pid:-}" ]; then kill "$tail_pid" 2>/dev/null || true; fi
    "$here/prometheus.sh" down || true
    "$here/services.sh" down || true
    stop_started_infrastructure || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_missing_infrastructure postgres rabbitmq
"$here/services.sh" up
"$here/prometheus.sh" up

cat <<MSG

  Kiwi is running. Gateway: http://localhost:8080
  Try:    curl -i http://localhost:8080/health
  Sign in (auth service, development key):
          token=\$(.build/debug/kiwi dev-token --sub "001.dev.\$(whoami)" --email "\$(whoami)@example.com")
          curl -s -X POST localhost:8081/v1/auth/apple -H 'content-type: application/json' -d "{\"identityToken\":\"\$token\"}"
  Prometheus (scrapes every service, evaluates the alert rules): http://localhost:$KIWI_PROMETHEUS_PORT/alerts
  Logs:   $KIWI_RUN/logs/   (also shown below)
  Stop:   Ctrl-C

MSG
tail -n 0 -F "$KIWI_RUN"/logs/*.log &
tail_pid=$!
wait "$tail_pid"
