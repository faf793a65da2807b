#!/usr/bin/env bash
# `make drill`: Kiwi across several hosts on one machine, its links cut, slowed and frozen while scans run
# (docs/operations.md, "Partition drills"). Root only: it makes network namespaces.
#
# Each host is a network namespace, `kiwi-drill-<host>`, joined to the others by a veth pair on a bridge that lives in
# a namespace of its own (`kiwi-drill-net`), so nothing is added to or changed in the machine's own network. PostgreSQL
# (a primary on postgres-1 and its synchronous standby on postgres-2, the services reaching whichever is primary at
# the database address, which moves with a promotion) and a three-node RabbitMQ cluster (rabbitmq-1…3) get fresh data
# under .run/drill/. The drill tests (NetworkDrillTests) run on the client host and start
# the services, each on its own host, from the binaries `make test` builds. Everything is torn down when the drill ends,
# however it ends.
#   usage: drill.sh [DRILL]  (all drills, or those whose test name DRILL, a regular expression, matches from its start:
#                            brokerFrozen, '.*Database'; a DRILL that matches none fails)
#          drill.sh up     (only make the hosts, with PostgreSQL and RabbitMQ, and leave them for exploring)
#          drill.sh down   (tear down what is left)
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

prefix=kiwi-drill-
bridge_namespace="${prefix}net"
subnet=10.211.0
hosts=(postgres-1:10 postgres-2:15 rabbitmq-1:11 rabbitmq-2:13 rabbitmq-3:14 auth:12 gateway-1:21 gateway-2:22 worker-1:31 worker-2:32 stub:40 client:50)
drill_run="$KIWI_RUN/drill"
# The database's address: held by the primary's host, moved to the standby's when it is promoted (NetworkDrillTests).
database_address="$subnet.9"
database_hosts=(postgres-1 postgres-2)

address_of() {
    local entry
    [ "$1" = postgres ] && { echo "$database_address"; return; }
    for entry in "${hosts[@]}"; do [ "${entry%%:*}" = "$1" ] && { echo "$subnet.${entry#*:}"; return; }; done
    die "no drill host $1"
}

# Runs a command on a drill host.
on() { local host="$1"; shift; ip netns exec "$prefix$host" "$@"; }

rabbitmq_hosts=(rabbitmq-1 rabbitmq-2 rabbitmq-3)
# The cluster's node addresses, the first the node the others join (infra.sh, KIWI_RABBITMQ_CLUSTER).
rabbitmq_cluster="$(for host in "${rabbitmq_hosts[@]}"; do address_of "$host"; done | xargs)"

# Runs `infra.sh COMMAND…` on `host`, with the drill's data, the host's address, the cluster's nodes and the database's
# replication (NetworkDrillTests runs it the same way).
infra_on() {
    local host="$1"; shift
    on "$host" env KIWI_RUN="$drill_run" KIWI_INFRA_ADDRESS="$(address_of "$host")" KIWI_INFRA_CLIENTS="$subnet.0/24" \
        KIWI_RABBITMQ_CLUSTER="$rabbitmq_cluster" KIWI_POSTGRES_REPLICATION=1 "$here/infra.sh" "$@"
}

# Kills whatever still runs on the drill's hosts and deletes them; safe to run when nothing is there.
down() {
    local namespace pids
    # PostgreSQL and RabbitMQ are stopped in order first, when their hosts are still there.
    for host in "${database_hosts[@]}"; do
        if ip netns list | grep -q "^$prefix$host\b"; then infra_on "$host" down postgres >/dev/null 2>&1 || true; fi
    done
    for host in "${rabbitmq_hosts[@]}"; do
        if ip netns list | grep -q "^$prefix$host\b"; then infra_on "$host" down rabbitmq >/dev/null 2>&1 & fi
    done
    wait
    for namespace in $(ip netns list | awk '{print $1}' | grep "^$prefix" || true); do
        pids="$(ip netns pids "$namespace" || true)"
        if [ -n "$pids" ]; then kill -9 $pids 2>/dev/null || true; fi
        ip netns delete "$namespace"
    done
}

