#!/usr/bin/env bash
# Starts, stops and reports the local PostgreSQL and RabbitMQ, each a process of its own user
# with its data under .run/.   usage: infra.sh up|down|status [postgres] [rabbitmq]
#                               (with KIWI_RABBITMQ_CLUSTER set, `rabbitmq` is this host's node of a cluster, below)
#                               infra.sh clean (stop both and delete their data)
#                               infra.sh close-connections NAME-PATTERN
#                               infra.sh memory-alarm on|off
#                               infra.sh delete-queues PREFIX (every queue whose name starts with PREFIX)
#                               infra.sh drop-databases PREFIX (every database whose name starts with PREFIX)
#                               infra.sh pids (NAME=PID of each running server, for the load test's CPU figures)
#                               infra.sh queue-leader QUEUE (the node that leads a quorum queue, rabbit@<address>)
#                               infra.sh await-safe-stop (until stopping this node of a cluster leaves every quorum
#                                   queue a majority: each has another member online and in sync)
#   With KIWI_POSTGRES_REPLICATION set (the drills' two database hosts), `postgres` is this host's server of a primary
#   and a synchronous standby: it starts as a copy of the server at KIWI_POSTGRES_PRIMARY when that is set, else as
#   the primary. Each host keeps its data apart (postgres-<address>) and listens on every address it holds, so the
#   service address can move to it.
#                               infra.sh promote (this standby becomes the primary)
#                               infra.sh follow PRIMARY (this server, stopped or crashed, rejoins as a standby of
#                                   PRIMARY, rewound to where their histories parted)
#                               infra.sh synchronous on|off (whether commits wait for a standby)
#                               infra.sh role (primary, standby or stopped)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# The servers started here outlive this script: they must not keep its caller's descriptors open. A caller that waits
# for one to close (Foundation's Process, in the drills' tests, watches a socket its child inherits) would otherwise
# wait for the server to stop. (255 is the script itself, which bash reads as it goes.)
for descriptor in /proc/$$/fd/*; do
    descriptor="${descriptor##*/}"
    if [ "$descriptor" -gt 2 ] && [ "$descriptor" -ne 255 ]; then eval "exec $descriptor>&-" 2>/dev/null || true; fi
done

# MARK: PostgreSQL

pg_bin() {
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$dir" ] || die "PostgreSQL is not installed (run deploy/local/install-packages.sh)"
    echo "$dir"
}
if [ -n "${KIWI_POSTGRES_REPLICATION:-}" ]; then
    pg_base() { echo "$(data_root postgres)/postgres-$KIWI_INFRA_ADDRESS"; }
    pg_listen='*'
else
    pg_base() { echo "$(data_root postgres)/postgres"; }
    pg_listen="$KIWI_INFRA_ADDRESS"
fi
pg_ctl_as() { as_service_user postgres "$(pg_bin)/pg_ctl" -D "$(pg_base)/data" "$@"; }

postgres_running() { [ -f "$(pg_base)/data/PG_VERSION" ] && pg_ctl_as status >/dev/null 2>&1; }

