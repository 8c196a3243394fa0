"""A live Python (Starlette 1.10 on uvicorn 0.55) A2A peer that answers badly, for
test/real-world/python-bad-input.test.ts (the "Bad input" case). It runs in the FastA2A
virtual environment (test/real-world/python/fasta2a/.venv: no lock of its own) and serves
several agents, each under its own base path, each with a 0.3 card at
`<base>/.well-known/agent-card.json` and JSON-RPC at `<base>/`:

  /traceback/  a healthy card; every JSON-RPC call raises inside the handler: Starlette's
               ServerErrorMiddleware with debug=True answers 500 with the real Python
               traceback (HTML when the request accepts text/html, text/plain otherwise)
  /cut/        a healthy card; `message/stream` answers 200 text/event-stream with one whole
               `status-update` event, then writes half of the next `data:` line and drops the
               connection (the generator raises: uvicorn closes the socket without the
               chunked terminator). `message/send` answers a completed task (healthy).
  /cut-eof/    the same stream, but the response ENDS cleanly inside the `data:` line
               (chunked terminator sent: an EOF mid-event, no network error)
  /nulls/      a card serialised from Python `None`s where JS expects arrays:
               `defaultOutputModes: null`, skill `tags: null`, skill `outputModes: null`
               (the card is otherwise whole); JSON-RPC answers a completed task with a text
               artifact, and a stream of the same
  /null-skills/ the same card with `skills: null`

env: PORT (0 or unset: a free one). Prints {"port":N} once uvicorn accepts connections.
"""

import asyncio
import json
import os
import sys

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi  # noqa: E402  (../live_peer.py)

PORT = 0


def card(base: str, **override) -> dict:
    c = {
        'name': f'bad-input {base}',
        'description': 'A Python agent that answers badly',
        'url': f'http://127.0.0.1:{PORT}/{base}/',
        'version': '1.0.0',
        'protocolVersion': '0.3.0',
        'preferredTransport': 'JSONRPC',
        'capabilities': {'streaming': True},
        'defaultInputModes': ['text/plain'],
        'defaultOutputModes': ['text/plain'],
        'skills': [
            {
                'id': 'summarize',
                'name': 'Summarize',
                'description': 'Summarise a text in one sentence.',
                'tags': ['docs'],
                'inputModes': ['text/plain'],
                'outputModes': ['text/plain'],
            }
        ],
    }
    for k, v in override.items():
        if k == 'skill':
            c['skills'][0].update(v)
        else:
            c[k] = v
    return c


CARDS = {
    'traceback': lambda: card('traceback'),
    'cut': lambda: card('cut'),
    'cut-eof': lambda: card('cut-eof'),
    'nulls': lambda: card(
        'nulls', defaultOutputModes=None, skill={'tags': None, 'outputModes': None}
    ),
    'null-skills': lambda: card('null-skills', skills=None),
}


def python_json(obj) -> Response:
    # json.dumps turns Python's None into null, exactly as a pydantic/dataclass card would
    return Response(json.dumps(obj), media_type='application/json')


async def get_card(request: Request) -> Response:
    return python_json(CARDS[request.path_params['base']]())


def task(rpc_id, text: str) -> dict:
    return {
        'jsonrpc': '2.0',
        'id': rpc_id,
        'result': {
            'kind': 'task',
            'id': 'task-1',
            'contextId': 'ctx-1',
            'status': {'state': 'completed'},
            'artifacts': [
                {'artifactId': 'a-1', 'parts': [{'kind': 'text', 'text': f'Summary: {text}'}]}
            ],
        },
    }


def sse(obj) -> bytes:
    return f'data: {json.dumps(obj)}\n\n'.encode()


def events(rpc_id, text: str) -> list[dict]:
    status = lambda state, final: {  # noqa: E731
        'jsonrpc': '2.0',
        'id': rpc_id,
        'result': {
            'kind': 'status-update',
            'taskId': 'task-1',
            'contextId': 'ctx-1',
            'status': {'state': state},
            'final': final,
        },
    }
    artifact = {
        'jsonrpc': '2.0',
        'id': rpc_id,
        'result': {
            'kind': 'artifact-update',
            'taskId': 'task-1',
            'contextId': 'ctx-1',
            'artifact': {'artifactId': 'a-1', 'parts': [{'kind': 'text', 'text': f'Summary: {text}'}]},
        },
    }
    return [status('working', False), artifact, status('completed', True)]


class CutHere(Exception):
    """Raised mid-body: uvicorn drops the connection."""


async def rpc(request: Request) -> Response:
    base = request.path_params['base']
    body = await request.json()
    rpc_id = body.get('id')
    method = body.get('method')
    try:
        text = body['params']['message']['parts'][0]['text']
    except (KeyError, IndexError, TypeError):
        text = ''
    if base == 'traceback':
        # a bug in the agent: Starlette(debug=True) renders this traceback as the 500 page
        skills = None
        return JSONResponse({'skill': skills[0]})  # TypeError: 'NoneType' object is not subscriptable
    if method == 'message/stream':
        evs = events(rpc_id, text)
        if base in ('cut', 'cut-eof'):
            whole = sse(evs[0])
            half = sse(evs[1])[: len(sse(evs[1])) // 2]  # inside the `data:` line

            async def cut():
                yield whole
                await asyncio.sleep(0.05)
                yield half
                await asyncio.sleep(0.05)
                if base == 'cut':
                    raise CutHere('connection dropped inside a data: line')

            return StreamingResponse(cut(), media_type='text/event-stream')

        async def whole_stream():
            for e in evs:
                yield sse(e)

        return StreamingResponse(whole_stream(), media_type='text/event-stream')
    return python_json(task(rpc_id, text))


def main() -> None:
    global PORT
    sock = listening_socket()
    PORT = sock.getsockname()[1]
    app = Starlette(
        debug=True,
        routes=[
            Route('/{base}/.well-known/agent-card.json', get_card, methods=['GET']),
            Route('/{base}/', rpc, methods=['POST']),
        ],
    )
    serve_asgi(app, sock)

if __name__ == '__main__':
    main()
