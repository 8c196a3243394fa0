"""A real python-a2a (`python-a2a` 0.5.9, Flask) A2A server for
its row of the conformance table (test/real-world/rows/python-python-a2a.ts).

The library's own way of writing an agent: an `A2AServer` subclass decorated with
`python_a2a.agent`, its skills the methods decorated with `python_a2a.skill` (the decorator builds
the card from them: skill id = method name), served by the library's own Flask app
(`python_a2a.server.http.create_flask_app`, what `run_server` runs) on werkzeug, 127.0.0.1 only.
Its routes (0.1-era "Google A2A" JSON-RPC): `POST /tasks/send` (`tasks/send`), `POST /tasks/stream`
(`tasks/sendSubscribe`, SSE), `POST /tasks/get`; cards at `/.well-known/agent.json`,
`/agent.json`, `/a2a/agent.json` (NOT at `/.well-known/agent-card.json`: an HTML page there).

The handler is deterministic (no model): `handle_message` runs the skill named by the text's
prefix (`summarize: some text` → self.summarize("some text")); a skill the agent has no method
for raises ValueError("Unknown skill: X"), which python-a2a itself turns into a COMPLETED task
with an error part "Error in message handler: Unknown skill: X".

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A | B
    healthy  skills summarize, translate
    A        translate removed from the agent, so from the card (version still 1.0.0)
    B        the card is the healthy one, but summarize now answers with an image/png file part
             (handle_task overridden, as python-a2a documents for custom artifacts)
Prints one JSON line {"port":N} on stdout once werkzeug listens; logs go to stderr.
"""

import base64
import json
import logging
import os
import sys

from python_a2a import A2AServer, Message, MessageRole, TextContent, agent, skill
from python_a2a.models.task import TaskState, TaskStatus
from python_a2a.server.http import create_flask_app
from werkzeug.serving import make_server

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from live_peer import announce, listening_socket, variant  # noqa: E402  (../live_peer.py)

VARIANT = variant('healthy', 'A', 'B')
PNG = base64.b64encode(
    bytes.fromhex(
        '89504e470d0a1a0a0000000d4948445200000001000000010806000000'
        '1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082'
    )
).decode()


class Desk(A2AServer):
    """Summarises and translates texts"""

    def handle_message(self, message):
        text = message.content.text if message.content.type == 'text' else ''
        name, _, rest = text.partition(':')
        method = getattr(self, name.strip(), None)
        if method is None or not hasattr(method, '_skill_info'):
            raise ValueError(f'Unknown skill: {name.strip()}')
        return Message(
            content=TextContent(text=method(rest.strip())),
            role=MessageRole.AGENT,
            parent_message_id=message.message_id,
            conversation_id=message.conversation_id,
        )

    @skill(name='Summarize', description='Summarise a text in one sentence', tags=['text'])
    def summarize(self, text):
        return f"Summary: {' '.join(text.split()[:6])}."


class DeskWithTranslate(Desk):
    @skill(name='Translate', description='Translate a text into French', tags=['text'])
    def translate(self, text):
        return f'FR: {text}'


class DeskImage(DeskWithTranslate):
    def handle_task(self, task):
        task = super().handle_task(task)
        text = json.dumps(task.artifacts)
        if 'Summary:' in text:
            task.artifacts = [
                {'parts': [{'type': 'file', 'file': {'name': 'summary.png', 'mimeType': 'image/png', 'bytes': PNG}}]}
            ]
            task.status = TaskStatus(state=TaskState.COMPLETED)
        return task


def main() -> None:
    logging.getLogger('werkzeug').setLevel(logging.WARNING)
    cls = {'healthy': DeskWithTranslate, 'A': Desk, 'B': DeskImage}[VARIANT]
    app_cls = agent(name='desk', description='Summarises and translates texts', version='1.0.0')(cls)
    sock = listening_socket()
    port = sock.getsockname()[1]
    desk = app_cls(url=f'http://127.0.0.1:{port}')
    server = make_server('127.0.0.1', port, create_flask_app(desk), threaded=True, fd=sock.fileno())
    announce(port)
    server.serve_forever()


if __name__ == '__main__':
    main()
