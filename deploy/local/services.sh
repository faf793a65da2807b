#!/usr/bin/env bash
# Starts and stops the four Kiwi services, and the OpenAI stub and fake APNs they use, against the local PostgreSQL and
# RabbitMQ.
#   services.sh up                build, start the stub, the fake APNs, auth, gateway, one scan worker and the notifier in
#                                 the background, wait until healthy
#   services.sh down              stop them and any extra workers (SIGTERM, then SIGKILL after 20 s)
#   services.sh status            say which are running
#   services.sh restart SERVICE   stop one service (gateway, auth, scan-worker, notifier, llm-stub or fake-apns) and start it again from the
#                                 binaries already built, with the same configuration: no build, for failure drills
#   services.sh worker            start one more scan worker, on the next free ports, from the binaries already built
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

KIWI_BIN="${KIWI_BIN:-$KIWI_ROOT/.build/debug}"
PIDS="$KIWI_RUN/pids"
LOGS="$KIWI_RUN/logs"
TARGETS="$KIWI_RUN/prometheus/targets"
SERVICES=(kiwi-llm-stub kiwi-fake-apns kiwi-auth kiwi-gateway kiwi-scan-worker kiwi-notifier)

port_of() {
    case "$1" in
        kiwi-gateway) echo 8080 ;;
        kiwi-auth) echo 8081 ;;
        kiwi-scan-worker) echo 8082 ;;
        kiwi-notifier) echo 8084 ;;
        kiwi-llm-stub) echo 8089 ;;
        # Its control port (GET /health, GET /received); notifications go to 2197, over TLS.
        kiwi-fake-apns) echo 2198 ;;
    esac
}

# Prometheus text (GET /metrics), each service on a port of its own (docs/architecture.md, "Metrics").
metrics_port_of() {
    case "$1" in
        kiwi-gateway) echo 9101 ;;
        kiwi-auth) echo 9102 ;;
        kiwi-scan-worker) echo 9103 ;;
        kiwi-notifier) echo 9105 ;;
    esac
}

# The stub takes flags, the services their environment. KIWI_STUB_LATENCY_MS/KIWI_STUB_JITTER_MS delay each answer;
# streams are instant unless KIWI_STUB_TIME_TO_FIRST_TOKEN_MS/KIWI_STUB_TOKENS_PER_SECOND set a pace (390 and 81 are
# gpt-4o's; a tokens-per-second of 0 is no pace).
arguments_of() {
    case "$1" in
        kiwi-llm-stub)
            echo "--port 8089 --latency-ms ${KIWI_STUB_LATENCY_MS:-0} --jitter-ms ${KIWI_STUB_JITTER_MS:-0}" \
                "--time-to-first-token-ms ${KIWI_STUB_TIME_TO_FIRST_TOKEN_MS:-0} --tokens-per-second ${KIWI_STUB_TOKENS_PER_SECOND:-0}"
            ;;
        kiwi-fake-apns)
            local keys
            keys="$(fake_apns_keys)"
            echo "$KIWI_ROOT/Tools/fake-apns/fake_apns.py --port 2197 --control-port 2198 --cert $keys/server.pem" \
                "--key $keys/server-key.pem --team-id $APNS_TEAM_ID --key-id $APNS_KEY_ID --public-key $keys/auth-key-public.pem" \
                "--bundle-id app.kiwi.ios"
            ;;
    esac
}

# Extra scan workers are named kiwi-scan-worker-2, -3, …: the executable is the name without that suffix. The fake
# APNs is a Python script.
executable_of() {
    case "$1" in
        kiwi-fake-apns) echo fake_apns.py ;;
        *) echo "${1%-[0-9]*}" ;;
    esac
}

# The program that runs as service NAME.
program_of() {
    case "$1" in
        kiwi-fake-apns) fake_apns_python ;;
        *) echo "$KIWI_BIN/$(executable_of "$1")" ;;
    esac
}

running_pid() {
    local pid
    pid="$(cat "$PIDS/$1.pid" 2>/dev/null || true)"
    if pid_matches "$pid" "$(executable_of "$1")"; then echo "$pid"; else rm -f "$PIDS/$1.pid"; return 1; fi
}

# The extra scan workers that have a pid file, started by `services.sh worker`.
extra_workers() {
    local file
    for file in "$PIDS"/kiwi-scan-worker-*.pid; do [ -e "$file" ] && basename "$file" .pid; done
    return 0
}

