#!/usr/bin/env bash
# `make bench`: scan throughput and latency through the whole system, measured by kiwi-loadtest (release build).
# Each scenario (docs/operations.md) runs on fresh processes — the OpenAI stub, auth, its gateways and scan workers —
# on ports of its own (18080-18089, 18111-18113 for more gateways and 18101-18110 for workers; metrics 19101-19102,
# 19111-19113 and 19201-19210), so a `make run` stack can stay up meanwhile.
#   bench.sh [A] [B] [C] [D] [S] [P] [T] [R] [H] [N] [F] [G] [W]  the scenarios to run (default: A to H, and N; P is meal
#                              plans; T is receipts; H is scans for households
#                              of one and of four, beside shopping lists changing; F, the floors, follows an A; G is
#                              the deployment's growth, 1, 2 and 4 gateways; W, A with each feature left out; N, push
#                              notifications through one notifier to a fake APNs).
#                              Tables on stdout; JSON, the services' metrics at the end of each scenario
#                              (ID-SERVICE.prom) and their logs in .run/bench/.
#   KIWI_BENCH_SERVICES=DIR    run the gateway, auth and scan workers from DIR instead (another build's release
#                              binaries), to compare two builds leg by leg on the same machine and load generator.
#   KIWI_BENCH_SECONDS=S       measure A, B, C and each round of S for S seconds instead of 60 (R's rounds: 30).
#   KIWI_BENCH_ROUNDS=N        S's rounds of each kind (streamed, whole), G's and H's of each size and W's of each leg,
#                              interleaved: 2 unless given (W: 3).
#   KIWI_BENCH_RATE=R          G's and H's scans started per second: 24 (half of A's rate on the 2-core machine) unless given.
#   KIWI_BENCH_ASYNC=1         G through the async API, each scan's event stream through another gateway than its POST.
#   KIWI_BENCH_DATABASE_URL=U  the services' DATABASE_URL, e.g. through tcp-relay.py: a network hop to PostgreSQL.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

use_local_infrastructure postgres rabbitmq

cd "$KIWI_ROOT"
for product in kiwi-gateway kiwi-auth kiwi-scan-worker kiwi-notifier kiwi-llm-stub kiwi kiwi-loadtest kiwi-stream-floor kiwi-floor-bench kiwi-gateway-floor \
    kiwi-worker-floor; do
    log "building $product (release)"
    swift build -c release --product "$product" >&2
done
KIWI_BIN="$KIWI_ROOT/.build/release"
BENCH_RUN="$KIWI_RUN/bench"
mkdir -p "$BENCH_RUN/logs"
# Scenarios C and D hold thousands of connections open in each of several processes.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || log "could not raise the open-file limit ($(ulimit -n)); scenario C may fail"

local_environment
export DATABASE_URL="${KIWI_BENCH_DATABASE_URL:-$DATABASE_URL}"
export AUTH_SERVICE_URL="http://127.0.0.1:18081"
export OPENAI_BASE_URL="http://127.0.0.1:18089/v1"
# Load-test users scan more than 4 times a day, but like people, not like one account scanning from every lane at once:
# with 20 a day each, a scenario's lanes belong to many people, as real scans do. (With 1,000 a day, every lane of A
# and B was one person's: their reservations queued on that person's lock, and each counted ~1,000 scans of the day.)
# The quota is still reserved and counted for every scan. KIWI_BENCH_DAILY_LIMIT=1000 measures the old way.
export SCAN_DAILY_LIMIT="${KIWI_BENCH_DAILY_LIMIT:-20}"
export SCAN_JOB_QUEUE="kiwi.bench.scan-jobs"

labels=()
pids=()

# Starts a Kiwi executable in the background, logging to .run/bench/logs/LABEL.log.
start() {
    local name="$1" label="$2"
    shift 2
    local bin="$KIWI_BIN"
    case "$name" in kiwi-gateway|kiwi-auth|kiwi-scan-worker) bin="${KIWI_BENCH_SERVICES:-$KIWI_BIN}" ;; esac
    "$bin/$name" "$@" >>"$BENCH_RUN/logs/$label.log" 2>&1 &
    labels+=("$label")
    pids+=("$!")
}

