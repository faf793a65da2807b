#!/usr/bin/env bash
# Starts and stops the three Kiwi services, and the OpenAI stub they use, against the local PostgreSQL and RabbitMQ.
#   services.sh up      build, start the stub, auth, gateway and one scan worker in the background, wait until healthy
#   services.sh down    stop them (SIGTERM, then SIGKILL after 20 s)
#   services.sh status  say which are running
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

KIWI_BIN="${KIWI_BIN:-$KIWI_ROOT/.build/debug}"
PIDS="$KIWI_RUN/pids"
LOGS="$KIWI_RUN/logs"
SERVICES=(kiwi-llm-stub kiwi-auth kiwi-gateway kiwi-scan-worker)

port_of() {
    case "$1" in
        kiwi-gateway) echo 8080 ;;
        kiwi-auth) echo 8081 ;;
        kiwi-scan-worker) echo 8082 ;;
        kiwi-llm-stub) echo 8089 ;;
    esac
}

# Prometheus text (GET /metrics), each service on a port of its own (DESIGN.md §7).
metrics_port_of() {
    case "$1" in
        kiwi-gateway) echo 9101 ;;
        kiwi-auth) echo 9102 ;;
        kiwi-scan-worker) echo 9103 ;;
    esac
}

# The stub takes flags, the services their environment. KIWI_STUB_LATENCY_MS/KIWI_STUB_JITTER_MS simulate gpt-4o's pace.
arguments_of() {
    case "$1" in
        kiwi-llm-stub) echo "--port 8089 --latency-ms ${KIWI_STUB_LATENCY_MS:-0} --jitter-ms ${KIWI_STUB_JITTER_MS:-0}" ;;
    esac
}

running_pid() {
    local pid
    pid="$(cat "$PIDS/$1.pid" 2>/dev/null || true)"
    if pid_matches "$pid" "$1"; then echo "$pid"; else rm -f "$PIDS/$1.pid"; return 1; fi
}

healthy() { curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$1/health" 2>/dev/null; }

start_service() {
    local name="$1" port pid
    port="$(port_of "$name")"
    if pid="$(running_pid "$name")"; then log "$name already running (pid $pid)"; return; fi
    if port_open "$port"; then die "port $port is taken by another program; stop it before starting $name"; fi
    # shellcheck disable=SC2046 # the arguments are words on purpose
    PORT="$port" METRICS_PORT="$(metrics_port_of "$name")" nohup "$KIWI_BIN/$name" $(arguments_of "$name") >>"$LOGS/$name.log" 2>&1 &
    echo $! > "$PIDS/$name.pid"
}

wait_healthy() {
    local name="$1" port deadline
    port="$(port_of "$name")"; deadline=$((SECONDS + 60))
    until healthy "$port"; do
        if ! running_pid "$name" >/dev/null; then tail -n 20 "$LOGS/$name.log" >&2; die "$name exited; its log is $LOGS/$name.log"; fi
        [ $SECONDS -lt $deadline ] || die "$name did not become healthy within 60 s; see $LOGS/$name.log"
        sleep 0.3
    done
    log "$name healthy on http://127.0.0.1:$port"
}

services_up() {
    mkdir -p "$PIDS" "$LOGS"
    # The same build as `make test` (tests included): switching between the two then rebuilds nothing.
    log "building (swift build --build-tests)"
    (cd "$KIWI_ROOT" && swift build --build-tests) >&2
    local_environment
    for name in "${SERVICES[@]}"; do start_service "$name"; done
    for name in "${SERVICES[@]}"; do wait_healthy "$name"; done
}

services_down() {
    local name pid
    for name in "${SERVICES[@]}"; do
        if pid="$(running_pid "$name")"; then kill -TERM "$pid" 2>/dev/null || true; fi
    done
    for name in "${SERVICES[@]}"; do
        if pid="$(running_pid "$name")"; then
            for _ in $(seq 1 200); do pid_matches "$pid" "$name" || break; sleep 0.1; done
            if pid_matches "$pid" "$name"; then log "$name did not stop in 20 s; killing it"; kill -KILL "$pid" 2>/dev/null || true; fi
            log "$name stopped"
        fi
        rm -f "$PIDS/$name.pid"
    done
}

services_status() {
    local name pid status=0
    for name in "${SERVICES[@]}"; do
        if pid="$(running_pid "$name")"; then echo "$name: running (pid $pid)"; else echo "$name: stopped"; status=3; fi
    done
    return $status
}

case "${1:-}" in
    up) services_up ;;
    down) services_down ;;
    status) services_status ;;
    *) die "usage: services.sh up|down|status" ;;
esac
