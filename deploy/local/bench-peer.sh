#!/usr/bin/env bash
# `make bench-peer`: Kiwi's throughput and CPU beside a peer's. First Kiwi's legs, scenarios A (whole answers) and S (one
# round: streamed at gpt-4o's pace, then whole) of `make bench`, whose stubs save the request bodies the scan worker
# sends for the 256 KiB photo; then LiteLLM's proxy (what teams put in front of OpenAI for keys, limits and retries)
# forwarding those same bodies to kiwi-llm-stub: A's body to a zero-latency stub with 1 and then 2 proxy worker
# processes, driven by wrk at 64 connections; S's streamed body ("stream": true) to a stub streaming at gpt-4o's pace,
# as in S, with 1, at 8 connections (bench-peer-streams.py). Last, Kiwi's successful scans/s as a ratio of each whole leg's requests/s, and Kiwi's CPU per streamed scan
# against LiteLLM's per streamed request. The peer's stub and proxy use ports 18189 and 18190; a scan worker left
# pointing at the stub would be detected.
#   bench-peer.sh [--duration SECONDS] [--warmup SECONDS] [--peer-only]
#       60 s measured after a 5 s warm-up per peer leg (20 s for the streamed leg: its requests take about 20 s); --peer-only
#       skips Kiwi's legs and replays their saved bodies.
#   KIWI_BENCH_BIN=DIR   run kiwi-llm-stub from DIR (another checkout's release build) instead of building it here.
#   KIWI_BENCH_PEER_STUB_PORT, KIWI_BENCH_PEER_PORT   other ports for the stub and the proxy.
# LiteLLM is installed into a virtualenv of its own under .run/bench-peer/, never needed by `make test`. Tables on
# stdout; the figures in .run/bench/peer.json, the proxy's and wrk's logs in .run/bench-peer/logs/.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/common.sh"

# The newest LiteLLM whose dependencies all resolve from PyPI here (1.106.3 and later ask for a certifi not yet there).
LITELLM_VERSION="1.106.2"
STUB_PORT="${KIWI_BENCH_PEER_STUB_PORT:-18189}"
PROXY_PORT="${KIWI_BENCH_PEER_PORT:-18190}"
CONNECTIONS=64
# The streamed leg's: LiteLLM re-chunks every chunk in Python, and 64 streams at gpt-4o's pace (5,000 chunks a second)
# are several times what one core of it can carry. Saturated, its streams stall past its 60 s request timeout and its
# CPU per request counts the CPU of streams that failed; 8 keep it below a core, where a request costs what it costs.
STREAMED_CONNECTIONS=8
THREADS=2
# Each leg: ANSWER:WORKERS, whole answers or streamed ones through that many proxy worker processes.
LEGS=(whole:1 whole:2 streamed:1)
duration=60
warmup=5
peer_only=false

while [ $# -gt 0 ]; do
    case "$1" in
        --duration) duration="${2:?--duration needs a number of seconds}"; shift 2 ;;
        --warmup) warmup="${2:?--warmup needs a number of seconds}"; shift 2 ;;
        --peer-only) peer_only=true; shift ;;
        *) die "unknown option $1; use --duration SECONDS, --warmup SECONDS or --peer-only" ;;
    esac
done
[[ "$duration" =~ ^[1-9][0-9]*$ ]] || die "--duration must be a whole number of seconds, not $duration"
[[ "$warmup" =~ ^[0-9]+$ ]] || die "--warmup must be a whole number of seconds, not $warmup"

"$here/install-packages.sh" wrk python3-venv

cd "$KIWI_ROOT"
if [ -n "${KIWI_BENCH_BIN:-}" ]; then
    KIWI_BIN="$KIWI_BENCH_BIN"
    [ -x "$KIWI_BIN/kiwi-llm-stub" ] || die "no kiwi-llm-stub in KIWI_BENCH_BIN=$KIWI_BIN"
else
    KIWI_BIN="$KIWI_ROOT/.build/release"
    if [ ! -x "$KIWI_BIN/kiwi-llm-stub" ]; then
        log "building kiwi-llm-stub (release)"
        swift build -c release --product kiwi-llm-stub >&2
    fi
fi