postgres_up() {
    local base; base="$(pg_base)"
    if postgres_running; then log "PostgreSQL already running on $KIWI_INFRA_ADDRESS:$KIWI_POSTGRES_PORT"; return; fi
    service_dir postgres "$base"
    if [ ! -f "$base/data/PG_VERSION" ] && [ -n "${KIWI_POSTGRES_PRIMARY:-}" ]; then
        postgres_copy_primary "$KIWI_POSTGRES_PRIMARY"
    elif [ ! -f "$base/data/PG_VERSION" ]; then
        log "creating the PostgreSQL cluster in $base/data"
        rm -rf "$base/data"
        printf 'kiwi\n' > "$base/password"
        service_dir postgres "$base"
        as_service_user postgres "$(pg_bin)/initdb" -D "$base/data" -U kiwi --pwfile="$base/password" \
            --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$base/initdb.log" 2>&1 \
            || { cat "$base/initdb.log" >&2; die "initdb failed"; }
        cat >>"$base/data/postgresql.conf" <<CONF
port = $KIWI_POSTGRES_PORT
listen_addresses = '$pg_listen'
unix_socket_directories = '$base'
max_connections = 300
CONF
        # Other hosts may connect when KIWI_INFRA_CLIENTS names their network (the drill's hosts do).
        if [ -n "${KIWI_INFRA_CLIENTS:-}" ]; then
            echo "host all all $KIWI_INFRA_CLIENTS scram-sha-256" >>"$base/data/pg_hba.conf"
        fi
        if [ -n "${KIWI_POSTGRES_REPLICATION:-}" ]; then
            # Hint bits are logged so that a crashed primary can be rewound (pg_rewind) and rejoin as a standby; WAL
            # is kept for a standby that falls behind. Commits wait for a standby once the database exists (below).
            cat >>"$base/data/postgresql.conf" <<CONF
synchronous_commit = on
wal_log_hints = on
wal_keep_size = '512MB'
CONF
            echo "host replication kiwi $KIWI_INFRA_CLIENTS scram-sha-256" >>"$base/data/pg_hba.conf"
        fi
    fi
    # A postmaster.pid left by a killed server is detected and replaced by PostgreSQL itself.
    pg_ctl_as -l "$base/server.log" -w -t 60 start >/dev/null || { tail -n 20 "$base/server.log" >&2; die "PostgreSQL did not start"; }
    if ! PGPASSWORD=kiwi psql -h "$KIWI_INFRA_ADDRESS" -p "$KIWI_POSTGRES_PORT" -U kiwi -d postgres -tAc \
        "select 1 from pg_database where datname = 'kiwi'" | grep -q 1; then
        PGPASSWORD=kiwi psql -q -h "$KIWI_INFRA_ADDRESS" -p "$KIWI_POSTGRES_PORT" -U kiwi -d postgres -c 'create database kiwi'
        # A commit now returns only once a standby has flushed it ('*': whichever standby is connected), so a
        # promoted standby holds every commit a client was told of. Standbys copy the setting with the data.
        if [ -n "${KIWI_POSTGRES_REPLICATION:-}" ]; then postgres_synchronous on; fi
    fi
    log "PostgreSQL ready on $KIWI_INFRA_ADDRESS:$KIWI_POSTGRES_PORT"
}

# The data of a new standby: a base backup of PRIMARY streamed as it is taken, set to follow PRIMARY when started.
postgres_copy_primary() {
    local primary="$1" base; base="$(pg_base)"
    log "copying the PostgreSQL primary at $primary:$KIWI_POSTGRES_PORT into $base/data"
    rm -rf "$base/data"
    printf 'kiwi\n' > "$base/password"
    service_dir postgres "$base"
    as_service_user postgres env PGPASSWORD=kiwi "$(pg_bin)/pg_basebackup" -D "$base/data" -X stream -R -c fast \
        -d "$(postgres_conninfo "$primary")" >"$base/basebackup.log" 2>&1 \
        || { cat "$base/basebackup.log" >&2; die "pg_basebackup from $primary failed"; }
    postgres_keep_own_socket
}

# The copied configuration names the other host's socket folder: the last setting in the file wins.
postgres_keep_own_socket() {
    echo "unix_socket_directories = '$(pg_base)'" >>"$(pg_base)/data/postgresql.conf"
}

# How a standby on this host reaches PRIMARY; its application_name is this host's address.
postgres_conninfo() {
    echo "host=$1 port=$KIWI_POSTGRES_PORT user=kiwi password=kiwi application_name=$KIWI_INFRA_ADDRESS"
}

postgres_sql() {
    PGPASSWORD=kiwi psql -q -X -v ON_ERROR_STOP=1 -h "$KIWI_INFRA_ADDRESS" -p "$KIWI_POSTGRES_PORT" -U kiwi -d postgres -tAc "$1"
}

postgres_role() {
    if ! postgres_running; then echo stopped; return; fi
    case "$(postgres_sql 'select pg_is_in_recovery()')" in t) echo standby ;; *) echo primary ;; esac
}

postgres_promote() {
    pg_ctl_as -w -t 60 promote >/dev/null || die "the standby was not promoted"
    log "PostgreSQL on $KIWI_INFRA_ADDRESS promoted to primary"
}

