#!/usr/bin/env python3
"""The graphql-ws protocol's edges, spoken frame by frame with the PyPI `websockets` client, for
LiveSocketTests.swift (which starts the server with small limits: 2 operations per connection,
2 connections per person, 1 KiB messages, 0.5 s to initialise, 3 s idle):

    python3 ws_protocol.py URL TOKEN

Prints one line per case, `<case>: <what happened>`, each what the server answered or the close
code it closed with.
"""

import asyncio
import json
import sys

import websockets

SUBSCRIPTION = "subscription { notificationAdded { title } }"


def connect(url):
    return websockets.connect(url, subprotocols=["graphql-transport-ws"], open_timeout=10)


async def closed_with(ws):
    """Reads until the server closes; the close code."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout=10)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def send(ws, message):
    await ws.send(json.dumps(message))


async def receive(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), timeout=10))


async def initialised(url, token):
    ws = await connect(url)
    await send(ws, {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})
    ack = await receive(ws)
    assert ack == {"type": "connection_ack"}, ack
    return ws


async def main(url, token):
    async with connect(url) as ws:
        await ws.send("not json")
        print("bad message:", await closed_with(ws))

    async with connect(url) as ws:
        await send(ws, {"id": "1", "type": "subscribe", "payload": {"query": SUBSCRIPTION}})
        print("subscribe before init:", await closed_with(ws))

    async with connect(url) as ws:
        print("no init:", await closed_with(ws))

    async with await initialised(url, token) as ws:
        await send(ws, {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})
        print("second init:", await closed_with(ws))

    async with await initialised(url, token) as ws:
        await send(ws, {"type": "ping"})
        print("ping:", (await receive(ws))["type"])
        await send(ws, {"id": "q", "type": "subscribe", "payload": {"query": "{ me { role } }"}})
        answered = [await receive(ws), await receive(ws)]
        print("query:", " ".join(f"{m['type']} {json.dumps(m.get('payload'), sort_keys=True)}" for m in answered))
        await send(ws, {"id": "bad", "type": "subscribe", "payload": {"query": "{ nope }"}})
        refused = await receive(ws)
        print("invalid query:", refused["type"], refused["payload"][0]["extensions"]["code"])
        await send(ws, {"id": "1", "type": "subscribe", "payload": {"query": SUBSCRIPTION}})
        await send(ws, {"id": "2", "type": "subscribe", "payload": {"query": SUBSCRIPTION}})
        await send(ws, {"id": "3", "type": "subscribe", "payload": {"query": SUBSCRIPTION}})
        third = await receive(ws)
        print("third operation:", third["id"], third["type"], third["payload"][0]["extensions"]["code"])
        await send(ws, {"id": "2", "type": "complete"})
        await send(ws, {"id": "2", "type": "subscribe", "payload": {"query": SUBSCRIPTION}})
        await send(ws, {"id": "1", "type": "subscribe", "payload": {"query": SUBSCRIPTION}})
        print("same id again:", await closed_with(ws))

    first = await initialised(url, token)
    second = await initialised(url, token)
    # Both are busy, not idle, when the third asks (on a loaded machine opening three connections
    # can take longer than the idle timeout).
    for busy in (first, second):
        await send(busy, {"type": "ping"})
        await receive(busy)
    async with connect(url) as third:
        await send(third, {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})
        print("third connection:", await closed_with(third))
    await first.close()
    await second.close()

    async with await initialised(url, token) as ws:
        await ws.send(json.dumps({"type": "ping", "payload": {"padding": "x" * 2048}}))
        print("too big:", await closed_with(ws))

    async with await initialised(url, token) as ws:
        print("idle:", await closed_with(ws))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