PEER_RUN="$KIWI_RUN/bench-peer"
BENCH_RUN="$KIWI_RUN/bench"
mkdir -p "$PEER_RUN/logs" "$BENCH_RUN"

venv="$PEER_RUN/venv"
if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("litellm"))' 2>/dev/null)" != "$LITELLM_VERSION" ]; then
    log "installing LiteLLM $LITELLM_VERSION into $venv (a minute or two)"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "litellm[proxy]==$LITELLM_VERSION" >&2
fi

for port in "$STUB_PORT" "$PROXY_PORT"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is in use (a make bench running?); stop it first"; fi
done

# The body a Kiwi scan worker really sent in scenario A (the stub saves the first it gets): the system prompt, the
# 256 KiB photo in base64, the strict schema, exactly as ScanPrompt wrote them.
body="$BENCH_RUN/A-request.json"
streamed_body="$BENCH_RUN/S-streamed-1-request.json"
if ! $peer_only; then
    log "scenarios A and S first: Kiwi's legs of the comparison, and the request bodies the peer is sent"
    rm -f "$body" "$streamed_body"
    # A with whole answers: its throughput is set against the proxy's forwarding whole answers as fast as it can, which
    # instant streams would turn into a measure of LiteLLM's chunk loop (docs/measurements/2026-11-27-floors.md).
    # Streams are compared at gpt-4o's pace, where each side does what it does for a real scan: S's streamed round.
    LLM_STREAM=false KIWI_BENCH_ROUNDS=1 "$here/bench.sh" A S
fi
[ -s "$body" ] || die "no request body from scenario A in $body; run without --peer-only"
[ -s "$streamed_body" ] || die "no request body from scenario S in $streamed_body; run without --peer-only"
for figures in A S-streamed-1 S-whole-1 S-floor-event-loop; do
    [ -s "$BENCH_RUN/$figures.json" ] || die "no $figures.json from Kiwi's legs in $BENCH_RUN; run without --peer-only"
done

master_key="sk-kiwi-bench-peer-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
stub_key="sk-local-stub"
cat >"$PEER_RUN/config.yaml" <<YAML
# Written by deploy/local/bench-peer.sh: one model, the local stub, no database, no callbacks.
model_list:
  - model_name: gpt-4o
    litellm_params:
      model: openai/gpt-4o
      api_base: http://127.0.0.1:$STUB_PORT/v1
      api_key: $stub_key
litellm_settings:
  set_verbose: false
  request_timeout: 60
general_settings:
  master_key: os.environ/LITELLM_MASTER_KEY
YAML

# write_script BODY SCRIPT: a wrk script that POSTs BODY and prints one JSON line of figures when done.
write_script() {
    cat >"$2" <<LUA
-- Written by deploy/local/bench-peer.sh: POST the scan request; one JSON line of figures when done.
local file = assert(io.open("$1", "rb"))
wrk.method = "POST"
wrk.body = file:read("*a")
file:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $master_key"

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format(
        'kiwi-wrk {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f,"max_us":%d,' ..
        '"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
        summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.mean, latency.max,
        e.connect, e.read, e.write, e.status, e.timeout))
end
LUA
}
write_script "$body" "$PEER_RUN/request.lua"
write_script "$streamed_body" "$PEER_RUN/streamed-request.lua"

stub_pid=""
proxy_pid=""

# The pids of a process and all its descendants.
process_tree() {
    ps -e -o pid=,ppid= | awk -v root="$1" '
        { parent[$1] = $2 }
        END { for (pid in parent) for (p = pid + 0; p > 1; p = (p in parent) ? parent[p] + 0 : 0) if (p == root + 0) { print pid; break } }'
}

# CPU time (user + system, in clock ticks) of a process and all its descendants alive now.
tree_ticks() {
    local pid stat fields total=0
    for pid in $(process_tree "$1"); do
        stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
        read -ra fields <<<"${stat##*) }"  # fields from the state on: utime and stime are the 12th and 13th
        total=$((total + fields[11] + fields[12]))
    done
    echo "$total"
}