stop_all() {
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    labels=()
    pids=()
}
trap 'stop_all; stop_started_infrastructure' EXIT

wait_healthy() {
    local port="$1" deadline=$((SECONDS + 60))
    until curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$port/health"; do
        [ $SECONDS -lt $deadline ] || die "nothing healthy on port $port after 60 s; see $BENCH_RUN/logs/"
        sleep 0.2
    done
}

# How many gateways a scenario runs, each with the next port; only G sets more than one.
gateways=1

# The stub's streams: instant (all of an answer at once, after the scenario's latency) unless a scenario sets
# stub_pace=() for the stub's own pace, gpt-4o's.
stub_pace=(--time-to-first-token-ms 0 --tokens-per-second 0)
# The stub's other options for a scenario: T answers every receipt with the 30-line one.
stub_options=()

# N's notifier, beside a fake APNs: none (""), "running" with the other services, or "held": started to declare its queue,
# stopped while the load runs, and started again once it has ended, to send the backlog.
notifier=""

# scenario ID TITLE STUB_LATENCY_MS STUB_JITTER_MS WORKERS WORKER_CONCURRENCY -- kiwi-loadtest options…
scenario() {
    local id="$1" title="$2" latency="$3" jitter="$4" workers="$5" concurrency="$6" worker port pace="instant streams"
    shift 7
    [ ${#stub_pace[@]} -gt 0 ] || pace="streams at gpt-4o's pace"
    printf '\n## %s — %s (stub latency %s ms ± %s ms, %s, %s scan worker(s) × WORKER_CONCURRENCY=%s)\n\n' \
        "$id" "$title" "$latency" "$jitter" "$pace" "$workers" "$concurrency"
    # The stub keeps the first request a worker sends, for the peer benchmark to replay (bench-peer.sh).
    start kiwi-llm-stub stub --port 18089 --latency-ms "$latency" --jitter-ms "$jitter" "${stub_pace[@]}" "${stub_options[@]}" \
        --save-request "$BENCH_RUN/$id-request.json"
    PORT=18081 METRICS_PORT=19102 start kiwi-auth kiwi-auth
    local gateway urls=() ports=(18080) metrics=(19101)
    for gateway in $(seq 1 $((gateways - 1))); do ports+=($((18110 + gateway))) metrics+=($((19110 + gateway))); done
    for gateway in "${!ports[@]}"; do
        PORT="${ports[$gateway]}" METRICS_PORT="${metrics[$gateway]}" start kiwi-gateway "kiwi-gateway$([ "$gateway" -eq 0 ] || echo "-$gateway")"
        urls+=(--gateway "http://127.0.0.1:${ports[$gateway]}")
    done
    for worker in $(seq 1 "$workers"); do
        PORT=$((18100 + worker)) METRICS_PORT=$((19200 + worker)) WORKER_CONCURRENCY="$concurrency" \
            start kiwi-scan-worker "kiwi-scan-worker-$worker"
    done
    [ -z "$notifier" ] || start_notifying
    for port in 18089 18081 "${ports[@]}" $(seq 18101 $((18100 + workers))); do wait_healthy "$port"; done
    if [ "$notifier" = held ]; then
        kill -TERM "${pids[-1]}"
        wait "${pids[-1]}" || true
        unset 'labels[-1]' 'pids[-1]'
    fi
    # Kiwi's own CPU counts every service, the broker and the database (all their processes); the stub and the fake
    # APNs are outside.
    local processes=() index server
    for index in "${!labels[@]}"; do
        case "${labels[$index]}" in
            stub | fake-apns) processes+=(--outside "${labels[$index]}=${pids[$index]}") ;;
            *) processes+=(--process "${labels[$index]}=${pids[$index]}") ;;
        esac
    done
    for server in $("$here/infra.sh" pids); do processes+=(--process "$server"); done
    "$KIWI_BIN/kiwi-loadtest" "${urls[@]}" --key-directory "$KIWI_RUN/dev-apple" \
        --json "$BENCH_RUN/$id.json" "${processes[@]}" "$@"
    [ -z "$notifier" ] || notifications "$id"
    # The services' metrics as the scenario left them: their histograms say where a scan's time went.
    curl -fs --max-time 5 http://127.0.0.1:19101/metrics >"$BENCH_RUN/$id-gateway.prom" || log "could not read the gateway's metrics"
    for gateway in $(seq 1 $((gateways - 1))); do
        curl -fs --max-time 5 "http://127.0.0.1:${metrics[$gateway]}/metrics" >"$BENCH_RUN/$id-gateway-$gateway.prom" ||
            log "could not read gateway $gateway's metrics"
    done
    for worker in $(seq 1 "$workers"); do
        curl -fs --max-time 5 "http://127.0.0.1:$((19200 + worker))/metrics" >"$BENCH_RUN/$id-scan-worker-$worker.prom" ||
            log "could not read scan worker $worker's metrics"
    done
    nutrition_cost "$id"
    stop_all
}