up() {
    local entry host address
    ip netns add "$bridge_namespace"
    ip netns exec "$bridge_namespace" ip link add kiwi-drill type bridge
    ip netns exec "$bridge_namespace" ip link set kiwi-drill up
    for entry in "${hosts[@]}"; do
        host="${entry%%:*}"; address="$subnet.${entry#*:}"
        ip netns add "$prefix$host"
        ip netns exec "$bridge_namespace" ip link add "v-$host" type veth peer name eth0 netns "$prefix$host"
        ip netns exec "$bridge_namespace" ip link set "v-$host" master kiwi-drill up
        on "$host" ip addr add "$address/24" dev eth0
        on "$host" ip link set eth0 up
        on "$host" ip link set lo up
    done
    rm -rf "$drill_run" "$(KIWI_RUN="$drill_run" data_root postgres)" "$(KIWI_RUN="$drill_run" data_root rabbitmq)"
    # All at once: the nodes' Erlang VMs boot side by side, and the second and third join the first when it is up.
    local pids=() pid
    for host in "${rabbitmq_hosts[@]}"; do infra_on "$host" up rabbitmq & pids+=($!); done
    # The primary, then its standby copied from it; the primary's host takes the database's address.
    infra_on postgres-1 up postgres || die "the drill's PostgreSQL primary did not start"
    KIWI_POSTGRES_PRIMARY="$(address_of postgres-1)" infra_on postgres-2 up postgres || die "the drill's PostgreSQL standby did not start"
    on postgres-1 ip addr add "$database_address/24" dev eth0
    for pid in "${pids[@]}"; do wait "$pid" || die "the drill's RabbitMQ did not start"; done
}

if ! is_root; then
    log "make drill needs root: it makes network namespaces and firewall rules. Skipped."
    exit 0
fi
case "${1:-}" in
    down) down; exit 0 ;;
    up) "$here/install-packages.sh" iproute2 iptables iputils-arping; down; up; exit 0 ;;
esac

"$here/install-packages.sh" iproute2 iptables iputils-arping
# Root in a container may still be refused namespaces or a firewall: say so plainly instead of failing half-way.
probe="${prefix}probe"
if ! { ip netns add "$probe" && ip netns exec "$probe" iptables -S >/dev/null; } 2>/dev/null; then
    ip netns delete "$probe" 2>/dev/null || true
    log "make drill: this machine does not let root make network namespaces with a firewall (ip netns, iptables). Skipped."
    exit 0
fi
ip netns delete "$probe"
cd "$KIWI_ROOT"
swift build --build-tests
trap down EXIT
trap 'exit 130' INT TERM
down
up
mkdir -p "$drill_run"
results="$drill_run/results.tsv"
printf 'fault\tlasted\tstarted\tsucceeded\tfailed\tcharged\tlost\tduplicated\tunexpected\tunfinished\tanswered outside the fault\tfirst success after healing\tunready after\tall ready after healing\tavailability gap\n' > "$results"
host_list=""
for entry in "${hosts[@]}"; do host_list+="${entry%%:*}=$subnet.${entry#*:} "; done
host_list+="postgres=$database_address"
status=0
# `env` passes on what the caller set too: KIWI_DRILL_FAULT_SECONDS, KIWI_DRILL_SCANS, KIWI_DRILL_SET_<SETTING>.
on client env KIWI_TEST_DATABASE_URL="postgres://kiwi:kiwi@$(address_of postgres):$KIWI_POSTGRES_PORT/kiwi?sslmode=disable" \
    KIWI_TEST_AMQP_URL="amqp://kiwi:kiwi@$(address_of rabbitmq-1):$KIWI_AMQP_PORT/%2F" KIWI_DRILL_HOSTS="$host_list" KIWI_DRILL_NAMESPACE_PREFIX="$prefix" KIWI_DRILL_RESULTS="$results" \
    KIWI_DRILL_RABBITMQ_CLUSTER="$rabbitmq_cluster" KIWI_DRILL_AMQP_PORT="$KIWI_AMQP_PORT" KIWI_DRILL_RUN="$drill_run" \
    timeout --kill-after=10 2400 swift test --skip-build --filter "NetworkDrillTests/${1:-}" 2>&1 | tee "$drill_run/tests.log" ||
    status=$?
# A filter that matches no drill would otherwise pass, having checked nothing.
if [ "$status" = 0 ] && grep -q "Test run with 0 tests" "$drill_run/tests.log"; then
    log "make drill: no drill matches '${1:-}' (a regular expression after NetworkDrillTests/, e.g. '.*Database')."
    status=1
fi
echo
echo "Partition drills (lost and duplicated must be 0, answered outside the fault at least 95 %; see docs/operations.md):"
column -t -s $'\t' "$results" 2>/dev/null || cat "$results"
exit "$status"
