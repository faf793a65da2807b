#!/usr/bin/env python3
"""A TCP relay, as one more network hop: `tcp-relay.py LISTEN_PORT TARGET_PORT [ONE_WAY_MS]` forwards
127.0.0.1:LISTEN_PORT to 127.0.0.1:TARGET_PORT, holding each chunk ONE_WAY_MS (default 0) in each direction, in order.
With 0 it adds about 0.2 ms to a round trip here (`psql` timing `SELECT 1`: 0.07-0.1 ms direct, 0.2-0.4 ms relayed),
about what a network between a service and its database adds. asyncio sleeps in whole milliseconds, so a delay
rounds up to at least 1 ms. For measurements only: `KIWI_BENCH_DATABASE_URL` points `make bench`'s services at it
(docs/operations.md, "Load testing")."""
import asyncio
import sys
import time


async def pump(reader, writer, delay):
    chunks = asyncio.Queue()

    async def read():
        while True:
            data = await reader.read(65536)
            await chunks.put((time.monotonic() + delay, data))
            if not data:
                return

    async def write():
        while True:
            due, data = await chunks.get()
            if (wait := due - time.monotonic()) > 0:
                await asyncio.sleep(wait)
            if not data:
                writer.close()
                return
            writer.write(data)
            await writer.drain()

    try:
        await asyncio.gather(read(), write())
    except Exception:
        writer.close()


async def main(listen_port, target_port, delay):
    async def relay(client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(pump(client_reader, server_writer, delay), pump(server_reader, client_writer, delay))

    async with await asyncio.start_server(relay, "127.0.0.1", listen_port) as server:
        await server.serve_forever()


asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3] if len(sys.argv) > 3 else 0) / 1000))