# Starts the fake APNs (outside Kiwi, as the stub) on 18197 (control 18198), then a notifier (18084, metrics 19105) sending
# to it with make run's throw-away keys (local_environment), last, so that a held one is the last process started.
start_notifying() {
    local keys
    keys="$(fake_apns_keys)"
    "$(fake_apns_python)" "$KIWI_ROOT/Tools/fake-apns/fake_apns.py" --port 18197 --control-port 18198 --cert "$keys/server.pem" \
        --key "$keys/server-key.pem" --team-id "$APNS_TEAM_ID" --key-id "$APNS_KEY_ID" --public-key "$keys/auth-key-public.pem" \
        --bundle-id app.kiwi.ios >>"$BENCH_RUN/logs/fake-apns.log" 2>&1 &
    labels+=(fake-apns)
    pids+=("$!")
    until curl -fs -o /dev/null --max-time 2 http://127.0.0.1:18198/health; do sleep 0.2; done
    start_notifier
    wait_healthy 18084
}

start_notifier() {
    APNS_PRODUCTION_URL=https://127.0.0.1:18197 APNS_SANDBOX_URL=https://127.0.0.1:18197 NOTIFIER_QUEUE=kiwi.bench.notifications \
        PORT=18084 METRICS_PORT=19105 start kiwi-notifier kiwi-notifier
}

# Scenario ID's notifications, once the load has ended: a held notifier started to send the backlog, and every
# notification waited for, then bench-notifications.py's figures (ID-notifications.json).
notifications() {
    local id="$1" index notifier_pid fake_pid
    if [ "$notifier" = held ]; then
        start_notifier
        wait_healthy 18084
    fi
    python3 "$here/bench-notifications.py" wait http://127.0.0.1:18198
    for index in "${!labels[@]}"; do
        case "${labels[$index]}" in kiwi-notifier) notifier_pid="${pids[$index]}" ;; fake-apns) fake_pid="${pids[$index]}" ;; esac
    done
    python3 "$here/bench-notifications.py" report http://127.0.0.1:18198 "$DATABASE_URL" "$id" "$notifier_pid" "$fake_pid" \
        "$BENCH_RUN/$id-notifications.json"
    curl -fs --max-time 5 http://127.0.0.1:19105/metrics >"$BENCH_RUN/$id-notifier.prom" || log "could not read the notifier's metrics"
}

# N: push notifications (issue 61). Blocking scans at G's rate, paced as B's, by people with two phones each
# (kiwi-loadtest --phones 2), one notifier (NOTIFIER_CONCURRENCY=64) and a fake APNs answering 200. Two legs on fresh
# processes: steady, the notifier running while scans end: the delay from each scan's end to its phones' notifications;
# backlog, the notifier stopped while the scans end and started after: the notifications per second one notifier sends.
notification_scenario() {
    local load=(--rate "${KIWI_BENCH_RATE:-24}" --people 128 --warmup 10 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144 --idle-after 0 --phones 2)
    rm -f "$BENCH_RUN"/N-*.json
    notifier=running scenario N-steady "notifications while scans end" 2000 0 1 64 -- "${load[@]}"
    notifier=held scenario N-backlog "a notifier sending a backlog" 2000 0 1 64 -- "${load[@]}"
    python3 "$here/bench-notifications.py" summary "$BENCH_RUN" | tee "$BENCH_RUN/N.md"
}