# Stops a process and everything it started: TERM to the whole tree, then KILL to whatever is left after 10 s.
stop_tree() {
    local root="$1" pids pid alive
    [ -n "$root" ] || return 0
    pids="$(process_tree "$root")"
    [ -n "$pids" ] || return 0
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    for _ in $(seq 1 100); do
        alive=false
        for pid in $pids; do if kill -0 "$pid" 2>/dev/null; then alive=true; fi; done
        $alive || return 0
        sleep 0.1
    done
    for pid in $pids; do kill -KILL "$pid" 2>/dev/null || true; done
}

stop_proxy() { stop_tree "$proxy_pid"; proxy_pid=""; }
cleanup() { stop_proxy; stop_tree "$stub_pid"; stub_pid=""; }
trap cleanup EXIT

wait_ready() {
    local url="$1" what="$2" pid="$3" deadline=$((SECONDS + 120))
    until curl -fs -o /dev/null --max-time 2 "$url"; do
        kill -0 "$pid" 2>/dev/null || die "$what exited while starting; see $PEER_RUN/logs/"
        [ $SECONDS -lt $deadline ] || die "$what not ready on $url after 120 s; see $PEER_RUN/logs/"
        sleep 0.2
    done
}

# start_stub STREAMED: kiwi-llm-stub at zero latency, its streams instant, or (STREAMED=true) at gpt-4o's pace, its own.
start_stub() {
    stop_tree "$stub_pid"
    local pace=()
    # A stub built before streams has no pace to set.
    case "$1:$("$KIWI_BIN/kiwi-llm-stub" --help)" in false:*--tokens-per-second*) pace=(--time-to-first-token-ms 0 --tokens-per-second 0) ;; esac
    log "starting kiwi-llm-stub on port $STUB_PORT (zero latency, $([ "$1" = true ] && echo "streams at gpt-4o's pace" || echo "instant streams")) from $KIWI_BIN"
    "$KIWI_BIN/kiwi-llm-stub" --port "$STUB_PORT" --latency-ms 0 --jitter-ms 0 "${pace[@]}" --api-key "$stub_key" \
        >>"$PEER_RUN/logs/stub.log" 2>&1 &
    stub_pid=$!
    wait_ready "http://127.0.0.1:$STUB_PORT/health" kiwi-llm-stub "$stub_pid"
}

# What the stub saw of the latest request, and how many it has seen (valid or not) and refused.
stub_state() { curl -fsS "http://127.0.0.1:$STUB_PORT/admin/state"; }
stub_counts() { stub_state | python3 -c 'import json, sys; s = json.load(sys.stdin); print(s["requests"], s["invalidRequests"])'; }
latest_request() { stub_state | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["recent"][-1], sort_keys=True))'; }
# post LABEL KEY URL BODY: the body POSTed once; its answer in logs/LABEL.response.json, its status on stdout.
post() {
    curl -sS --max-time 60 -o "$PEER_RUN/logs/$1.response.json" -w '%{http_code}' -H 'Content-Type: application/json' \
        -H "Authorization: Bearer $2" --data-binary "@$4" "$3"
}

# start_proxy WORKERS LABEL: the proxy (uvicorn; with --num_workers 2 a supervisor that spawns two worker processes) on
# its own, without a database, telemetry, callbacks, the remote model cost map or uvicorn's access log; its log in
# logs/litellm-LABEL.log.
start_proxy() {
    local workers="$1" label="$2"
    env -u DATABASE_URL -u REDIS_HOST -u REDIS_URL -u OPENAI_API_KEY -u OPENAI_BASE_URL \
        LITELLM_MASTER_KEY="$master_key" LITELLM_TELEMETRY=False LITELLM_LOG=ERROR LITELLM_MODE=PRODUCTION \
        LITELLM_LOCAL_MODEL_COST_MAP=True DISABLE_ADMIN_UI=True NO_DOCS=True NO_REDOC=True PYTHONUNBUFFERED=1 \
        "$venv/bin/litellm" --config "$PEER_RUN/config.yaml" --host 127.0.0.1 --port "$PROXY_PORT" \
        --num_workers "$workers" >"$PEER_RUN/logs/litellm-$label.log" 2>&1 &
    proxy_pid=$!
    wait_ready "http://127.0.0.1:$PROXY_PORT/health/liveliness" "LiteLLM's proxy" "$proxy_pid"
    # Each worker process imports LiteLLM and runs its start-up on its own (tens of seconds on a busy machine), and
    # the first one answers /health/liveliness alone meanwhile: wait for every worker's start-up message too.
    local proxy_log="$PEER_RUN/logs/litellm-$label.log" deadline=$((SECONDS + 120))
    until [ "$(grep -c "Proxy initialized" "$proxy_log")" -ge "$workers" ]; do
        kill -0 "$proxy_pid" 2>/dev/null || die "LiteLLM's proxy exited while starting; see $proxy_log"
        [ $SECONDS -lt $deadline ] || die "LiteLLM's $workers workers not all started after 120 s; see $proxy_log"
        sleep 0.2
    done
}

