"""A real Google ADK (Python, `google-adk`) A2A server for
test/real-world/python-google-adk.test.ts: one `LlmAgent` (`desk`, tools `summarize` and
`translate`) served by ADK's own `to_a2a()` (its `A2aAgentExecutor` behind the `a2a-sdk`
request handler and JSON-RPC routes, with the 0.3 compatibility layer) on uvicorn, 127.0.0.1.

The model is a deterministic `BaseLlm` subclass (no network, no key): on a user turn it calls
the first tool it was TRAINED on (`summarize`, `translate`) named in the user text
(`summarize: some text` → summarize(text="some text")), whether the agent still has it or not;
after the function response it answers with the tool's result as text; with no tool named it
echoes the text. When it is called again after a call that got no response it apologises.

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A | B
    healthy  tools summarize, translate
    B        the same tools and card; after a tool's response the model answers with an image
             (an inline_data Part, image/png), which ADK's part converter turns into a file part
             of the artifact: the card still says text/plain (its defaultOutputModes)
    A        translate removed (the card loses its skill; ADK's card version is unchanged);
             the model still calls it. ADK 2.13 does NOT fail the task: it answers the call with
             a function_response {"error": "Invoking `translate()` failed as no tool with that
             name is available. The tools you can call are: summarize. ..."} and calls the model
             again, which answers "The tool translate failed: <that error>"; the task COMPLETES
Prints one JSON line {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import json
import os
import re
import sys
from typing import AsyncGenerator

from google.adk.a2a.utils.agent_to_a2a import to_a2a
from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)

VARIANT = variant('healthy', 'A', 'B')

# a 1×1 PNG
PNG = bytes.fromhex(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000'
    '1f15c4890000000d49444154789c6364f8cf50000003860180'
    '5a347d6b0000000049454e44ae426082'
)

TRAINED_TOOLS = ['summarize', 'translate']


def text_of(content: types.Content | None) -> str:
    return ''.join(p.text for p in (content.parts or []) if p.text and not p.thought) if content else ''


class ScriptedLlm(BaseLlm):
    model: str = 'scripted-desk'

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        contents = llm_request.contents or []
        last = contents[-1] if contents else None
        parts = (last.parts or []) if last else []
        fr = next((p.function_response for p in parts if p.function_response), None)
        if fr is not None:
            out = fr.response or {}
            if 'error' in out:
                text = f'The tool {fr.name} failed: {out["error"]}'
            elif isinstance(out.get('result'), str):
                text = out['result']
            else:
                text = json.dumps(out)
            if VARIANT == 'B' and 'error' not in out:
                image = types.Part(inline_data=types.Blob(mime_type='image/png', data=PNG))
                yield LlmResponse(content=types.Content(role='model', parts=[image]))
                return
            yield LlmResponse(content=types.Content(role='model', parts=[types.Part(text=text)]))
            return
        if last is not None and last.role == 'user':
            user = text_of(last)
            m = re.search(r'\b(' + '|'.join(TRAINED_TOOLS) + r')\b', user)
            if m:
                rest = re.sub(r'^' + m.group(1) + r'\s*:\s*', '', user.strip())
                yield LlmResponse(
                    content=types.Content(
                        role='model',
                        parts=[
                            types.Part(
                                function_call=types.FunctionCall(
                                    id='call-1', name=m.group(1), args={'text': rest}
                                )
                            )
                        ],
                    )
                )
                return
            yield LlmResponse(
                content=types.Content(role='model', parts=[types.Part(text=f'(desk) {user}')])
            )
            return
        yield LlmResponse(
            content=types.Content(
                role='model', parts=[types.Part(text='Sorry, I could not complete that request.')]
            )
        )


def summarize(text: str) -> dict:
    """Summarise a text in one sentence."""
    return {'result': f"Summary: {' '.join(text.split()[:6])}."}


def translate(text: str) -> dict:
    """Translate a text into French."""
    return {'result': f'FR: {text}'}


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    agent = LlmAgent(
        name='desk',
        description='Summarises and translates texts',
        instruction='Call the tool the user asks for and answer with its result.',
        model=ScriptedLlm(),
        tools=[summarize] if VARIANT == 'A' else [summarize, translate],
    )
    serve_asgi(to_a2a(agent, host='127.0.0.1', port=port), sock)

if __name__ == '__main__':
    main()