# The CPU the scan workers spent estimating nutrition in scenario ID (kiwi_worker_nutrition_cpu_seconds, each recipe's
# estimate timed on its thread), per successful scan and per recipe: the extra a scan costs for nutrition.
nutrition_cost() {
    cat "$BENCH_RUN/$1"-scan-worker-*.prom 2>/dev/null | awk '
        /^kiwi_worker_nutrition_cpu_seconds_sum/ { cpu += $NF }
        /^kiwi_worker_nutrition_cpu_seconds_count/ { recipes += $NF }
        /^kiwi_worker_jobs_total\{outcome="ok"\}/ { scans += $NF }
        END {
            if (recipes > 0 && scans > 0)
                printf "\nNutrition: %.0f µs of scan-worker CPU per scan (%.1f recipes, %.0f µs each)\n", cpu / scans * 1e6, recipes / scans, cpu / recipes * 1e6
        }'
}

# S: streamed scans at gpt-4o's pace (the stub's own), against the same scans with LLM_STREAM=false, whose stub answers
# whole after a streamed scan's median time: 14.5 s on 2026-11-26 (the canned answers stream as about 1,100 fragments
# at 81 ± 20 per second, 12.6 ms each on average, after 0.39 s), ± 5 s as the pace's jitter spreads the streamed
# ones. Rounds of each kind alternate (streamed first in odd rounds, whole first in even ones), each on fresh processes, so that the
# machine's drift and noise fall on both; bench-streamed.py pools each kind's rounds into one summary.
streamed_scenario() {
    local rounds="${KIWI_BENCH_ROUNDS:-2}" round kind order
    local load=(
        --async --concurrency 64 --ramp-up 15 --warmup 25 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144 --idle-after 0
        --gateway-metrics http://127.0.0.1:19101/metrics
        --broker-metrics "http://$KIWI_INFRA_ADDRESS:$KIWI_RABBITMQ_METRICS_PORT/metrics/detailed?family=channel_exchange_metrics"
    )
    rm -f "$BENCH_RUN"/S-streamed-*.json "$BENCH_RUN"/S-whole-*.json "$BENCH_RUN"/S-floor-*.json
    for round in $(seq 1 "$rounds"); do
        order=(streamed whole)
        [ $((round % 2)) -eq 1 ] || order=(whole streamed)
        for kind in "${order[@]}"; do
            if [ "$kind" = streamed ]; then
                stub_pace=()
                LLM_STREAM=true scenario "S-streamed-$round" "streamed scans, round $round" 0 0 1 64 -- "${load[@]}"
            else
                stub_pace=(--time-to-first-token-ms 0 --tokens-per-second 0)
                LLM_STREAM=false scenario "S-whole-$round" "whole answers (LLM_STREAM=false), round $round" 14500 5000 1 64 -- "${load[@]}"
            fi
        done
    done
    stub_pace=(--time-to-first-token-ms 0 --tokens-per-second 0)
    # The floor under the streamed rounds: the same streams at the same pace, read and thrown away by kiwi-stream-floor,
    # as the worker reads them (async) and on the event loop, with no hop per chunk.
    printf '\n## S-floor — reading the same streams and nothing else (kiwi-stream-floor, 64 at once)\n\n'
    start kiwi-llm-stub stub --port 18089 --latency-ms 0 --jitter-ms 0
    wait_healthy 18089
    local reader
    for reader in async event-loop; do
        REQUEST_FILE="$BENCH_RUN/S-streamed-1-request.json" OPENAI_BASE_URL="http://127.0.0.1:18089/v1" STREAMS=64 READER="$reader" \
            FLOOR_SECONDS="${KIWI_BENCH_SECONDS:-60}" REPORT_JSON="$BENCH_RUN/S-floor-$reader.json" "$KIWI_BIN/kiwi-stream-floor"
    done
    stop_all
    python3 "$here/bench-streamed.py" "$BENCH_RUN" "$rounds" | tee "$BENCH_RUN/S.md"
}

