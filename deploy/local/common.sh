# Sourced by the local-stack scripts: paths, fixed local ports, and helpers.
# Ports are chosen away from the system defaults (5432, 5672, 4369) so a PostgreSQL or
# RabbitMQ already running on the machine never collides with the local stack.

KIWI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# Where local data, logs and the test tools live; `make drill` gives its own PostgreSQL and RabbitMQ another.
KIWI_RUN="${KIWI_RUN:-$KIWI_ROOT/.run}"
# The address PostgreSQL and RabbitMQ listen on: loopback, except on the hosts of `make drill`.
KIWI_INFRA_ADDRESS="${KIWI_INFRA_ADDRESS:-127.0.0.1}"

KIWI_POSTGRES_PORT="${KIWI_POSTGRES_PORT:-55432}"
KIWI_AMQP_PORT="${KIWI_AMQP_PORT:-55672}"
KIWI_AMQP_DIST_PORT="${KIWI_AMQP_DIST_PORT:-55673}"
KIWI_EPMD_PORT="${KIWI_EPMD_PORT:-54369}"
KIWI_RABBITMQ_METRICS_PORT="${KIWI_RABBITMQ_METRICS_PORT:-55692}"
KIWI_PROMETHEUS_PORT="${KIWI_PROMETHEUS_PORT:-9190}"

KIWI_DATABASE_URL="postgres://kiwi:kiwi@$KIWI_INFRA_ADDRESS:$KIWI_POSTGRES_PORT/kiwi?sslmode=disable"
KIWI_AMQP_URL="amqp://kiwi:kiwi@$KIWI_INFRA_ADDRESS:$KIWI_AMQP_PORT/%2F"