# drive SECONDS LABEL SCRIPT: wrk against the proxy for SECONDS; its output in .run/bench-peer/logs/wrk-LABEL.log.
drive() {
    local seconds="$1" label="$2" script="$3"
    wrk --threads "$THREADS" --connections "$CONNECTIONS" --duration "${seconds}s" --timeout 60s --latency \
        --script "$script" "http://127.0.0.1:$PROXY_PORT/v1/chat/completions" \
        >"$PEER_RUN/logs/wrk-$label.log" 2>&1 || die "wrk failed; see $PEER_RUN/logs/wrk-$label.log"
}

printf '\n## Peer — LiteLLM %s proxy → kiwi-llm-stub (0 ms; streams instant, or at gpt-4o'"'"'s pace), %s connections (streamed: %s), %s s after %s s of warm-up\n\n' \
    "$LITELLM_VERSION" "$CONNECTIONS" "$STREAMED_CONNECTIONS" "$duration" "$warmup"
printf '| peer | answers | workers | requests/s | p50 ms | p99 ms | errors | CPU ms per request | CPU µs per chunk |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'

ticks_per_second="$(getconf CLK_TCK)"
export -f process_tree tree_ticks
legs_json=()
forwarded_intact=true
stub_answers=""
for leg_spec in "${LEGS[@]}"; do
    answers="${leg_spec%%:*}" workers="${leg_spec##*:}"
    label="$answers-$workers-workers"
    leg_body="$body"
    [ "$answers" = whole ] || leg_body="$streamed_body"
    if [ "$stub_answers" != "$answers" ]; then
        start_stub "$([ "$answers" = streamed ] && echo true || echo false)"
        stub_answers="$answers"
        # The request straight to the stub, as a Kiwi worker sends it: what the stub sees of it is what LiteLLM must
        # forward.
        status="$(post "direct-$answers" "$stub_key" "http://127.0.0.1:$STUB_PORT/v1/chat/completions" "$leg_body")"
        [ "$status" = 200 ] || die "the stub refused the request body ($status): $(cat "$PEER_RUN/logs/direct-$answers.response.json")"
        direct_request="$(latest_request)"
    fi
    log "LiteLLM's proxy with $workers worker(s), $answers answers"
    start_proxy "$workers" "$label"
    status="$(post "proxied-$label" "$master_key" "http://127.0.0.1:$PROXY_PORT/v1/chat/completions" "$leg_body")"
    [ "$status" = 200 ] || die "LiteLLM's proxy answered $status: $(cat "$PEER_RUN/logs/proxied-$label.response.json")"
    proxied_request="$(latest_request)"
    if [ "$proxied_request" != "$direct_request" ]; then
        forwarded_intact=false
        log "the stub saw LiteLLM's request differently from the direct one ($answers answers):"
        log "  direct:  $direct_request"
        log "  proxied: $proxied_request"
    fi

    processes="$(process_tree "$proxy_pid" | wc -l)"
    connections="$CONNECTIONS"
    [ "$answers" = whole ] || connections="$STREAMED_CONNECTIONS"
    if [ "$answers" = whole ]; then
        [ "$warmup" -eq 0 ] || drive "$warmup" "$label-warmup" "$PEER_RUN/request.lua"
        read -r stub_before invalid_before < <(stub_counts)
        ticks_before="$(tree_ticks "$proxy_pid")"
        drive "$duration" "$label" "$PEER_RUN/request.lua"
        ticks_after="$(tree_ticks "$proxy_pid")"
    else
        # Streamed requests take about 20 s each: every one is read to its end, so that the CPU counted is theirs. The driver
        # reports its warm-up's requests, which the stub's count includes.
        read -r stub_before invalid_before < <(stub_counts)
        python3 "$here/bench-peer-streams.py" "http://127.0.0.1:$PROXY_PORT/v1/chat/completions" "$master_key" "$leg_body" \
            "$connections" "$((warmup > 20 ? warmup : 20))" "$duration" "tree_ticks $proxy_pid" >"$PEER_RUN/logs/wrk-$label.log" 2>&1 ||
            die "the streamed leg's driver failed; see $PEER_RUN/logs/wrk-$label.log"
        ticks_before=0 ticks_after=0
    fi
    read -r stub_after invalid_after < <(stub_counts)
    stop_proxy

    figures="$(sed -n 's/^kiwi-wrk //p' "$PEER_RUN/logs/wrk-$label.log")"
    [ -n "$figures" ] || die "no figures from wrk; see $PEER_RUN/logs/wrk-$label.log"
    leg="$(python3 - "$figures" "$answers" "$workers" "$processes" "$((ticks_after - ticks_before))" "$ticks_per_second" \
        "$((stub_after - stub_before))" "$((invalid_after - invalid_before))" "$connections" <<'PYTHON'