# Turns this server, crashed or stopped, into a standby of PRIMARY. A crashed one first replays its own WAL (a
# single-user start that ends cleanly, as pg_rewind requires), then loses whatever it wrote after the histories parted.
postgres_follow() {
    local primary="$1" base; base="$(pg_base)"
    postgres_down
    if ! as_service_user postgres "$(pg_bin)/pg_controldata" -D "$base/data" | grep -q 'shut down$'; then
        as_service_user postgres "$(pg_bin)/postgres" --single -D "$base/data" -c config_file="$base/data/postgresql.conf" \
            postgres </dev/null >"$base/recovery.log" 2>&1 || { tail -n 20 "$base/recovery.log" >&2; die "crash recovery failed"; }
    fi
    # A promoted standby writes its new timeline to its control file only at its next checkpoint, and pg_rewind reads
    # the timeline there: without one it finds the histories alike, rewinds nothing, and the server cannot follow.
    PGPASSWORD=kiwi psql -q -X -h "$primary" -p "$KIWI_POSTGRES_PORT" -U kiwi -d postgres -c checkpoint >/dev/null \
        || die "the primary at $primary did not take a checkpoint"
    as_service_user postgres env PGPASSWORD=kiwi "$(pg_bin)/pg_rewind" -D "$base/data" -R \
        --source-server="$(postgres_conninfo "$primary") dbname=postgres" >"$base/rewind.log" 2>&1 \
        || { cat "$base/rewind.log" >&2; die "pg_rewind from $primary failed"; }
    postgres_keep_own_socket
    postgres_up
    log "PostgreSQL on $KIWI_INFRA_ADDRESS follows $primary"
}

# Whether the primary's commits wait for a standby. Off is what a failover tool does when the standby is lost, so
# that the primary keeps taking writes (with nothing to fail over to until a standby is back).
postgres_synchronous() {
    local names
    case "$1" in on) names="'*'" ;; off) names="''" ;; *) die "usage: infra.sh synchronous on|off" ;; esac
    postgres_sql "alter system set synchronous_standby_names = $names" >/dev/null
    postgres_sql 'select pg_reload_conf()' >/dev/null
}

postgres_down() {
    if postgres_running; then pg_ctl_as -m fast -w -t 60 stop >/dev/null; log "PostgreSQL stopped"; fi
}

# Drops every database whose name starts with PREFIX: the suite's temporary databases (kiwi_test_…), which it leaves
# behind because each DROP DATABASE forces an immediate checkpoint of the whole cluster (Tests/Support/Postgres.swift).
postgres_drop_databases() {
    local prefix="$1"
    case "$prefix" in "" | *[!a-z0-9_]*) die "drop-databases: the prefix may hold only lower-case letters, digits and '_'" ;; esac
    # One psql: \gexec runs each generated DROP on its own (DROP DATABASE cannot run inside a transaction).
    PGPASSWORD=kiwi psql -q -v ON_ERROR_STOP=1 -h "$KIWI_INFRA_ADDRESS" -p "$KIWI_POSTGRES_PORT" -U kiwi -d postgres >/dev/null <<SQL
select format('drop database if exists %I with (force)', datname) from pg_database where starts_with(datname, '$prefix') \gexec
SQL
}

# MARK: RabbitMQ

