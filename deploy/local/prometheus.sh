#!/usr/bin/env bash
# The local Prometheus of `make run` and `make up`: scrapes every running Kiwi service and RabbitMQ, and evaluates
# deploy/prometheus/kiwi-rules.yml, on http://127.0.0.1:$KIWI_PROMETHEUS_PORT (9190).
#   prometheus.sh up        start it (Debian's prometheus package), unless it runs
#   prometheus.sh down      stop it
#   prometheus.sh status    say whether it runs, and list the alerts firing now
# services.sh tells it which services run: one file per service in .run/prometheus/targets/ (file-based discovery,
# re-read within seconds), so `make worker`'s extra workers are scraped too.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

base="$KIWI_RUN/prometheus"
pid_file="$base/prometheus.pid"
url="http://127.0.0.1:$KIWI_PROMETHEUS_PORT"

running() { [ -f "$pid_file" ] && pid_matches "$(cat "$pid_file")" "$base/prometheus.yml"; }

write_config() {
    mkdir -p "$base/targets" "$base/data"
    cat > "$base/prometheus.yml" <<CONF
# Written by deploy/local/prometheus.sh; the rules are the repository's own.
global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files:
  - $KIWI_ROOT/deploy/prometheus/kiwi-rules.yml
scrape_configs:
  - job_name: kiwi
    file_sd_configs:
      - files: ["$base/targets/*.json"]
        refresh_interval: 5s
  - job_name: rabbitmq
    metrics_path: /metrics/detailed
    params:
      family: [queue_coarse_metrics, queue_consumer_count]
    static_configs:
      - targets: ["127.0.0.1:$KIWI_RABBITMQ_METRICS_PORT"]
CONF
}

up() {
    if running; then log "Prometheus already running on $url"; return; fi
    command -v prometheus >/dev/null || die "Prometheus is not installed (run deploy/local/install-packages.sh)"
    if port_open "$KIWI_PROMETHEUS_PORT"; then die "port $KIWI_PROMETHEUS_PORT is taken by another program; stop it or set KIWI_PROMETHEUS_PORT"; fi
    write_config
    mkdir -p "$KIWI_RUN/logs"
    nohup prometheus --config.file="$base/prometheus.yml" --storage.tsdb.path="$base/data" --storage.tsdb.retention.time=7d \
        --web.listen-address="127.0.0.1:$KIWI_PROMETHEUS_PORT" --web.enable-lifecycle --log.level=warn >>"$KIWI_RUN/logs/prometheus.log" 2>&1 &
    echo $! > "$pid_file"
    local deadline=$((SECONDS + 30))
    until curl -fs -o /dev/null --max-time 2 "$url/-/ready"; do
        running || { tail -n 20 "$KIWI_RUN/logs/prometheus.log" >&2; die "Prometheus exited; its log is $KIWI_RUN/logs/prometheus.log"; }
        [ $SECONDS -lt $deadline ] || die "Prometheus was not ready within 30 s; see $KIWI_RUN/logs/prometheus.log"
        sleep 0.3
    done
    log "Prometheus ready on $url (alerts: $url/alerts)"
}

down() {
    if running; then
        local pid; pid="$(cat "$pid_file")"
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do pid_matches "$pid" "$base/prometheus.yml" || break; sleep 0.1; done
        log "Prometheus stopped"
    fi
    rm -f "$pid_file"
}

status() {
    if ! running; then echo "prometheus: stopped"; return 3; fi
    echo "prometheus: running on $url"
    local firing
    firing="$(promtool query instant "$url" 'ALERTS{alertstate="firing"}' 2>&1)" || { echo "  (could not ask it for alerts: $firing)"; return 0; }
    if [ -z "$firing" ]; then echo "  no alerts firing"; else echo "  firing:"; sed 's/^/    /' <<<"$firing"; fi
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    status) status ;;
    *) die "usage: prometheus.sh up|down|status" ;;
esac
