"""A real Microsoft Agent Framework A2A host (`agent-framework-a2a` 1.0.0b261022 on
`agent-framework-core` 1.26.0 and the reference `a2a-sdk` 1.3.0 server) for
its row of the conformance table (test/real-world/rows/python-agent-framework.ts).

What the framework's A2A hosting is: `agent_framework_a2a.A2AExecutor(agent, stream=...)` behind
the SDK's `DefaultRequestHandler`; the app writes the card and mounts the SDK's routes itself (the
shape of the executor's own docstring). Here, on uvicorn, 127.0.0.1 only:
  GET  /.well-known/agent-card.json   the card (create_agent_card_routes), A2A 1.0
  POST /a2a/jsonrpc                   JSON-RPC 1.0 and the 0.3 compatibility layer
  POST /a2a/rest/message:send ...     HTTP+JSON 1.0 (and its 0.3 routes /a2a/rest/v1/...)
The card's skills are the agent's tools (id = tool name, as an app lists them), output modes
text/plain.

The model is `ScriptedChatClient`, a `BaseChatClient` with the framework's own
`FunctionInvocationLayer` (so tool calls run through the framework's function loop):
deterministic, no network, no key. On a user prompt it calls the first tool it was TRAINED on
(`summarize`, `translate`) named in the text (`summarize: some text` → summarize(text="some
text")), whether the agent still has it or not; after a tool result it answers with that result's
text (for a tool the agent no longer has, the framework's own `Error: Requested function
"translate" not found.`); with no tool named it echoes the text.

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A | B
    healthy  tools (and card skills) summarize, translate
    A        translate removed from the agent and so from the card (version still 1.0.0); the
             model still calls it
    B        the card is the healthy one, but the model now answers summarize with an image
             (a data content, image/png), which the executor sends as a raw part
  UNKNOWN  result (default: the framework answers the model with the error text) |
           terminate (`terminate_on_unknown_calls=True`: the run fails, the task FAILED with that
           text as its status message)
  STREAM   0 (default: A2AExecutor(stream=False), the answer as a WORKING status message) |
           1 (stream=True: the answer as artifact updates)
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import os
import re
import sys
import warnings
from collections.abc import AsyncIterable
from typing import Any

from starlette.applications import Starlette

from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentSkill
from agent_framework import (
    Agent,
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
    ResponseStream,
    tool,
)
from agent_framework_a2a import A2AExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)

warnings.simplefilter('ignore')

VARIANT = variant('healthy', 'A', 'B')
UNKNOWN = os.environ.get('UNKNOWN', 'result')
STREAM = os.environ.get('STREAM', '0') == '1'

TRAINED_TOOLS = ['summarize', 'translate']
# a 1x1 PNG: what the variant-B model answers summarize with
PNG = bytes.fromhex(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000'
    '1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082'
)


class ScriptedChatClient(FunctionInvocationLayer, BaseChatClient):
    """A deterministic chat client: the framework's function loop over a scripted model."""

    def _reply(self, messages: list[Message]) -> list[Content]:
        last = messages[-1]
        results = [c for c in last.contents if c.type == 'function_result']
        if results:
            if VARIANT == 'B':
                return [Content.from_data(PNG, 'image/png')]
            return [Content.from_text(''.join(str(r.result) for r in results))]
        user = ''.join(c.text or '' for c in last.contents if c.type == 'text')
        m = re.search(r'\b(' + '|'.join(TRAINED_TOOLS) + r')\b', user)
        if m:
            rest = re.sub(r'^' + m.group(1) + r'\s*:\s*', '', user.strip())
            return [Content.from_function_call('call-1', m.group(1), arguments={'text': rest})]
        return [Content.from_text(f'(desk) {user}')]

    def _inner_get_response(self, *, messages, stream, options, **kwargs):  # type: ignore[override]
        contents = self._reply(list(messages))
        if not stream:

            async def respond() -> ChatResponse:
                return ChatResponse(
                    messages=[Message(role='assistant', contents=contents)], response_id='scripted'
                )

            return respond()

        async def updates() -> AsyncIterable[ChatResponseUpdate]:
            yield ChatResponseUpdate(role='assistant', contents=contents, response_id='scripted')

        return ResponseStream(updates(), finalizer=ChatResponse.from_updates)


@tool
def summarize(text: str) -> str:
    """Summarise a text in one sentence."""
    return f"Summary: {' '.join(text.split()[:6])}."


@tool
def translate(text: str) -> str:
    """Translate a text into French."""
    return f'FR: {text}'


def build_card(base: str, tools: list[Any]) -> AgentCard:
    return AgentCard(
        name='desk',
        description='Summarises and translates texts',
        version='1.0.0',
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        capabilities=AgentCapabilities(streaming=True),
        supported_interfaces=[
            AgentInterface(url=f'{base}/a2a/jsonrpc', protocol_binding='JSONRPC', protocol_version='1.0'),
            AgentInterface(url=f'{base}/a2a/rest', protocol_binding='HTTP+JSON', protocol_version='1.0'),
            AgentInterface(url=f'{base}/a2a/jsonrpc', protocol_binding='JSONRPC', protocol_version='0.3'),
        ],
        skills=[
            AgentSkill(
                id=t.name,
                name=t.name,
                description=t.description,
                tags=['text'],
                input_modes=['text/plain'],
                output_modes=['text/plain'],
            )
            for t in tools
        ],
    )


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    tools = [summarize] if VARIANT == 'A' else [summarize, translate]
    client = ScriptedChatClient(
        function_invocation_configuration={'terminate_on_unknown_calls': UNKNOWN == 'terminate'}
    )
    agent = Agent(client=client, name='desk', instructions='Summarise or translate.', tools=tools)
    card = build_card(f'http://127.0.0.1:{port}', [summarize, translate] if VARIANT == 'B' else tools)
    handler = DefaultRequestHandler(
        agent_executor=A2AExecutor(agent, stream=STREAM),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    app = Starlette(
        routes=[
            *create_agent_card_routes(card),
            *create_jsonrpc_routes(handler, '/a2a/jsonrpc', enable_v0_3_compat=True),
            *create_rest_routes(handler, enable_v0_3_compat=True, path_prefix='/a2a/rest'),
        ]
    )
    serve_asgi(app, sock)

if __name__ == '__main__':
    main()
