"""What every Python peer of the real-world suite does the same way, imported by
<impl>/peer.py (each runs with its own venv; this file needs only the standard library, and
uvicorn for `serve_asgi`):

  listening_socket()  a TCP socket bound to 127.0.0.1:$PORT (0 or unset: a free port), listening
  announce(port)      the one stdout line ../python-peer.mjs waits for: {"port": N}
  serve_asgi(app, s)  runs an ASGI app on uvicorn over socket s, announcing once it accepts
                      (serve_asgi_async: the same inside a running event loop)
  variant(*allowed)   the peer's $VARIANT (healthy unless set), or exit naming those allowed
  translate(text)     the `translate` tool of the model-scripted peers, "FR: <text>"
"""

import asyncio
import json
import os
import socket
import sys
from typing import Any


def listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', int(os.environ.get('PORT', '0') or 0)))
    sock.listen(128)
    return sock


def announce(port: int) -> None:
    sys.stdout.write(json.dumps({'port': port}) + '\n')
    sys.stdout.flush()


async def serve_asgi_async(app: Any, sock: socket.socket, **config: Any) -> None:
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', **config))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()
            return
        await asyncio.sleep(0.01)
    announce(sock.getsockname()[1])
    await task


def serve_asgi(app: Any, sock: socket.socket) -> None:
    asyncio.run(serve_asgi_async(app, sock))


def variant(*allowed: str) -> str:
    value = os.environ.get('VARIANT', 'healthy')
    if value not in allowed:
        raise SystemExit(f"VARIANT must be {'|'.join(allowed)}, not {value}")
    return value


def translate(text: str) -> str:
    """Translate a text into French.

    Args:
        text: the text to translate
    """
    return f'FR: {text}'