healthy() { curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$1/health" 2>/dev/null; }

# Tells the local Prometheus (prometheus.sh) to scrape a service's metrics port, as the job its executable names.
register_target() {
    local name="$1" metrics_port="$2"
    [ -n "$metrics_port" ] || return 0
    mkdir -p "$TARGETS"
    printf '[{"targets": ["127.0.0.1:%s"], "labels": {"job": "%s", "service": "%s"}}]\n' \
        "$metrics_port" "$(executable_of "$name")" "$name" > "$TARGETS/$name.json.tmp"
    mv "$TARGETS/$name.json.tmp" "$TARGETS/$name.json"
}

# start_service NAME [PORT METRICS_PORT]: the ports default to the service's fixed ones.
start_service() {
    local name="$1" port="${2:-$(port_of "$1")}" metrics_port="${3:-$(metrics_port_of "$1")}" pid
    if pid="$(running_pid "$name")"; then log "$name already running (pid $pid)"; return; fi
    if port_open "$port"; then die "port $port is taken by another program; stop it before starting $name"; fi
    # shellcheck disable=SC2046 # the arguments are words on purpose
    PORT="$port" METRICS_PORT="$metrics_port" nohup "$(program_of "$name")" $(arguments_of "$name") >>"$LOGS/$name.log" 2>&1 &
    echo $! > "$PIDS/$name.pid"
    echo "$port" > "$PIDS/$name.port"
    register_target "$name" "$metrics_port"
}

wait_healthy() {
    local name="$1" port deadline
    port="$(cat "$PIDS/$name.port" 2>/dev/null || port_of "$name")"; deadline=$((SECONDS + 60))
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

# stop_services NAME…: SIGTERM to all of them at once, then wait up to 20 s for each before SIGKILL.
stop_services() {
    local name pid
    for name in "$@"; do
        if pid="$(running_pid "$name")"; then kill -TERM "$pid" 2>/dev/null || true; fi
    done
    for name in "$@"; do
        if pid="$(running_pid "$name")"; then
            for _ in $(seq 1 200); do pid_matches "$pid" "$(executable_of "$name")" || break; sleep 0.1; done
            if pid_matches "$pid" "$(executable_of "$name")"; then log "$name did not stop in 20 s; killing it"; kill -KILL "$pid" 2>/dev/null || true; fi
            log "$name stopped"
        fi
        rm -f "$PIDS/$name.pid" "$PIDS/$name.port" "$TARGETS/$name.json"
    done
}

services_down() {
    mkdir -p "$PIDS"
    # shellcheck disable=SC2046 # one word per worker
    stop_services $(extra_workers) "${SERVICES[@]}"
}

services_status() {
    local name pid status=0
    for name in "${SERVICES[@]}" $(extra_workers); do
        if pid="$(running_pid "$name")"; then echo "$name: running (pid $pid)"; else echo "$name: stopped"; status=3; fi
    done
    return $status
}

# The binaries `services.sh up` built; restart and worker never build, so a drill replays no compilation.
require_built() {
    local name
    for name in "$@"; do
        [ -x "$KIWI_BIN/$name" ] || die "$KIWI_BIN/$name is not built; run \`make up\` (or \`make run\`) first"
    done
}

services_restart() {
    local service="${1:-}" name
    case "$service" in
        gateway | auth | scan-worker | notifier | llm-stub | fake-apns) name="kiwi-$service" ;;
        *) die "usage: make restart SERVICE=gateway|auth|scan-worker|notifier|llm-stub|fake-apns" ;;
    esac
    [ "$name" = kiwi-fake-apns ] || require_built "$name" kiwi
    mkdir -p "$PIDS" "$LOGS"
    local_environment
    stop_services "$name"
    start_service "$name"
    wait_healthy "$name"
}

# The first free port at or above $1, skipping the fixed ones of the other services.
next_free_port() {
    local port="$1" name fixed=" "
    for name in "${SERVICES[@]}"; do fixed+="$(port_of "$name") $(metrics_port_of "$name") "; done
    while port_open "$port" || [[ "$fixed" == *" $port "* ]]; do port=$((port + 1)); done
    echo "$port"
}

services_worker() {
    require_built kiwi-scan-worker kiwi
    mkdir -p "$PIDS" "$LOGS"
    local_environment
    local number=2 port metrics_port
    while [ -e "$PIDS/kiwi-scan-worker-$number.pid" ] && running_pid "kiwi-scan-worker-$number" >/dev/null; do number=$((number + 1)); done
    port="$(next_free_port 8083)"
    metrics_port="$(next_free_port 9104)"
    start_service "kiwi-scan-worker-$number" "$port" "$metrics_port"
    wait_healthy "kiwi-scan-worker-$number"
    log "kiwi-scan-worker-$number: metrics on http://127.0.0.1:$metrics_port/metrics, log $LOGS/kiwi-scan-worker-$number.log"
}

case "${1:-}" in
    up) services_up ;;
    down) services_down ;;
    status) services_status ;;
    restart) services_restart "${2:-}" ;;
    worker) services_worker ;;
    *) die "usage: services.sh up|down|status|restart SERVICE|worker" ;;
esac
