"""A real AWS Strands Agents (`strands-agents[a2a]` 1.62.0) A2A server for
test/real-world/python-strands.test.ts: a Strands `Agent` (tools `summarize`, `translate`) served
by Strands' own `strands.multiagent.a2a.A2AServer` (its Starlette app on the reference
`a2a-sdk` 0.3 server, `StrandsA2AExecutor`) on uvicorn, 127.0.0.1. The card's skills are what
A2AServer derives from the agent's tools (no explicit `skills=`).

The model is `ScriptedModel`, a `strands.models.Model` subclass (deterministic, no network, no
key): on a user prompt it calls the first tool it was TRAINED on (`summarize`, `translate`) named
in the text (`summarize: some text` → summarize(text="some text")), whether the agent still has
it or not; after a tool result it answers with that result's text (for a tool the agent no
longer has, Strands' own "Unknown tool: translate"); with no tool named it echoes the text.

env:
  PORT       port on 127.0.0.1 (0 or unset: a free one)
  VARIANT    healthy | A | A-fail
    healthy  tools (and so card skills) summarize, translate
    A        translate removed from the agent, hence from the card (version still 1.0.0); the
             model still calls it
    A-fail   the same agent and card as A, but the model is one that refuses a request forcing
             a tool the request does not offer, as providers do (Anthropic's `tool_choice` naming
             a tool absent from `tools`, Bedrock's ValidationException): asked for a trained
             tool missing from `tool_specs`, ScriptedModel RAISES (a ValueError naming the
             tool, which stays in the server's log). Strands' executor turns ANY exception of
             the agent into a failed task with a fixed text, so the client that called translate
             gets state failed and the one text "Agent execution failed", no tool name:
             strands/multiagent/a2a/executor.py (1.62.0) lines 363-369, `StrandsA2AExecutor.execute`:
               except Exception:
                   ...
                   await updater.failed(
                       message=updater.new_agent_message(parts=[Part(root=TextPart(text="Agent execution failed"))])
  STREAMING  legacy (A2AServer's default: text chunks as `working` status messages) |
             compliant (`enable_a2a_compliant_streaming=True`: artifact updates)
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import json
import os
import re
import sys
import warnings
from collections.abc import AsyncGenerator
from typing import Any

from strands import Agent, tool
from strands.models import Model
from strands.multiagent.a2a import A2AServer

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)
from live_peer import translate as live_translate  # noqa: E402

warnings.simplefilter('ignore')

VARIANT = variant('healthy', 'A', 'A-fail')
STREAMING = os.environ.get('STREAMING', 'legacy')

TRAINED_TOOLS = ['summarize', 'translate']


class ScriptedModel(Model):
    """A deterministic Strands model: ConverseStream-shaped events, no I/O."""

    def __init__(self) -> None:
        self.config: dict[str, Any] = {'model_id': 'scripted'}

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def get_config(self) -> Any:
        return self.config

    async def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):  # type: ignore[override]
        raise NotImplementedError('ScriptedModel has no structured output')
        yield {}  # pragma: no cover

    @staticmethod
    def _text(text: str) -> list[dict[str, Any]]:
        return [
            {'messageStart': {'role': 'assistant'}},
            {'contentBlockStart': {'start': {}}},
            {'contentBlockDelta': {'delta': {'text': text}}},
            {'contentBlockStop': {}},
            {'messageStop': {'stopReason': 'end_turn'}},
        ]

    def _reply(
        self, messages: list[dict[str, Any]], offered: list[str] | None = None
    ) -> list[dict[str, Any]]:
        last = messages[-1]
        for block in last.get('content', []):
            if 'toolResult' in block:
                texts = [c.get('text', '') for c in block['toolResult'].get('content', [])]
                return self._text(''.join(texts))
        user = ''.join(b.get('text', '') for b in last.get('content', []) if 'text' in b)
        m = re.search(r'\b(' + '|'.join(TRAINED_TOOLS) + r')\b', user)
        if m:
            if offered is not None and m.group(1) not in offered:
                # VARIANT A-fail: the provider rejects the request (the tool it must call is not
                # among the tools sent)
                raise ValueError(
                    f'tool_choice names {m.group(1)!r}, which is not among the tools of the request'
                )
            rest = re.sub(r'^' + m.group(1) + r'\s*:\s*', '', user.strip())
            return [
                {'messageStart': {'role': 'assistant'}},
                {
                    'contentBlockStart': {
                        'start': {'toolUse': {'name': m.group(1), 'toolUseId': 'call-1'}}
                    }
                },
                {'contentBlockDelta': {'delta': {'toolUse': {'input': json.dumps({'text': rest})}}}},
                {'contentBlockStop': {}},
                {'messageStop': {'stopReason': 'tool_use'}},
            ]
        return self._text(f'(desk) {user}')

    async def stream(  # type: ignore[override]
        self, messages, tool_specs=None, system_prompt=None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, Any], None]:
        offered = None
        if VARIANT == 'A-fail':
            offered = [s['name'] for s in (tool_specs or [])]
        for event in self._reply(messages, offered):
            yield event


@tool
def summarize(text: str) -> str:
    """Summarise a text in one sentence.

    Args:
        text: the text to summarise
    """
    return f"Summary: {' '.join(text.split()[:6])}."


translate = tool(live_translate)


def build_agent(_context_id: str) -> Agent:
    tools = [summarize] if VARIANT in ('A', 'A-fail') else [summarize, translate]
    return Agent(
        model=ScriptedModel(),
        tools=tools,
        name='desk',
        description='Summarises and translates texts',
        callback_handler=None,
    )


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    server_a2a = A2AServer(
        agent_factory=build_agent,
        host='127.0.0.1',
        port=port,
        version='1.0.0',
        enable_a2a_compliant_streaming=STREAMING == 'compliant',
    )
    serve_asgi(server_a2a.to_starlette_app(), sock)


if __name__ == '__main__':
    main()
