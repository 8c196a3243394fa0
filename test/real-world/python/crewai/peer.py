"""A real crewAI (`crewai[a2a]` 1.15.30) A2A server for the python-crewai row of
test/real-world/rows/python-crewai.ts.

crewAI 1.15 ships the server-side A2A pieces but no HTTP app of its own; this wires them the way
its users do:
  - a crewAI `Agent` with `a2a=A2AServerConfig(...)`, which makes crewAI inject
    `agent.to_agent_card(url)` (crewai.a2a.utils.agent_card._agent_to_agent_card): the card's
    skills are derived from the agent's tools (id = tool name lower-cased, spaces to `_`);
  - crewAI's own task execution, `crewai.a2a.utils.task.execute(agent, context, event_queue)` and
    `cancel(context, event_queue)`, behind an `a2a.server.agent_execution.AgentExecutor`;
  - the reference a2a-sdk 0.3 server: `A2AStarletteApplication` + `DefaultRequestHandler` +
    `InMemoryTaskStore`, on uvicorn, 127.0.0.1.
The agent has two tools, `summarize` and `translate` (deterministic functions).

The LLM is `ScriptedLLM`, a `crewai.llms.base_llm.BaseLLM` subclass (deterministic, no network,
no key). On the task it calls the first tool it was TRAINED on (`summarize`, `translate`) named
in the user text (`translate: hello` → translate(text="hello")), whether the agent still has it
or not; after a tool result (or crewAI's error observation) it gives that text as its final
answer, so the wire carries crewAI's own words; with no tool named it echoes the text.

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A
    healthy  tools (and so card skills) summarize, translate
    A        translate removed from the agent, hence from the card (version still 1.0.0); the
             model still calls it
  MODE     react (default) | function-calling
    react             `supports_function_calling()` False: crewAI's ReAct text protocol
                      ("Action: translate" / "Action Input: {...}" / "Final Answer: ...")
    function-calling  `supports_function_calling()` True: the LLM answers with a native
                      (OpenAI-shaped) tool call, crewAI runs it and sends a `tool` message back
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import json
import os
import re
import sys
import tempfile
import warnings
from typing import Any

# crewAI writes its settings and a credentials key under the home directory on import: one home
# of its own in the temp dir, reused by every run (uvicorn re-raises SIGTERM, so no exit hook
# would run to remove a fresh one)
_home = os.path.join(tempfile.gettempdir(), f'crewai-peer-home-{os.getuid()}')
os.makedirs(_home, exist_ok=True)
os.environ['HOME'] = _home
for _xdg in ('XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME'):
    os.environ.pop(_xdg, None)
os.environ.setdefault('CREWAI_STORAGE_DIR', os.path.join(_home, 'storage'))
# crewAI's own telemetry, tracing and version check: off (no network)
for _flag in (
    'CREWAI_DISABLE_TELEMETRY',
    'CREWAI_DISABLE_TRACKING',
    'OTEL_SDK_DISABLED',
    'CREWAI_DISABLE_VERSION_CHECK',
):
    os.environ.setdefault(_flag, 'true')
os.environ.setdefault('CREWAI_TRACING_ENABLED', 'false')
warnings.simplefilter('ignore')

from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
from a2a.server.apps import A2AStarletteApplication  # noqa: E402
from a2a.server.events import EventQueue  # noqa: E402
from a2a.server.request_handlers import DefaultRequestHandler  # noqa: E402
from a2a.server.tasks import InMemoryTaskStore  # noqa: E402
from crewai import Agent  # noqa: E402
from crewai.a2a.config import A2AServerConfig  # noqa: E402
from crewai.a2a.utils.task import cancel as crewai_cancel  # noqa: E402
from crewai.a2a.utils.task import execute as crewai_execute  # noqa: E402
from crewai.llms.base_llm import BaseLLM  # noqa: E402
from crewai.tools import tool  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)

VARIANT = variant('healthy', 'A')
MODE = os.environ.get('MODE', 'react')
if MODE not in ('react', 'function-calling'):
    raise SystemExit(f'MODE must be react|function-calling, not {MODE}')
DEBUG = bool(os.environ.get('CREWAI_PEER_DEBUG'))

TRAINED_TOOLS = ['summarize', 'translate']


def _content(message: Any) -> str:
    content = message.get('content') if isinstance(message, dict) else message
    if isinstance(content, list):
        return ''.join(c.get('text', '') for c in content if isinstance(c, dict))
    return content or ''


class ScriptedLLM(BaseLLM):
    """A deterministic crewAI LLM: no I/O; ReAct text or native tool calls, per MODE."""

    def supports_function_calling(self) -> bool:
        return MODE == 'function-calling'

    def _reply(self, messages: Any, from_task: Any) -> Any:
        if isinstance(messages, str):
            messages = [{'role': 'user', 'content': messages}]
        if DEBUG:
            sys.stderr.write(f'[scripted] {json.dumps(messages, default=str)[:4000]}\n')
        last = messages[-1]
        if MODE == 'function-calling' and last.get('role') == 'tool':
            return _content(last)
        # ReAct: crewAI appends the tool's observation to the model's last (assistant) message
        said = [_content(m) for m in messages if m.get('role') == 'assistant']
        if MODE == 'react' and said and '\nObservation:' in said[-1]:
            observation = said[-1].split('\nObservation:', 1)[1]
            # after an error crewAI appends its retry prompt ("\nMoving on then. ... Final
            # Answer: [complete response]"); a final answer repeating that would be cut by
            # crewAI's parser at its last "Final Answer:", so the model repeats the error only
            observation = observation.split('\nMoving on then.', 1)[0].strip()
            return f'Thought: I now know the final answer\nFinal Answer: {observation}'
        user = from_task.description if from_task is not None else _content(last)
        m = re.search(r'\b(' + '|'.join(TRAINED_TOOLS) + r')\b', user)
        if not m:
            return f'Thought: I now know the final answer\nFinal Answer: (desk) {user}'
        rest = re.sub(r'^' + m.group(1) + r'\s*:\s*', '', user.strip())
        if MODE == 'function-calling':
            return [
                {
                    'id': 'call-1',
                    'type': 'function',
                    'function': {'name': m.group(1), 'arguments': json.dumps({'text': rest})},
                }
            ]
        return (
            f'Thought: I should use the {m.group(1)} tool\n'
            f'Action: {m.group(1)}\n'
            f'Action Input: {json.dumps({"text": rest})}'
        )

    def call(self, messages, tools=None, callbacks=None, available_functions=None,  # type: ignore[override]
             from_task=None, from_agent=None, response_model=None):
        return self._reply(messages, from_task)

    async def acall(self, messages, tools=None, callbacks=None, available_functions=None,  # type: ignore[override]
                    from_task=None, from_agent=None, response_model=None):
        return self._reply(messages, from_task)


@tool('summarize')
def summarize(text: str) -> str:
    """Summarise a text in one sentence."""
    return f"Summary: {' '.join(text.split()[:6])}."


@tool('translate')
def translate(text: str) -> str:
    """Translate a text into French."""
    return f'FR: {text}'


class CrewAIA2AExecutor(AgentExecutor):
    """crewAI's server-side A2A task execution (crewai.a2a.utils.task) as an a2a-sdk executor."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        await crewai_execute(self.agent, context, event_queue)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await crewai_cancel(context, event_queue)


def build_agent() -> Agent:
    return Agent(
        role='desk',
        goal='Summarise and translate texts',
        backstory='A small desk agent with two deterministic tools',
        tools=[summarize] if VARIANT == 'A' else [summarize, translate],
        llm=ScriptedLLM(model='scripted'),
        a2a=A2AServerConfig(version='1.0.0'),
        max_iter=3,
        verbose=False,
    )


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    agent = build_agent()
    card = agent.to_agent_card(f'http://127.0.0.1:{port}/')
    app = A2AStarletteApplication(
        agent_card=card,
        http_handler=DefaultRequestHandler(
            agent_executor=CrewAIA2AExecutor(agent), task_store=InMemoryTaskStore()
        ),
    )
    serve_asgi(app.build(), sock)


if __name__ == '__main__':
    main()
