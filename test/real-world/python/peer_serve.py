"""What every Python peer here does to be started by python-peer.mjs / child-peer.mjs: bind
127.0.0.1:$PORT (0 or unset: a free port) itself, so the port is known before the app is built,
run uvicorn on that socket, and print one JSON line {"port":N} on stdout once uvicorn accepts
connections (logs go to stderr). A peer imports it with its folder's parent on sys.path:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from peer_serve import bind_socket, serve
"""

import asyncio
import json
import os
import signal
import socket
import sys

import uvicorn


def bind_socket() -> tuple[socket.socket, int]:
    """A socket bound to 127.0.0.1:$PORT, and its port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', int(os.environ.get('PORT', '0') or 0)))
    return sock, sock.getsockname()[1]


def serve(app, sock: socket.socket, port: int, clean_exit: bool = False, **config) -> None:
    """Serves `app` (an ASGI app or its import string) on `sock`; announces the port once
    started. `clean_exit`: SIGTERM ends the process through uvicorn's shutdown and a normal exit
    (atexit handlers run) rather than by the re-raised signal. `config`: uvicorn.Config's."""
    server = uvicorn.Server(uvicorn.Config(app, **{'log_level': 'warning', **config}))

    async def run() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                task.result()
                return
            await asyncio.sleep(0.01)
        sys.stdout.write(json.dumps({'port': port}) + '\n')
        sys.stdout.flush()
        await task

    if clean_exit:
        signal.signal(signal.SIGTERM, lambda *_: setattr(server, 'should_exit', True))
    asyncio.run(run())