import json, sys

wrk, answers = json.loads(sys.argv[1]), sys.argv[2]
workers, processes, ticks, per_second, stub_requests, stub_invalid, connections = map(int, sys.argv[3:])
# The streamed leg's driver counts the proxy's ticks over exactly its requests, and the requests of its warm-up.
ticks = wrk.get("ticks", ticks)
stub_requests -= wrk.get("warmup_requests", 0)
seconds = wrk["duration_us"] / 1e6
errors = sum(wrk[kind] for kind in ("connect", "read", "write", "status", "timeout"))
cpu_seconds = ticks / per_second
print(json.dumps({
    "answers": answers,
    "workers": workers,
    "connections": connections,
    "processes": processes,
    "requests_per_second": round(wrk["requests"] / seconds, 1),
    "p50_ms": round(wrk["p50_us"] / 1000, 1),
    "p99_ms": round(wrk["p99_us"] / 1000, 1),
    "mean_ms": round(wrk["mean_us"] / 1000, 1),
    "max_ms": round(wrk["max_us"] / 1000, 1),
    "requests": wrk["requests"],
    "errors": errors,
    "error_kinds": {kind: wrk[kind] for kind in ("connect", "read", "write", "status", "timeout")},
    "duration_seconds": round(seconds, 3),
    "cpu_seconds": round(cpu_seconds, 2),
    "cpu_ms_per_request": round(1000 * cpu_seconds / wrk["requests"], 2) if wrk["requests"] else None,
    "chunks_per_request": round(wrk["chunks"] / wrk["requests"], 1) if wrk.get("chunks") and wrk["requests"] else None,
    "cpu_us_per_chunk": round(1e6 * cpu_seconds / wrk["chunks"], 1) if wrk.get("chunks") else None,
    "stub_requests": stub_requests,
    "stub_invalid_requests": stub_invalid,
    # Requests still in flight when wrk starts or stops counting may reach the stub on either side of its count;
    # many more than that came from something else than the proxy.
    "stub_saw_other_traffic": stub_requests > wrk["requests"] + 2 * connections,
}))
PYTHON
)"
    if [[ "$leg" == *'"stub_saw_other_traffic": true'* ]]; then
        log "the stub answered $((stub_after - stub_before)) requests, far more than LiteLLM forwarded for wrk: something else" \
            "sends to port $STUB_PORT (a scan worker?); this leg's figures are not LiteLLM's alone"
    fi
    legs_json+=("$leg")
    python3 - "$leg" "$LITELLM_VERSION" <<'PYTHON'
import json, sys

leg, version = json.loads(sys.argv[1]), sys.argv[2]
cpu = "–" if leg["cpu_ms_per_request"] is None else "%.2f" % leg["cpu_ms_per_request"]
chunk = "–" if leg["cpu_us_per_chunk"] is None else "%.0f" % leg["cpu_us_per_chunk"]
print("| LiteLLM %s | %s | %d | %s | %.1f | %.1f | %d | %s | %s |" % (
    version, leg["answers"], leg["workers"], format(leg["requests_per_second"], ",.1f"), leg["p50_ms"], leg["p99_ms"],
    leg["errors"], cpu, chunk))
