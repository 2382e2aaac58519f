"""A client of the official MCP Python SDK 2.x for wikid's end-to-end tests.

    python watch.py stdio WIKID REPO [URI...]
    python watch.py http URL TOKEN [URI...]

It connects on protocol 2026-07-28 (the SDK's auto mode), prints
{"event": "ready", "protocol": ...} and, with URIs, opens a
subscriptions/listen stream for them first. Each notification of a
changed resource is a line {"event": "updated", "uri": ...}: from the
stream, or, on any stream, whatever reaches the session (a session that
did not ask must be told nothing). A line "stop" on standard input closes
the stream (the URIs are unsubscribed) and prints {"event": "stopped"};
the end of standard input ends the client.
"""

import json
import sys

import anyio
import httpx2

from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.subscriptions import ResourceUpdated


def say(**fields):
    print(json.dumps(fields), flush=True)


async def on_message(message):
    """Whatever reaches the session outside a listen stream."""
    method = getattr(getattr(message, "root", message), "method", None) or getattr(message, "method", None)
    if method and method.startswith("notifications/resources/"):
        params = getattr(getattr(message, "root", message), "params", None)
        say(event="unrequested", method=method, uri=getattr(params, "uri", None))


async def main():
    kind, a, b, *uris = sys.argv[1:]
    if kind == "stdio":
        import os

        server = StdioServerParameters(command=a, args=["serve", "--repo", b], env=dict(os.environ))
        http = None
    else:
        http = httpx2.AsyncClient(headers={"Authorization": "Bearer " + b}, timeout=httpx2.Timeout(30, read=300))
        server = streamable_http_client(a, http_client=http)
    stdin = anyio.wrap_file(sys.stdin)
    async with Client(server, client_info=None, message_handler=on_message) as client:
        if not uris:
            say(event="ready", protocol=client.protocol_version)
            async for _ in stdin:
                pass
            return
        async with client.listen(resource_subscriptions=uris) as sub:
            say(event="ready", protocol=client.protocol_version, honored=list(sub.honored.resource_subscriptions or []))

            async def events():
                async for event in sub:
                    if isinstance(event, ResourceUpdated):
                        say(event="updated", uri=event.uri)

            async with anyio.create_task_group() as tg:
                tg.start_soon(events)
                async for line in stdin:
                    if line.strip() == "stop":
                        break
                tg.cancel_scope.cancel()
        say(event="stopped")
        async for _ in stdin:
            pass


anyio.run(main)
