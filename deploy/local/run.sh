#!/usr/bin/env bash
# `make run`: the whole system in the foreground. Ctrl-C stops everything this script started.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

"$here/install-packages.sh"

started=()
for component in postgres rabbitmq; do
    "$here/infra.sh" status "$component" >/dev/null || started+=("$component")
done

cleanup() {
    trap - INT TERM EXIT
    [ -n "${tail_pid:-}" ] && kill "$tail_pid" 2>/dev/null || true
    "$here/services.sh" down || true
    [ ${#started[@]} -gt 0 ] && "$here/infra.sh" down "${started[@]}" || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$here/infra.sh" up
"$here/services.sh" up

cat <<MSG

  Kiwi is running. Gateway: http://localhost:8080
  Try:    curl -i http://localhost:8080/health
  Logs:   $KIWI_RUN/logs/   (also shown below)
  Stop:   Ctrl-C

MSG
tail -n 0 -F "$KIWI_RUN"/logs/*.log &
tail_pid=$!
wait "$tail_pid"