log() { printf 'kiwi: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Runs a command as the given system user when we are root (PostgreSQL refuses to run as root;
# RabbitMQ's files belong to its own user), and as ourselves otherwise.
as_service_user() {
    local user="$1"; shift
    if is_root; then
        runuser -u "$user" -- "$@"
    else
        "$@"
    fi
}

# Creates a folder owned by the service user (root) or by us (anyone else).
service_dir() {
    local user="$1" dir="$2"
    mkdir -p "$dir"
    if is_root; then chown -R "$user:" "$dir"; fi
}

# The folder where a service keeps its data. It is under .run/ unless we are root and the
# service user cannot reach the checkout (a clone under /root, say); then it is under
# /var/tmp, in a folder named after KIWI_RUN so two checkouts (or a checkout and its drill) never share one.
data_root() {
    local user="$1"
    if ! is_root || runuser -u "$user" -- test -x "$KIWI_ROOT" 2>/dev/null; then
        echo "$KIWI_RUN"
    else
        echo "/var/tmp/kiwi-$(printf '%s' "$KIWI_RUN" | sha256sum | cut -c1-12)"
    fi
}

# True when a process with this pid is alive and its command line mentions the pattern
# (so a stale pid file whose number was reused by an unrelated process reads as "not running").
pid_matches() {
    local pid="$1" pattern="$2"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$pattern"
}

port_open() { (exec 3<>"/dev/tcp/$KIWI_INFRA_ADDRESS/$1") 2>/dev/null; }

# Starts whichever of the named components (postgres, rabbitmq) is not running yet, remembering which,
# so that stop_started_infrastructure stops only what this run started and reuses what was there.
start_missing_infrastructure() {
    local component
    KIWI_STARTED_INFRA=()
    for component in "$@"; do
        "$KIWI_ROOT/deploy/local/infra.sh" status "$component" >/dev/null || KIWI_STARTED_INFRA+=("$component")
    done
    "$KIWI_ROOT/deploy/local/infra.sh" up "$@"
}

stop_started_infrastructure() {
    if [ ${#KIWI_STARTED_INFRA[@]} -gt 0 ]; then "$KIWI_ROOT/deploy/local/infra.sh" down "${KIWI_STARTED_INFRA[@]}"; fi
}

# Installs missing packages and starts the named infrastructure (postgres, rabbitmq) unless it already runs;
# what this starts is stopped again when the calling script exits. For make test and the benchmarks.
use_local_infrastructure() {
    "$KIWI_ROOT/deploy/local/install-packages.sh"
    KIWI_STARTED_INFRA=()
    trap stop_started_infrastructure EXIT
    start_missing_infrastructure "$@"
}

# The local environment of the services: development mode, the local stack's PostgreSQL and RabbitMQ, a per-checkout
# internal token, and the development Apple key made by `$KIWI_BIN/kiwi dev-keys` (README "Configuration").
# The Python of the fake APNs (Tools/fake-apns), in a virtualenv of its own under .run/ with the packages its
# requirements.txt pins: installed once, and again when a pin changes. `make run` and `make test` use it.
fake_apns_python() {
    local venv="$KIWI_RUN/fake-apns-venv" requirements="$KIWI_ROOT/Tools/fake-apns/requirements.txt"
    if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null; then
        rm -rf "$venv"
        python3 -m venv "$venv" >&2
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
        cp "$requirements" "$venv/requirements.txt"
    fi
    echo "$venv/bin/python"
}

# The fake APNs's throw-away keys for `make run`, made once into .run/fake-apns/: its TLS certificate and the CA that
# signed it, and the signing key the notifier makes provider tokens with (nothing of Apple's).
fake_apns_keys() {
    local keys="$KIWI_RUN/fake-apns"
    [ -s "$keys/auth-key.p8" ] || "$(fake_apns_python)" "$KIWI_ROOT/Tools/fake-apns/make_test_certs.py" "$keys" >&2
    echo "$keys"
}

local_environment() {
    local token_file="$KIWI_RUN/internal-api-token"
    if [ ! -s "$token_file" ]; then
        mkdir -p "$KIWI_RUN"
        (umask 077; head -c 32 /dev/urandom | base64 | tr -d '/+=\n' > "$token_file")
    fi
    export KIWI_ENV=development
    export LOG_LEVEL="${LOG_LEVEL:-info}"
    export DATABASE_URL="$KIWI_DATABASE_URL"
    export AMQP_URL="$KIWI_AMQP_URL"
    export INTERNAL_API_TOKEN="${INTERNAL_API_TOKEN:-$(cat "$token_file")-local-development-token}"
    export QUOTA_KEY_SECRET="${QUOTA_KEY_SECRET:-$(cat "$token_file")-local-development-quota-key}"
    export AUTH_SERVICE_URL="http://127.0.0.1:8081"
    export APPLE_CLIENT_ID="${APPLE_CLIENT_ID:-app.kiwi.ios,app.kiwi.web}"
    export OPENAI_API_KEY="${OPENAI_API_KEY:-sk-local-stub}"
    # The local OpenAI stand-in (kiwi-llm-stub); point OPENAI_BASE_URL elsewhere to use the real API.
    export OPENAI_BASE_URL="${OPENAI_BASE_URL:-http://127.0.0.1:8089/v1}"
    # A local stand-in for Apple's signing key, which `kiwi dev-token` signs with (development mode only).
    APPLE_JWKS_FILE="$("$KIWI_BIN/kiwi" dev-keys --key-directory "$KIWI_RUN/dev-apple")"
    export APPLE_JWKS_FILE
    export SCAN_DAILY_LIMIT="${SCAN_DAILY_LIMIT:-4}"
    # The notifier sends to the local fake APNs (services.sh), trusting its test certificate.
    local apns_keys
    apns_keys="$(fake_apns_keys)"
    export APNS_TEAM_ID=KIWIDEV001 APNS_KEY_ID=KIWIDEV002
    APNS_KEY="$(cat "$apns_keys/auth-key.p8")"
    export APNS_KEY
    export APNS_PRODUCTION_URL=https://127.0.0.1:2197 APNS_SANDBOX_URL=https://127.0.0.1:2197
    export APNS_CA_FILE="$apns_keys/ca.pem"
}