# R: what a refinement costs against the photo scan it refines (issue 39). Three rounds on fresh processes, the stub at
# the same latency for all: photo scans through the async API; refinements of photo scans made before the round, on
# the photo route's model (LLM_TEXT_MODELS unset); and the same refinements on gpt-4o-mini. For each, Kiwi's CPU per
# scan (kiwi-loadtest) and what the scans' records say the model cost (tokens and nano-dollars, from PostgreSQL);
# bench-refinements.py sets them side by side.
refinement_scenario() {
    local load=(--async --concurrency 16 --people 64 --ramp-up 4 --warmup 8 --duration "${KIWI_BENCH_SECONDS:-30}" --image-size 262144 --idle-after 0)
    local kind since
    for kind in photo refine refine-mini; do
        since="$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)"
        case "$kind" in
            photo) scenario R-photo "photo scans" 2000 500 1 64 -- "${load[@]}" ;;
            refine) scenario R-refine "refinements, text route gpt-4o" 2000 500 1 64 -- "${load[@]}" --refinements ;;
            refine-mini) LLM_TEXT_MODELS='[{"model":"gpt-4o-mini"}]' \
                scenario R-refine-mini "refinements, text route gpt-4o-mini" 2000 500 1 64 -- "${load[@]}" --refinements ;;
        esac
        recorded_cost "$since" "$([ "$kind" = photo ] && echo false || echo true)" >"$BENCH_RUN/R-$kind-cost.json"
    done
    python3 "$here/bench-refinements.py" "$BENCH_RUN" | tee "$BENCH_RUN/R.md"
}

# recorded_cost SINCE REFINED: what the records of the succeeded scans created since SINCE (refinements or photo
# scans) say their model calls cost, as JSON.
recorded_cost() {
    psql "$DATABASE_URL" -Atq -v ON_ERROR_STOP=1 -v since="$1" -v refined="$2" <<'SQL'
SELECT json_build_object(
    'scans', count(*), 'free', count(*) FILTER (WHERE free), 'models', array_agg(DISTINCT model),
    'promptTokens', avg(prompt_tokens), 'completionTokens', avg(completion_tokens), 'costNanousd', avg(cost_nanousd))
FROM scans WHERE created_at >= :'since' AND state = 'succeeded' AND (parent_id IS NOT NULL) = :'refined';
SQL
}

# F: each of Kiwi's processes asked for no more than a scan asks of it, at the rate of the A just run, beside what A
# measured (kiwi-floor-bench, `make bench-floors`): PostgreSQL's and RabbitMQ's for a scan's statements and messages;
# the gateway's for reading A's uploads and answering (kiwi-gateway-floor); the worker's for taking A's photos from a
# queue and sending each in A's model request to a stub (kiwi-worker-floor). After a B, the latency floor too: B's
# lanes running a scan's commits and confirmed publishes alone, beside B's gateway-added latency. Figures in F.md.
floors_scenario() {
    [ -f "$BENCH_RUN/A.json" ] && [ -f "$BENCH_RUN/A-request.json" ] || die "F sets its floors beside scenario A's figures: run bench.sh A F"
    printf '\n## F — each process at its floor, at the rate of A\n\n'
    start kiwi-llm-stub stub --port 18089 --latency-ms 0 --jitter-ms 0 "${stub_pace[@]}"
    PORT=18080 start kiwi-gateway-floor gateway-floor
    local gateway_floor="${pids[-1]}" servers queue=kiwi.floor-bench.worker-jobs
    REQUEST_FILE="$BENCH_RUN/A-request.json" OPENAI_BASE_URL="http://127.0.0.1:18089/v1" AMQP_URL="$AMQP_URL" \
        QUEUE="$queue" WORKER_CONCURRENCY=64 start kiwi-worker-floor worker-floor
    local worker_floor="${pids[-1]}"
    wait_healthy 18089
    wait_healthy 18080
    servers="$("$here/infra.sh" pids)"
    local latency_report=""
    ! $b_ran || latency_report="$BENCH_RUN/B.json"
    A_REPORT="$BENCH_RUN/A.json" POSTGRES_PID="$(sed -n 's/^postgresql=//p' <<<"$servers")" \
        RABBITMQ_PID="$(sed -n 's/^rabbitmq=//p' <<<"$servers")" GATEWAY_FLOOR_URL=http://127.0.0.1:18080 \
        GATEWAY_FLOOR_PID="$gateway_floor" WORKER_FLOOR_PID="$worker_floor" WORKER_FLOOR_QUEUE="$queue" \
        STUB_URL=http://127.0.0.1:18089 B_LANES="$b_lanes" B_REPORT="$latency_report" \
        "$KIWI_BIN/kiwi-floor-bench" | tee "$BENCH_RUN/F.md"
    stop_all
}

