#!/usr/bin/env python3
"""The peer of ServeBench's client in scripts/peer/compare: an asyncio + aiohttp streaming client written the way
vLLM's benchmark client is (vllm/benchmarks/lib/endpoint_request_func.py, async_request_openai_chat_completions:
one aiohttp ClientSession, a POST with stream=true per request, the response body read chunk by chunk, each
"data: " line parsed with json.loads and timed with time.perf_counter), sending at a constant rate, open loop.

    aiohttp_client.py URL RATE REQUESTS     prints: requests ok, token events, seconds
"""
import asyncio
import json
import sys
import time

import aiohttp


async def one(session, url, i, stats):
    body = {"model": "truth-model", "messages": [{"role": "user", "content": "peer request %d" % i}],
            "max_tokens": 100, "stream": True, "stream_options": {"include_usage": True}}
    start = time.perf_counter()
    ttft = None
    itl = []
    last = start
    async with session.post(url + "/v1/chat/completions", json=body) as response:
        if response.status != 200:
            return
        buffer = b""
        async for chunk in response.content.iter_any():
            buffer += chunk
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                line = message.strip()
                if not line.startswith(b"data: "):
                    continue
                data = line[len(b"data: "):]
                if data == b"[DONE]":
                    continue
                event = json.loads(data)
                choices = event.get("choices")
                if choices and choices[0]["delta"].get("content"):
                    now = time.perf_counter()
                    if ttft is None:
                        ttft = now - start
                    else:
                        itl.append(now - last)
                    last = now
                    stats["events"] += 1
    stats["ok"] += 1


async def main(url, rate, requests):
    stats = {"ok": 0, "events": 0}
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as session:
        t0 = time.perf_counter()
        tasks = []
        for i in range(requests):
            delay = t0 + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(session, url, i, stats)))
        await asyncio.gather(*tasks)
        print("%d %d %.3f" % (stats["ok"], stats["events"], time.perf_counter() - t0))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3])))
