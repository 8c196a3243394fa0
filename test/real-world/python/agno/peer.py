"""A real Agno AgentOS (`agno[os,a2a]` 3.1.10, on the reference `a2a-sdk` 0.3) A2A server for
the python-agno row of test/real-world/rows/python-agno.ts: an Agno `Agent` (id
`desk`, tools `summarize`, `translate`) served by `AgentOS(agents=[...], a2a_interface=True)` (its FastAPI app, A2A routes from
agno/os/interfaces/a2a/router.py) on uvicorn, 127.0.0.1. No database, telemetry off.

What AgentOS serves per agent (router.py `attach_routes`):
  GET  /a2a/agents/desk/.well-known/agent-card.json   the card; its `url` is the STREAMING route
                                                      (built from the request's base URL)
  POST /a2a/agents/desk/v1/message:send               JSON-RPC 0.3 `message/send`, a JSON answer
  POST /a2a/agents/desk/v1/message:stream             JSON-RPC 0.3 `message/stream` only (a
                                                      `message/send` body is an HTTP 400), SSE
The card has ONE skill, built from the agent and not from its tools (`AgentSkill(id=agent.id,
name=agent.name, tags=["agno"], examples=["search", "ok"], output_modes=["application/json"])`),
version "1.0.0" hard-coded, default modes ["text"]. So removing a tool changes nothing on it.

The model is `ScriptedModel`, a subclass of Agno's `agno.models.base.Model` (deterministic, no
network, no key): on a user prompt it calls the first tool it was TRAINED on (`summarize`,
`translate`) named in the text (`summarize: some text` -> summarize(text="some text")), whether
the agent still has it or not; after a tool result it answers with that result's text (for a
tool the agent no longer has, Agno's own "Error: The requested tool does not exist or is not
available." from agno/models/base.py `get_function_calls_to_run`, which names no tool); with no
tool named it echoes the text.

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A | B
    healthy  tools summarize, translate
    A        translate removed from the agent (the card is unchanged: its skill is the agent);
             the model still calls it
    B        summarize answers with an image: the tool returns
             `ToolResult(images=[Image(url=…png, mime_type="image/png")])`, which Agno puts on
             the run output's `images`; the A2A mapping (utils.py `map_run_output_to_a2a_task`)
             sends it as an artifact `image_0` with ONE FILE part `{uri, mimeType: "image/jpeg"}`
             (the media type is hard-coded there; the stream's final Task says `image/*`), where
             the card's skill says application/json and the defaults text. An image with bytes
             and no URL becomes an artifact with NO parts. The model's text answer is the tool's
             `content`.
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import json
import os
import re
import sys
import warnings
from collections.abc import AsyncIterator, Iterator
from typing import Any

os.environ.setdefault('AGNO_TELEMETRY', 'false')

from agno.agent import Agent  # noqa: E402
from agno.media import Image  # noqa: E402
from agno.models.base import Model  # noqa: E402
from agno.models.response import ModelResponse  # noqa: E402
from agno.os import AgentOS  # noqa: E402
from agno.tools import tool  # noqa: E402
from agno.tools.function import ToolResult  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)
from live_peer import translate as live_translate  # noqa: E402

warnings.simplefilter('ignore')

VARIANT = variant('healthy', 'A', 'B')

TRAINED_TOOLS = ['summarize', 'translate']
# where VARIANT B's summary image lives (never fetched: Agno only passes the URL on)
SUMMARY_PNG_URL = 'https://media.example.invalid/summary.png'


class ScriptedModel(Model):
    """A deterministic Agno model: one ModelResponse per turn, no I/O."""

    def __init__(self) -> None:
        super().__init__(id='scripted', name='ScriptedModel', provider='scripted')

    def _reply(self, messages: list[Any]) -> ModelResponse:
        last = messages[-1]
        # after a tool call: its result (Agno may append a user message after it, "The tool
        # call above generated the attached media.", when the tool returned media)
        for msg in reversed(messages):
            if msg.role == 'tool':
                return ModelResponse(role='assistant', content=str(msg.content))
            if msg.role == 'assistant':
                break
        user = str(last.content or '')
        m = re.search(r'\b(' + '|'.join(TRAINED_TOOLS) + r')\b', user)
        if m:
            rest = re.sub(r'^' + m.group(1) + r'\s*:\s*', '', user.strip())
            return ModelResponse(
                role='assistant',
                tool_calls=[
                    {
                        'id': 'call-1',
                        'type': 'function',
                        'function': {'name': m.group(1), 'arguments': json.dumps({'text': rest})},
                    }
                ],
            )
        return ModelResponse(role='assistant', content=f'(desk) {user}')

    def invoke(self, messages, assistant_message=None, **kwargs: Any) -> ModelResponse:  # type: ignore[override]
        return self._reply(messages)

    async def ainvoke(self, messages, assistant_message=None, **kwargs: Any) -> ModelResponse:  # type: ignore[override]
        return self._reply(messages)

    def invoke_stream(self, messages, assistant_message=None, **kwargs: Any) -> Iterator[ModelResponse]:  # type: ignore[override]
        yield self._reply(messages)

    async def ainvoke_stream(  # type: ignore[override]
        self, messages, assistant_message=None, **kwargs: Any
    ) -> AsyncIterator[ModelResponse]:
        yield self._reply(messages)

    def _parse_provider_response(self, response: Any, **kwargs: Any) -> ModelResponse:
        return response

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response


@tool
def summarize(text: str) -> Any:
    """Summarise a text in one sentence.

    Args:
        text: the text to summarise
    """
    if VARIANT == 'B':
        return ToolResult(
            content='Summary rendered as an image.',
            images=[Image(url=SUMMARY_PNG_URL, mime_type='image/png', format='png', id='summary-png')],
        )
    return f"Summary: {' '.join(text.split()[:6])}."


translate = tool(live_translate)


def main() -> None:
    sock = listening_socket()
    tools = [summarize] if VARIANT == 'A' else [summarize, translate]
    agent = Agent(
        id='desk',
        name='desk',
        description='Summarises and translates texts',
        model=ScriptedModel(),
        tools=tools,
        telemetry=False,
    )
    agent_os = AgentOS(agents=[agent], a2a_interface=True, telemetry=False)
    serve_asgi(agent_os.get_app(), sock)


if __name__ == '__main__':
    main()