# G: Kiwi's CPU per scan as the deployment grows (issue 56): one load well below saturation, half of A's rate, paced as
# B's (blocking scans, the stub answering after 2 s), through 1, 2 and 4 gateways with as many scan workers, each size a
# leg on fresh processes, the legs interleaved over KIWI_BENCH_ROUNDS rounds (the order reversed in even ones).
# --async follows each scan's event stream through another gateway than its POST. bench-gateways.py pools each size's
# rounds and sets them against one gateway.
growth_scenario() {
    local rounds="${KIWI_BENCH_ROUNDS:-2}" round size order
    local load=(
        --rate "${KIWI_BENCH_RATE:-24}" --people 256 --warmup 10 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144 --idle-after 0
        --broker-metrics "http://$KIWI_INFRA_ADDRESS:$KIWI_RABBITMQ_METRICS_PORT/metrics/detailed?family=channel_exchange_metrics"
        "$@"
    )
    rm -f "$BENCH_RUN"/G-*.json
    for round in $(seq 1 "$rounds"); do
        order=(1 2 4)
        [ $((round % 2)) -eq 1 ] || order=(4 2 1)
        for size in "${order[@]}"; do
            gateways="$size" scenario "G-$size-$round" "$size gateway(s) and scan worker(s), round $round" 2000 0 "$size" 64 -- "${load[@]}"
        done
    done
    python3 "$here/bench-gateways.py" "$BENCH_RUN" "$rounds" | tee "$BENCH_RUN/G.md"
}

# W: where A's CPU per scan goes (issue 56). A's load with every feature on, and with each feature left out in turn
# (KIWI_BENCH_WITHOUT, a development-only switch of the gateway and worker; streaming by LLM_STREAM=false), each leg on
# fresh processes, interleaved over KIWI_BENCH_ROUNDS rounds (the order reversed in even ones). The classic queue of
# the quorum leg has a name of its own: a queue's kind cannot change. bench-attribution.py sets each leg against all.
attribution_scenario() {
    local rounds="${KIWI_BENCH_ROUNDS:-3}" round leg order index
    local legs=(all stream shows labels nutrition quorum)
    # Through the async API: a blocking scan shows nothing (docs/architecture.md, "Streamed scans").
    local load=(--async --concurrency 64 --warmup 5 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144)
    rm -f "$BENCH_RUN"/W-*.json
    for round in $(seq 1 "$rounds"); do
        order=("${legs[@]}")
        if [ $((round % 2)) -eq 0 ]; then
            order=()
            for ((index = ${#legs[@]} - 1; index >= 0; index--)); do order+=("${legs[index]}"); done
        fi
        for leg in "${order[@]}"; do
            case "$leg" in
                all) scenario "W-all-$round" "every feature on, round $round" 0 0 1 64 -- "${load[@]}" ;;
                stream) LLM_STREAM=false scenario "W-stream-$round" "without streaming, round $round" 0 0 1 64 -- "${load[@]}" ;;
                quorum) SCAN_JOB_QUEUE="$SCAN_JOB_QUEUE.classic" KIWI_BENCH_WITHOUT=quorum \
                    scenario "W-quorum-$round" "without the quorum queue, round $round" 0 0 1 64 -- "${load[@]}" ;;
                *) KIWI_BENCH_WITHOUT="$leg" scenario "W-$leg-$round" "without $leg, round $round" 0 0 1 64 -- "${load[@]}" ;;
            esac
        done
    done
    python3 "$here/bench-attribution.py" "$BENCH_RUN" "$rounds" "${legs[@]}" | tee "$BENCH_RUN/W.md"
}

