"""A real FastA2A (`fasta2a` 2.1.1, pydantic's) A2A server for
test/real-world/python-fasta2a.test.ts: a pydantic-ai `Agent` (tools `summarize`, `translate`)
served by fasta2a's own bridge `fasta2a.pydantic_ai.agent_to_a2a` (the FastA2A Starlette app,
its InMemoryStorage/InMemoryBroker and AgentWorker) on uvicorn, 127.0.0.1.

The model is pydantic-ai's `FunctionModel` (deterministic, no network, no key): on a user prompt
it calls the first tool it was TRAINED on (`summarize`, `translate`) named in the text
(`summarize: some text` → summarize(text="some text")), whether the agent still has it or not;
after the tool's return it answers with it; after a retry prompt (pydantic-ai's answer to an
unknown tool) it answers "The tool <name> failed: <the retry text>"; with no tool named it
echoes the text.

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A | B | A-fail
    healthy  tools and card skills summarize, translate (outputModes ["text/plain"])
    B        the same tools and card, but the agent's output is structured (`output_type` a
             pydantic model, the model calls pydantic-ai's output tool): fasta2a turns any output
             that is not a str into a DATA part (`{"result": …}` with its JSON schema), where the
             skill says text/plain. A file cannot be expressed: fasta2a's bridge converts only
             text / thinking model parts and str-or-data outputs (`_convert_result_to_part`)
    A        translate removed from the agent and the card (version still 1.0.0); the model
             still calls it
    A-fail   the same agent and card as A, but the model INSISTS: after the retry prompt
             ("Unknown tool name: 'translate'. Available tools: 'summarize'", which pydantic-ai
             2.68 hands back as a ToolReturnPart with outcome 'retried') it calls translate
             again, until pydantic-ai's tool retries (the agent's `retries=1`) run out:
             pydantic_ai/tool_manager.py (pydantic-ai-slim 2.68.0) lines 529-532, `_check_max_retries`:
               raise UnexpectedModelBehavior(
                   f'Tool {name!r} exceeded max retries count of {max_retries}. ...')
             The bridge only marks the task failed and re-raises
             (fasta2a/pydantic_ai/_bridge.py, fasta2a 2.1.1, lines 166-168, `run_task`:
               except Exception:
                   await self.storage.update_task(task_id, state='failed')
                   raise),
             and the worker ends the stream with a bare status (fasta2a/worker.py lines 65-67,
             `_handle_task_operation`: `except Exception: task = await
             self.storage.update_task(task_id, state='failed'); await self._end_stream(task_id,
             task['context_id'], 'failed')`, whose `publish_status` sends `TaskStatus(state=…)`
             without a message). So the client gets state failed and NO text at all; the
             exception's text never reaches the wire
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import json
import os
import re
import sys

from fasta2a.pydantic_ai import agent_to_a2a
from pydantic import BaseModel
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)

VARIANT = variant('healthy', 'A', 'B', 'A-fail')

TRAINED_TOOLS = ['summarize', 'translate']


def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    last = messages[-1]
    assert isinstance(last, ModelRequest)
    for part in last.parts:
        if isinstance(part, ToolReturnPart):
            # pydantic-ai 2.68 returns an unknown tool's retry prompt as a ToolReturnPart with
            # outcome 'retried' (RetryInfo cause 'unknown_tool')
            retried = getattr(part, 'outcome', None) == 'retried'
            if VARIANT == 'A-fail' and retried and part.tool_name in TRAINED_TOOLS:
                # a model that insists on the tool it was trained on: the same call again
                return ModelResponse(
                    parts=[
                        ToolCallPart(
                            tool_name=part.tool_name,
                            args={'text': 'again'},
                            tool_call_id=f'call-{len(messages)}',
                        )
                    ]
                )
            if info.output_tools:  # VARIANT B: the answer goes through the output tool
                out = info.output_tools[0].name
                return ModelResponse(
                    parts=[ToolCallPart(tool_name=out, args={'summary': str(part.content)})]
                )
            return ModelResponse(parts=[TextPart(str(part.content))])
        if isinstance(part, RetryPromptPart):
            content = part.content if isinstance(part.content, str) else json.dumps(part.content)
            return ModelResponse(parts=[TextPart(f'The tool {part.tool_name} failed: {content}')])
    user = ''.join(
        p.content for p in last.parts if isinstance(p, UserPromptPart) and isinstance(p.content, str)
    )
    m = re.search(r'\b(' + '|'.join(TRAINED_TOOLS) + r')\b', user)
    if m:
        rest = re.sub(r'^' + m.group(1) + r'\s*:\s*', '', user.strip())
        return ModelResponse(
            parts=[ToolCallPart(tool_name=m.group(1), args={'text': rest}, tool_call_id='call-1')]
        )
    return ModelResponse(parts=[TextPart(f'(desk) {user}')])


SKILLS = {
    'summarize': {
        'id': 'summarize',
        'name': 'Summarize',
        'description': 'Summarise a text in one sentence.',
        'tags': ['docs'],
        'input_modes': ['text/plain'],
        'output_modes': ['text/plain'],
    },
    'translate': {
        'id': 'translate',
        'name': 'Translate',
        'description': 'Translate a text into French.',
        'tags': ['docs'],
        'input_modes': ['text/plain'],
        'output_modes': ['text/plain'],
    },
}


class Summary(BaseModel):
    summary: str


def build_agent() -> Agent:
    if VARIANT == 'B':
        agent = Agent(FunctionModel(scripted), name='desk', retries=1, output_type=Summary)
    else:
        agent = Agent(FunctionModel(scripted), name='desk', retries=1)

    @agent.tool_plain
    def summarize(text: str) -> str:
        """Summarise a text in one sentence."""
        return f"Summary: {' '.join(text.split()[:6])}."

    if VARIANT == 'healthy':

        @agent.tool_plain
        def translate(text: str) -> str:
            """Translate a text into French."""
            return f'FR: {text}'

    return agent


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    served = ['summarize'] if VARIANT in ('A', 'A-fail') else ['summarize', 'translate']
    app = agent_to_a2a(
        build_agent(),
        name='desk',
        url=f'http://127.0.0.1:{port}',
        version='1.0.0',
        description='Summarises and translates texts',
        skills=[SKILLS[s] for s in served],
    )
    serve_asgi(app, sock)

if __name__ == '__main__':
    main()
