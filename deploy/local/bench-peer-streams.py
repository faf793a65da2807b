"""Drives the streamed leg of bench-peer.sh: CONNECTIONS clients each POSTing BODY to URL and reading the streamed
answer to its end, again and again, and prints one JSON line of figures in wrk's shape (`kiwi-wrk {...}`) with the
proxy's CPU ticks over exactly the requests it counts.

    bench-peer-streams.py URL KEY BODY CONNECTIONS WARMUP_SECONDS SECONDS TICKS_COMMAND

wrk cannot say which requests a window's CPU paid for when each takes 20 s: it counts those that end inside the window
and drops those still in flight at its end, whose CPU the window has already paid. So here every client finishes the
request it is in before a phase ends: after the warm-up they all wait until none is in flight, TICKS_COMMAND (a shell
command printing the proxy's CPU ticks) runs, the measured phase starts requests for SECONDS, every one started is read
to its end, and TICKS_COMMAND runs again. A request counts when it answered 200 and its stream ended with `[DONE]`.
"""
import http.client
import json
import math
import subprocess
import sys
import threading
import time
import urllib.parse


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(len(values) * q) - 1))] if values else 0


def main(url, key, body_path, connections, warmup, seconds, ticks_command):
    target = urllib.parse.urlsplit(url)
    body = open(body_path, "rb").read()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    lock = threading.Lock()
    results = {"latencies": [], "chunks": 0, "status": 0, "read": 0, "warmup": 0}

    def one(connection, measured):
        started = time.monotonic()
        if not measured:
            with lock:
                results["warmup"] += 1
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            response = connection.getresponse()
            chunks, done = 0, False
            for line in response:
                if line.startswith(b"data: "):
                    if line.strip() == b"data: [DONE]":
                        done = True
                    else:
                        chunks += 1
            ok = response.status == 200 and done
        except (OSError, http.client.HTTPException):
            connection.close()
            if measured:
                with lock:
                    results["read"] += 1
            return
        if measured:
            with lock:
                if ok:
                    results["latencies"].append(time.monotonic() - started)
                    results["chunks"] += chunks
                else:
                    results["status"] += 1

    def client(until, measured):
        connection = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
        while time.monotonic() < until():
            one(connection, measured)
        connection.close()

    def phase(length, measured):
        end = time.monotonic() + length
        threads = [threading.Thread(target=client, args=(lambda: end, measured)) for _ in range(connections)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    ticks = lambda: int(subprocess.check_output(["bash", "-c", ticks_command]).decode().strip())
    if warmup > 0:
        phase(warmup, False)
    before, started = ticks(), time.monotonic()
    phase(seconds, True)
    after, elapsed = ticks(), time.monotonic() - started
    latencies = [l * 1e6 for l in results["latencies"]]
    print("kiwi-wrk " + json.dumps({
        "requests": len(latencies),
        "duration_us": int(elapsed * 1e6),
        "p50_us": int(percentile(latencies, 0.5)),
        "p99_us": int(percentile(latencies, 0.99)),
        "mean_us": sum(latencies) / len(latencies) if latencies else 0,
        "max_us": int(max(latencies, default=0)),
        "connect": 0, "read": results["read"], "write": 0, "status": results["status"], "timeout": 0,
        "chunks": results["chunks"],
        "ticks": after - before,
        "warmup_requests": results["warmup"],
    }))


if __name__ == "__main__":
    url, key, body, connections, warmup, seconds, ticks_command = sys.argv[1:]
    main(url, key, body, int(connections), int(warmup), int(seconds), ticks_command)