# H: what cooking for a household costs a scan (issue 57): G's one-gateway load, paced as B's, made by people seated at
# households of one and of four (kiwi-loadtest --household-size), whose members have the same allergies between them
# at both sizes, so the guard withholds alike and only the household's own work differs. Beside the scans, eight
# households of two change their shopping list once a second each, through the first of two gateways, while the other
# member follows it through the second: each change's delay to that stream is timed. Each size a leg on fresh
# processes, interleaved over KIWI_BENCH_ROUNDS rounds (the order reversed in even ones); bench-households.py pools them.
# Its quota is 1,000 scans a day: a person whose scans ran out would be replaced mid-window by a new household, whose
# sign-ins and joins would then count as the scans' cost.
household_scenario() {
    local rounds="${KIWI_BENCH_ROUNDS:-2}" round size order
    local load=(
        --rate "${KIWI_BENCH_RATE:-24}" --people 128 --warmup 10 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144 --idle-after 0
        --list-pairs 8 --list-interval 1
    )
    rm -f "$BENCH_RUN"/H-*.json
    for round in $(seq 1 "$rounds"); do
        order=(1 4)
        [ $((round % 2)) -eq 1 ] || order=(4 1)
        for size in "${order[@]}"; do
            gateways=2 SCAN_DAILY_LIMIT=1000 scenario "H-$size-$round" "households of $size, round $round" 2000 0 1 64 -- "${load[@]}" --household-size "$size"
        done
    done
    python3 "$here/bench-households.py" "$BENCH_RUN" "$rounds" | tee "$BENCH_RUN/H.md"
}

selected=("$@")
[ ${#selected[@]} -gt 0 ] || selected=(A B C D S R H N)
# B's lanes, which F's latency floor runs as many of once a B has run.
b_lanes=32
b_ran=false
for id in "${selected[@]}"; do
    case "$id" in
        A) scenario A "throughput" 0 0 1 64 -- --concurrency 64 --warmup 5 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144 ;;
        B) scenario B "gateway overhead" 2000 0 1 64 -- --concurrency "$b_lanes" --ramp-up 2 --warmup 5 --duration "${KIWI_BENCH_SECONDS:-60}" \
            --image-size 262144
            b_ran=true ;;
        C) scenario C "many in flight" 20000 5000 2 1024 -- --concurrency 2000 --ramp-up 20 --warmup 30 --duration "${KIWI_BENCH_SECONDS:-60}" --image-size 262144 ;;
        # 10,000 scans held by one gateway at once through the async API (each client follows its scan's events);
        # the report's peak RSS of kiwi-gateway is the figure to hold under 1 GiB. 500 people at once, twenty scans
        # each: with one person per lane (10,000) D passed too, but the gateway came within 60 MiB of 1 GiB and the
        # session checks took a third of the CPU (docs/operations.md §6).
        D) export SCAN_TIMEOUT_SECONDS=120
            scenario D "10,000 in flight, async API" 20000 5000 10 1024 -- \
            --concurrency 10000 --people 500 --async --ramp-up 60 --warmup 60 --duration 60 --image-size 32768 --request-timeout 240 ;;
        S) streamed_scenario ;;
        # P: meal plans of a week's dinners through the async API, streamed at gpt-4o's pace: when the first meal is
        # shown, as a share of the whole plan's time (issue 58's goal: 25 % at most).
        P) stub_pace=()
            LLM_STREAM=true scenario P "meal plans, streamed" 0 0 1 16 -- \
            --plans --concurrency 16 --people 64 --ramp-up 5 --warmup 10 --duration "${KIWI_BENCH_SECONDS:-60}"
            stub_pace=(--time-to-first-token-ms 0 --tokens-per-second 0) ;;
        # T: receipt scans through the async API, streamed at gpt-4o's pace: when the first line is shown, as a share
        # of the whole answer's time (issue 59's goal: 15 % at most), and Kiwi's CPU per receipt scan.
        T) stub_pace=()
            stub_options=(--receipts supermarket)
            LLM_STREAM=true scenario T "receipts, streamed" 0 0 1 16 -- \
            --receipts --concurrency 16 --people 64 --ramp-up 5 --warmup 10 --duration "${KIWI_BENCH_SECONDS:-60}"
            stub_pace=(--time-to-first-token-ms 0 --tokens-per-second 0)
            stub_options=() ;;
        R) refinement_scenario ;;
        F) floors_scenario ;;
        G) growth_scenario ${KIWI_BENCH_ASYNC:+--async} ;;
        W) attribution_scenario ;;
        H) household_scenario ;;
        N) notification_scenario ;;
        *) die "unknown scenario $id; use A, B, C, D, S, P, T, R, F, G, W, H or N" ;;
    esac
done
printf '\nJSON results and service logs: %s\n' "$BENCH_RUN"
