"""A real `a2a-sdk` (the reference Python SDK, a2aproject/a2a-python) A2A server for
test/real-world/python-a2a-sdk.test.ts and record.mjs.

The SDK's own Starlette routes on uvicorn, 127.0.0.1 only:
  GET  /.well-known/agent-card.json   the card (create_agent_card_routes)
  POST /a2a/jsonrpc                   JSON-RPC, 1.0 methods AND the 0.3 compatibility layer
                                      (`message/send` ...; enable_v0_3_compat=True)
  POST /a2a/rest/message:send ...     HTTP+JSON 1.0; its 0.3 routes /a2a/rest/v1/... as well
behind the SDK's DefaultRequestHandler (V2) with an in-memory task store. With GRPC=1, the same
handler also over gRPC (the SDK's `grpc` extra, grpcio's asyncio server, 127.0.0.1 only): the 1.0
service `lf.a2a.v1.A2AService` (GrpcHandler) and the 0.3 service `a2a.v1.A2AService`
(CompatGrpcHandler) on one port, listed FIRST in the card (GRPC 1.0, GRPC 0.3, then the others).

The executor is deterministic (no model): it reads the skill id from the request metadata
(`params.metadata.skillId`), else the message metadata, else a data part `{"skill": ...}`, else
(a client naming no skill) the text's `<skill>:` prefix, and runs the skill:
  summarize  text/plain artifact "Summary: <first six words>."
  translate  text/plain artifact "FR: <text>"
each as: Task SUBMITTED → WORKING (status message) → artifact (lastChunk) → COMPLETED.
A text containing `max_words=-1` makes the skill raise the SDK's InvalidParamsError after the Task
event (the SDK's invalid-params wire: JSON-RPC -32602, HTTP+JSON 400 / SSE `event: error`).

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  GRPC     1: serve gRPC too (GRPC_PORT: its port, 0 or unset: a free one; the card names it)
  VARIANT  healthy | A | B
    healthy  skills summarize, translate
    A        translate removed from the card (version still 1.0.0); the executor answers a
             request for it the way a Python agent does: it fails the task with a status
             message "unknown skill: translate" (UNKNOWN_SKILL=status, the default), or raises
             ValueError("unknown skill: translate") (UNKNOWN_SKILL=raise)
    B        the card is identical to healthy, but summarize now returns an image/png raw part
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import asyncio
import base64
import os
import socket
import sys

from starlette.applications import Starlette

from a2a.helpers.proto_helpers import (
    new_raw_part,
    new_text_message,
    new_text_part,
    new_task_from_user_message,
)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import (
    create_agent_card_routes,
    create_jsonrpc_routes,
    create_rest_routes,
)
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.utils.errors import InvalidParamsError
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentProvider,
    AgentSkill,
)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi_async, variant  # noqa: E402  (../live_peer.py)

VARIANT = variant('healthy', 'A', 'B')
UNKNOWN_SKILL = os.environ.get('UNKNOWN_SKILL', 'status')

# A valid 1x1 PNG (variant B's summarize).
PNG_1X1 = base64.b64decode(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
)



def text_skill(skill_id: str, name: str, description: str, example: str) -> AgentSkill:
    return AgentSkill(
        id=skill_id,
        name=name,
        description=description,
        tags=['docs'],
        examples=[example],
        input_modes=['text/plain'],
        output_modes=['text/plain'],
    )


SKILLS = {
    'summarize': text_skill(
        'summarize', 'Summarize', 'Summarise a text in one sentence.', 'summarize: the quarterly report'
    ),
    'translate': text_skill('translate', 'Translate', 'Translate a text into French.', 'translate: hello'),
}
SERVED = ['summarize'] if VARIANT == 'A' else ['summarize', 'translate']


def build_card(port: int, grpc_port: int | None = None) -> AgentCard:
    base = f'http://127.0.0.1:{port}/a2a'
    grpc_interfaces = (
        []
        if grpc_port is None
        else [
            AgentInterface(url=f'127.0.0.1:{grpc_port}', protocol_binding='GRPC', protocol_version=v)
            for v in ('1.0', '0.3')
        ]
    )
    interfaces = grpc_interfaces + [
        AgentInterface(url=f'{base}/jsonrpc', protocol_binding='JSONRPC', protocol_version='1.0'),
        AgentInterface(url=f'{base}/jsonrpc', protocol_binding='JSONRPC', protocol_version='0.3'),
        AgentInterface(url=f'{base}/rest', protocol_binding='HTTP+JSON', protocol_version='1.0'),
        AgentInterface(url=f'{base}/rest', protocol_binding='HTTP+JSON', protocol_version='0.3'),
    ]
    return AgentCard(
        name='Docs Agent',
        description='Summarises and translates texts.',
        supported_interfaces=interfaces,
        provider=AgentProvider(url='https://example.com', organization='A2A Samples'),
        version='1.0.0',
        capabilities=AgentCapabilities(streaming=True, push_notifications=False),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[SKILLS[s] for s in SERVED],
    )


def skill_of(context: RequestContext) -> str | None:
    """The skill id the client asked for: request metadata, message metadata, data part."""
    skill = (context.metadata or {}).get('skillId')
    msg = context.message
    if not skill and msg is not None and msg.HasField('metadata'):
        skill = msg.metadata.fields.get('skillId')
        skill = skill.string_value if skill is not None else None
    if not skill and msg is not None:
        for part in msg.parts:
            if part.HasField('data') and part.data.HasField('struct_value'):
                s = part.data.struct_value.fields.get('skill')
                if s is not None and s.string_value:
                    skill = s.string_value
                    break
    if not skill:
        # a client that names no skill (ADK's RemoteA2aAgent, Strands...): routed by the words,
        # as an agent whose model reads the request would (`summarize: ...`)
        text = context.get_user_input()
        skill = next((s for s in SKILLS if text.startswith(f'{s}:')), None)
    return skill or None


def user_text(context: RequestContext) -> str:
    text = context.get_user_input()
    for prefix in ('summarize:', 'translate:'):
        if text.startswith(prefix):
            return text[len(prefix):].strip()
    return text


class DocsExecutor(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        skill = skill_of(context)
        if skill not in SERVED:
            reason = f'unknown skill: {skill}'
            if UNKNOWN_SKILL == 'raise':
                raise ValueError(reason)
            await updater.failed(new_text_message(reason, context_id=task.context_id, task_id=task.id))
            return
        text = user_text(context)
        if 'max_words=-1' in text:
            # a skill's own parameter check, the SDK's error type (after the Task event)
            raise InvalidParamsError(
                message=f"Invalid params for skill '{skill}': 'max_words' must be a positive integer"
            )
        await updater.start_work(
            new_text_message(f'{skill}: working', context_id=task.context_id, task_id=task.id)
        )
        if skill == 'summarize' and VARIANT == 'B':
            parts = [new_raw_part(PNG_1X1, media_type='image/png', filename='summary.png')]
        elif skill == 'summarize':
            words = text.split()[:6]
            parts = [new_text_part(f"Summary: {' '.join(words)}.", media_type='text/plain')]
        else:
            parts = [new_text_part(f'FR: {text}', media_type='text/plain')]
        await updater.add_artifact(parts, name=skill, last_chunk=True)
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise ValueError('cancel not supported')


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    asyncio.run(serve(sock, port))


async def serve(sock: socket.socket, port: int) -> None:
    grpc_server = None
    grpc_port = None
    if os.environ.get('GRPC') == '1':
        import grpc  # the `grpc` extra; grpc.aio's server belongs to this running loop

        grpc_server = grpc.aio.server()
        grpc_port = grpc_server.add_insecure_port(
            f"127.0.0.1:{int(os.environ.get('GRPC_PORT', '0') or 0)}"
        )
    card = build_card(port, grpc_port)
    handler = DefaultRequestHandler(
        agent_executor=DocsExecutor(), task_store=InMemoryTaskStore(), agent_card=card
    )
    if grpc_server is not None:
        from a2a.compat.v0_3 import a2a_v0_3_pb2_grpc
        from a2a.compat.v0_3.grpc_handler import CompatGrpcHandler
        from a2a.server.request_handlers.grpc_handler import GrpcHandler
        from a2a.types import a2a_pb2_grpc

        a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), grpc_server)
        a2a_v0_3_pb2_grpc.add_A2AServiceServicer_to_server(CompatGrpcHandler(handler), grpc_server)
        await grpc_server.start()
    routes = [
        *create_agent_card_routes(card),
        *create_jsonrpc_routes(handler, '/a2a/jsonrpc', enable_v0_3_compat=True),
        *create_rest_routes(handler, enable_v0_3_compat=True, path_prefix='/a2a/rest'),
    ]
    await serve_asgi_async(Starlette(routes=routes), sock, lifespan='off')


if __name__ == '__main__':
    main()