# KIWI_RABBITMQ_CLUSTER, the addresses of a cluster's nodes separated by spaces (`make drill` sets it), makes the node
# on KIWI_INFRA_ADDRESS one of them: named rabbit@<address> (long names: no DNS needed), with the cookie they share, its
# data in a folder of its own, and pausing itself when it sees no majority (pause_minority). The first address is the
# node the others join when they start for the first time. Unset, the node is alone: kiwi@localhost (make run, tests).
cluster_nodes=(${KIWI_RABBITMQ_CLUSTER:-})
if [ ${#cluster_nodes[@]} -gt 0 ]; then
    rmq_node="rabbit@$KIWI_INFRA_ADDRESS"
    rmq_base() { echo "$(data_root rabbitmq)/rabbitmq-$KIWI_INFRA_ADDRESS"; }
else
    rmq_node=kiwi@localhost
    rmq_base() { echo "$(data_root rabbitmq)/rabbitmq"; }
fi

# Runs a RabbitMQ program with the environment of the local node (as the rabbitmq user when we are root).
# With --own-session it runs in a new session, away from the terminal's signals.
rmq() {
    local base launcher=()
    if [ "$1" = "--own-session" ]; then launcher=(setsid); shift; fi
    if is_root; then launcher+=(runuser -u rabbitmq --); fi
    local program="$1"; shift
    base="$(rmq_base)"
    # Its own working folder: the checkout may be closed to the rabbitmq user, and Erlang reads its working folder.
    # runuser's PAM session lowers the soft limit of open files to 1024, and the broker needs a descriptor per
    # connection and per queue file: it gets its hard limit (RabbitMQ's production checklist asks for 65,536).
    "${launcher[@]}" sh -c 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"' sh env -C "$base" \
        HOME="$base/home" \
        RABBITMQ_NODENAME="$rmq_node" \
        RABBITMQ_USE_LONGNAME="$([ ${#cluster_nodes[@]} -gt 0 ] && echo true || echo false)" \
        RABBITMQ_NODE_IP_ADDRESS="$KIWI_INFRA_ADDRESS" \
        RABBITMQ_NODE_PORT="$KIWI_AMQP_PORT" \
        RABBITMQ_DIST_PORT="$KIWI_AMQP_DIST_PORT" \
        ERL_EPMD_PORT="$KIWI_EPMD_PORT" \
        ERL_EPMD_ADDRESS="127.0.0.1$([ ${#cluster_nodes[@]} -gt 0 ] && echo ",$KIWI_INFRA_ADDRESS")" \
        RABBITMQ_CONF_ENV_FILE="$base/rabbitmq-env.conf" \
        RABBITMQ_CONFIG_FILE="$base/rabbitmq.conf" \
        RABBITMQ_ADVANCED_CONFIG_FILE="$base/advanced.config" \
        RABBITMQ_ENABLED_PLUGINS_FILE="$base/enabled_plugins" \
        RABBITMQ_MNESIA_BASE="$base/mnesia" \
        RABBITMQ_LOG_BASE="$base/log" \
        RABBITMQ_PID_FILE="$base/rabbitmq.pid" \
        "/usr/lib/rabbitmq/bin/$program" "$@"
}

rabbitmq_running() {
    local base; base="$(rmq_base)"
    [ -f "$base/rabbitmq.pid" ] && pid_matches "$(cat "$base/rabbitmq.pid")" "$base/home" && port_open "$KIWI_AMQP_PORT"
}

rabbitmq_up() {
    local base; base="$(rmq_base)"
    if rabbitmqctl_ok; then log "RabbitMQ already running on $KIWI_INFRA_ADDRESS:$KIWI_AMQP_PORT"; return; fi
    [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || die "RabbitMQ is not installed (run deploy/local/install-packages.sh)"
    # A node of a cluster that has never run joins the first node once it has started.
    local joining=false
    if [ ${#cluster_nodes[@]} -gt 0 ] && [ "${cluster_nodes[0]}" != "$KIWI_INFRA_ADDRESS" ] && [ -z "$(ls -A "$base/mnesia" 2>/dev/null)" ]; then
        joining=true
    fi
    mkdir -p "$base/home" "$base/mnesia" "$base/log"
    rm -f "$base/rabbitmq.pid"
    : > "$base/rabbitmq-env.conf"
    # rabbitmq_prometheus serves the queues' depth and consumers to the local Prometheus (deploy/local/prometheus.sh).
    echo '[rabbitmq_prometheus].' > "$base/enabled_plugins"
    cat > "$base/rabbitmq.conf" <<CONF
listeners.tcp.default = $KIWI_INFRA_ADDRESS:$KIWI_AMQP_PORT
prometheus.tcp.ip = $KIWI_INFRA_ADDRESS
prometheus.tcp.port = $KIWI_RABBITMQ_METRICS_PORT
default_user = kiwi
default_pass = kiwi
loopback_users = none
disk_free_limit.absolute = 50MB
log.console = false
log.file.level = warning
CONF
    if [ ${#cluster_nodes[@]} -gt 0 ]; then
        echo "cluster_partition_handling = pause_minority" >> "$base/rabbitmq.conf"
        rm -f "$base/home/.erlang.cookie"
        rabbitmq_cluster_cookie > "$base/home/.erlang.cookie"
    fi
    service_dir rabbitmq "$base"
    chmod 700 "$base/home"
    if [ -f "$base/home/.erlang.cookie" ]; then chmod 400 "$base/home/.erlang.cookie"; fi
    # In a session of its own (as pg_ctl gives PostgreSQL), so that Ctrl-C in the terminal reaches only
    # our scripts, which then shut the broker down in order.
    rmq --own-session rabbitmq-server >"$base/server.log" 2>&1 </dev/null &
    local deadline=$((SECONDS + 90))
    until rmq rabbitmqctl -q await_startup --timeout 5 >/dev/null 2>&1 && port_open "$KIWI_AMQP_PORT"; do
        if [ $SECONDS -ge $deadline ]; then tail -n 30 "$base/server.log" >&2; die "RabbitMQ did not start"; fi
        sleep 1
    done
    if [ "$joining" = true ]; then rabbitmq_join "rabbit@${cluster_nodes[0]}" "$deadline"; fi
    log "RabbitMQ $rmq_node ready on $KIWI_INFRA_ADDRESS:$KIWI_AMQP_PORT"
}

# The Erlang cookie the nodes of the cluster share: made once, at random, in their common data folder (the first node
# to start writes it; the others, started at the same time, read what it wrote).
rabbitmq_cluster_cookie() {
    local file candidate
    file="$(data_root rabbitmq)/rabbitmq-cluster.cookie"
    if [ ! -s "$file" ]; then
        mkdir -p "$(dirname "$file")"
        candidate="$file.$$"
        (umask 077; head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > "$candidate")
        ln "$candidate" "$file" 2>/dev/null || true
        rm -f "$candidate"
    fi
    cat "$file"
}

# Joins the started node to the cluster of `seed` (rabbitmqctl stop_app, join_cluster, start_app), waiting for the seed
# until `deadline` (in $SECONDS): the nodes start at the same time, and the seed may not be up yet.
rabbitmq_join() {
    local seed="$1" deadline="$2" base; base="$(rmq_base)"
    rmq rabbitmqctl -q stop_app >/dev/null
    until rmq rabbitmqctl -q join_cluster "$seed" >>"$base/join.log" 2>&1; do
        if [ $SECONDS -ge $deadline ]; then tail -n 20 "$base/join.log" >&2; die "RabbitMQ $rmq_node could not join $seed"; fi
        sleep 1
    done
    rmq rabbitmqctl -q start_app >/dev/null
    until rmq rabbitmqctl -q await_startup --timeout 5 >/dev/null 2>&1 && port_open "$KIWI_AMQP_PORT"; do
        if [ $SECONDS -ge $deadline ]; then tail -n 30 "$base/server.log" >&2; die "RabbitMQ $rmq_node did not start in the cluster"; fi
        sleep 1
    done
}

rabbitmqctl_ok() { rabbitmq_running && rmq rabbitmqctl -q await_startup --timeout 5 >/dev/null 2>&1; }

rabbitmq_down() {
    local base pid_file pid; base="$(rmq_base)"; pid_file="$base/rabbitmq.pid"
    if rabbitmq_running; then
        pid="$(cat "$pid_file")"
        rmq rabbitmqctl -q shutdown --timeout 60 >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 60); do pid_matches "$pid" "$base/home" || break; sleep 1; done
        log "RabbitMQ stopped"
    fi
    # The Erlang port mapper daemon that the node started outlives it; it is ours, on our port.
    if [ -x /usr/bin/epmd ] || command -v epmd >/dev/null 2>&1; then
        as_service_user rabbitmq env ERL_EPMD_PORT="$KIWI_EPMD_PORT" epmd -kill >/dev/null 2>&1 || true
    fi
    rm -f "$pid_file"
}

# Closes, from the broker's side, every connection whose client-provided name contains the pattern:
# what a broker restart or an operator's `rabbitmqctl close_connection` does to a client. Tests use it.
# One rabbitmqctl call for all of them: each call starts an Erlang VM, which takes seconds on a busy machine. A
# connection that is still opening (no client properties yet) is no match, and one that closed on its own meanwhile
# no error; a call that fails all the same (the node busy) is tried again.
rabbitmq_close_connections() {
    local pattern="$1" attempt
    case "$pattern" in *[!A-Za-z0-9._-]*) die "close-connections: the pattern may hold only letters, digits, '.', '_' and '-'" ;; esac
    for attempt in 1 2 3; do
        if rmq rabbitmqctl -q eval "
            Matches = fun(Info) ->
                case proplists:get_value(client_properties, Info) of
                    Properties when is_list(Properties) ->
                        case lists:keyfind(<<\"connection_name\">>, 1, Properties) of
                            {_, longstr, Name} -> binary:match(Name, <<\"$pattern\">>) =/= nomatch;
                            _ -> false
                        end;
                    _ -> false
                end
            end,
            [catch rabbit_networking:close_connection(proplists:get_value(pid, Info), \"closed by the Kiwi test suite\")
             || Info <- rabbit_networking:connection_info_all([pid, client_properties]), Matches(Info)],
            ok." >/dev/null; then
            return 0
        fi
        log "close-connections: rabbitmqctl failed (attempt $attempt of 3)"
        sleep 1
    done
    return 1
}

# Deletes every queue whose name starts with PREFIX, in one call: the suite's rigs declare queues of their own
# (kiwi.test.…), which would otherwise pile up in a broker that outlives the run, each an idle Erlang process.
rabbitmq_delete_queues() {
    local prefix="$1"
    case "$prefix" in "" | *[!A-Za-z0-9._-]*) die "delete-queues: the prefix may hold only letters, digits, '.', '_' and '-'" ;; esac
    rmq rabbitmqctl -q eval "
        Prefix = <<\"$prefix\">>,
        length([catch rabbit_amqqueue:delete(Queue, false, false, <<\"kiwi-test-suite\">>)
                || Queue <- rabbit_amqqueue:list(),
                   binary:longest_common_prefix([element(4, amqqueue:get_name(Queue)), Prefix]) =:= byte_size(Prefix)])."
}

# Raises (on) or clears (off) a memory alarm: the broker then blocks every publishing connection (connection.blocked),
# as it does when memory runs short. Used by the partition drills, on the drill's own broker.
rabbitmq_memory_alarm() {
    case "$1" in
        on)  rmq rabbitmqctl -q set_vm_memory_high_watermark absolute 1MB >/dev/null ;;
        off) rmq rabbitmqctl -q set_vm_memory_high_watermark 0.4 >/dev/null ;;
        *)   die "usage: infra.sh memory-alarm on|off" ;;
    esac
}

# MARK: main

if [ "${1:-}" = "clean" ]; then
    # Stops both, then deletes their data, wherever data_root put it for this checkout.
    postgres_down
    rabbitmq_down
    rm -rf "$(pg_base)" "$(rmq_base)"
    for user in postgres rabbitmq; do
        root="$(data_root "$user")"
        if [ "$root" != "$KIWI_RUN" ]; then rm -rf "$root"; fi
    done
    exit 0
fi

if [ "${1:-}" = "close-connections" ]; then
    [ -n "${2:-}" ] || die "usage: infra.sh close-connections NAME-PATTERN"
    rabbitmq_close_connections "$2"
    exit 0
fi

if [ "${1:-}" = "delete-queues" ]; then
    [ -n "${2:-}" ] || die "usage: infra.sh delete-queues PREFIX"
    rabbitmq_delete_queues "$2"
    exit 0
fi

if [ "${1:-}" = "drop-databases" ]; then
    [ -n "${2:-}" ] || die "usage: infra.sh drop-databases PREFIX"
    postgres_drop_databases "$2"
    exit 0
fi

if [ "${1:-}" = "memory-alarm" ]; then
    rabbitmq_memory_alarm "${2:-}"
    exit 0
fi

if [ "${1:-}" = "queue-leader" ]; then
    [ -n "${2:-}" ] || die "usage: infra.sh queue-leader QUEUE"
    rmq rabbitmqctl -q list_queues name leader --no-table-headers | awk -v queue="$2" '$1 == queue { print $2 }'
    exit 0
fi

if [ "${1:-}" = "await-safe-stop" ]; then
    rmq rabbitmq-upgrade -q await_online_quorum_plus_one --timeout 120 >/dev/null
    exit 0
fi

case "${1:-}" in
    promote) postgres_promote; exit 0 ;;
    follow) [ -n "${2:-}" ] || die "usage: infra.sh follow PRIMARY"; postgres_follow "$2"; exit 0 ;;
    synchronous) postgres_synchronous "${2:-}"; exit 0 ;;
    role) postgres_role; exit 0 ;;
esac

if [ "${1:-}" = "pids" ]; then
    # The postmaster (its backends are its children) and RabbitMQ's Erlang VM.
    if postgres_running; then echo "postgresql=$(head -n 1 "$(pg_base)/data/postmaster.pid")"; fi
    if rabbitmq_running; then echo "rabbitmq=$(cat "$(rmq_base)/rabbitmq.pid")"; fi
    exit 0
fi

command="${1:-}"; shift || true
components=("$@"); [ ${#components[@]} -eq 0 ] && components=(postgres rabbitmq)
for component in "${components[@]}"; do
    case "$component" in postgres|rabbitmq) ;; *) die "unknown component: $component" ;; esac
done

case "$command" in
    up)     for c in "${components[@]}"; do "${c}_up"; done ;;
    down)   for c in "${components[@]}"; do "${c}_down"; done ;;
    status) status=0
            for c in "${components[@]}"; do
                if "${c}_running"; then echo "$c: running"; else echo "$c: stopped"; status=3; fi
            done
            exit $status ;;
    *)      die "usage: infra.sh up|down|status [postgres] [rabbitmq]" ;;
esac
