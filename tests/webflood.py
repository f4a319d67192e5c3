"""Many live pages from many addresses against the web companion (tests/test_web_budget.py
and bench/web_flood.py): run as its own process, so its sockets do not count against the
server's open files.

    python tests/webflood.py PORT PATH ADDRESSES PER_ADDRESS

ADDRESSES: comma-separated local addresses to connect from (Linux routes all of
127.0.0.0/8 to loopback, so 127.0.0.2, 127.0.1.2, ... are many visitors on one machine).
Opens PER_ADDRESS streams (``GET PATH``) from each, every one at once (PATH ``-``: connections
that send half a request and wait, as a slow or hostile client does); prints one JSON line:
``{"held": streams answered 200 and kept open, "status": {code (or "timeout": no answer in
20 s, "connect_failed"): count}, "retry_after":
[distinct Retry-After values], "failed": connections closed or reset without an answer}``;
then holds the open streams until its standard input closes, and exits.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter


async def one(port: int, path: str, source: str, held: list, status: Counter, retry: set) -> None:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 20)
    except (OSError, TimeoutError):
        status["connect_failed"] += 1
        return
    if path == "-":  # half a request, then wait (what the server says, if anything, is not awaited)
        writer.write(b"GET / HTTP/1.1\r\n")
        status["idle"] += 1
        held.append((reader, writer))
        return
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
    except TimeoutError:  # no answer in 20 s: a visitor would have given up
        status["timeout"] += 1
        writer.close()
        return
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        status["failed"] += 1
        writer.close()
        return
    lines = head.decode("latin-1").split("\r\n")
    code = lines[0].split(" ")[1]
    status[code] += 1
    for line in lines[1:]:
        if line.lower().startswith("retry-after:"):
            retry.add(line.split(":", 1)[1].strip())
    if code == "200":
        held.append((reader, writer))
    else:
        writer.close()


async def drain(reader: asyncio.StreamReader) -> None:
    while await reader.read(65536):
        pass


async def main(port: int, path: str, addresses: list[str], per_address: int) -> None:
    held: list = []
    status: Counter = Counter()
    retry: set = set()
    await asyncio.gather(*(one(port, path, a, held, status, retry) for a in addresses for _ in range(per_address)))
    drains = [asyncio.ensure_future(drain(r)) for r, _ in held]
    failed = status.pop("failed", 0)
    print(json.dumps({"held": len(held), "status": dict(status), "retry_after": sorted(retry), "failed": failed}))
    sys.stdout.flush()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the parent closes our stdin
    for _, w in held:
        w.close()
    for d in drains:
        d.cancel()


if __name__ == "__main__":
    try:  # (the visitors' own sockets need files too)
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    except (ImportError, ValueError, OSError):
        pass
    port, path, addresses, per = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    asyncio.run(main(int(port), path, addresses.split(","), int(per)))