PYTHON
done

python3 - "$BENCH_RUN/peer.json" "$LITELLM_VERSION" "$forwarded_intact" "$CONNECTIONS" "$THREADS" "$duration" "$warmup" \
    "$(wc -c <"$body")" "${legs_json[@]}" <<'PYTHON'
import json, sys

path, version, intact, connections, threads, duration, warmup, body_bytes, *legs = sys.argv[1:]
with open(path, "w") as file:
    json.dump({
        "peer": "litellm-proxy",
        "litellm_version": version,
        "forwarded_intact": intact == "true",
        "connections": int(connections),
        "threads": int(threads),
        "duration_seconds": int(duration),
        "warmup_seconds": int(warmup),
        "request_bytes": int(body_bytes),
        "legs": [json.loads(leg) for leg in legs],
    }, file, indent=2)
    file.write("\n")
PYTHON
$forwarded_intact || log "LiteLLM did not forward the request as Kiwi sends it (see above); the figures are still in peer.json"

# The comparisons: Kiwi's successful scans/s in scenario A against each whole leg's requests/s; Kiwi's CPU per streamed
# scan in S against LiteLLM's per streamed request (issue 56: the whole system at most half), and the worker's share of
# streaming against the floor under reading a stream (at most twice the event-loop reader's).
python3 - "$here" "$BENCH_RUN" <<'PYTHON'
import json, sys

sys.path.insert(0, sys.argv[1])
from bench_figures import pooled

run = sys.argv[2]
peer = json.load(open(f"{run}/peer.json"))["legs"]
kiwi = json.load(open(f"{run}/A.json"))["successfulScansPerSecond"]
print("\n| Kiwi scans/s (scenario A) | peer | workers | peer requests/s | Kiwi ÷ peer |\n|---:|---|---:|---:|---:|")
for leg in (leg for leg in peer if leg["answers"] == "whole"):
    ratio = kiwi / leg["requests_per_second"] if leg["requests_per_second"] else float("inf")
    print("| %.1f | LiteLLM | %d | %.1f | **%.2f×** |" % (kiwi, leg["workers"], leg["requests_per_second"], ratio))

streamed = pooled([json.load(open(f"{run}/S-streamed-1.json"))])
whole = pooled([json.load(open(f"{run}/S-whole-1.json"))])
kinds = streamed["byKindMsPerScan"]
for leg in (leg for leg in peer if leg["answers"] == "streamed" and leg["cpu_ms_per_request"]):
    litellm = leg["cpu_ms_per_request"]
    system, services = streamed["kiwiCPUMsPerScan"], kinds.get("gateway", 0) + kinds.get("worker", 0)
    print("\n| streamed, gpt-4o's pace | CPU ms per request | ÷ LiteLLM |\n|---|---:|---:|")
    print("| LiteLLM, %d worker(s), %.0f chunks a request | %.2f | |" % (leg["workers"], leg["chunks_per_request"] or 0, litellm))
    print("| Kiwi, all five processes (scenario S) | %.2f | **%.2f** |" % (system, system / litellm))
    print("| Kiwi, the gateway and the worker | %.2f | %.2f |" % (services, services / litellm))
    print("\nGoal: Kiwi's whole system at most 1/2 of LiteLLM's CPU per streamed request: %.2f, %s."
          % (system / litellm, "met" if system / litellm <= 0.5 else "missed"))
floor = json.load(open(f"{run}/S-floor-event-loop.json"))["cpuMsPerStream"]
added = kinds.get("worker", 0) - whole["byKindMsPerScan"].get("worker", 0)
print("The worker's CPU per scan streamed less whole (reading the stream, checking and showing each element): %.2f ms; "
      "the floor under reading the same stream on the event loop (kiwi-stream-floor): %.2f ms; %.2f× it (goal: at most 2×, %s)."
      % (added, floor, added / floor, "met" if added / floor <= 2 else "missed"))
PYTHON
printf '\nJSON: %s; LiteLLM and wrk logs: %s\n' "$BENCH_RUN/peer.json" "$PEER_RUN/logs"
