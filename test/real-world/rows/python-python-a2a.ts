/**
 * The conformance table's row of python-python-a2a: `pythonA2a` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe, httpProbe } from '../conformance/probes';
import { pythonA2aQuirks } from './python-python-a2a.quirks';
import { endpoint, type RecordedExchange, type Row } from '../conformance/types';
import {
  pythonAgent,
  PROMPTS,
  SUMMARY,
  TEXT_SKILLS,
  fact,
  sendCompletes,
} from '../conformance/row-kit';
import type { Recorder } from '../record-lib.mjs';
import {
  getExchange,
  postExchange,
  cardExchange,
  VARIANT_A_CARD,
  deployment,
} from '../conformance/row-recording';

const PYTHON_A2A_PEER = 'test/real-world/python/python-a2a/peer.py';
/** a python-a2a 0.1 body (its own client's shape): ids carry the tag */
const task01 = (method: string, text: string) => (tag: string) => ({
  jsonrpc: '2.0',
  id: `${tag}-rpc`,
  method,
  params: {
    id: `${tag}-task`,
    sessionId: `${tag}-session`,
    message: { role: 'user', parts: [{ type: 'text', text }] },
  },
});
/** a recorded 0.1 tasks/send | tasks/sendSubscribe body, ids rec-rpc-N / rec-task-N */
function recTask01(r: Recorder, method: string, text: string, skillId: string): string {
  const n = r.nextRpcId();
  return JSON.stringify({
    jsonrpc: '2.0',
    id: `rec-rpc-${n}`,
    method,
    params: {
      id: `rec-task-${n}`,
      sessionId: 'rec-session',
      message: { role: 'user', parts: [{ type: 'text', text }], metadata: { skillId } },
    },
  });
}
/** A recorded 0.1 tasks/send (at sendUrl) or tasks/sendSubscribe (at streamUrl, SSE) of `skill`, its prompt. */
function task01Exchange(
  name: string,
  note: string,
  method: 'tasks/send' | 'tasks/sendSubscribe',
  skill: 'summarize' | 'translate',
): RecordedExchange {
  const stream = method === 'tasks/sendSubscribe';
  return postExchange(
    name,
    note,
    (p) => endpoint(p, stream ? 'streamUrl' : 'sendUrl'),
    (r) => recTask01(r, method, PROMPTS[skill], skill),
    { stream },
  );
}
const rpc01 = (skillBy: 'withSkill' | 'metadata') =>
  ({ kind: 'jsonrpc01', send: 'sendUrl', stream: 'streamUrl', skillBy }) as const;
export const pythonA2a: Row = {
  id: 'python-python-a2a',
  name: 'python-a2a 0.5.9 (an `@agent` `A2AServer` with `@skill` methods on its own Flask app, werkzeug; a deterministic handler)',
  ...pythonAgent('python-a2a'),
  facts: {
    bindings: {
      value:
        '0.1 `tasks/send` at `/tasks/send`, `tasks/sendSubscribe` at `/tasks/stream` (SSE `event: update/complete` with bare Tasks)',
      source: 'python_a2a/server/http.py (create_flask_app); test/fixtures/python-a2a-live/',
    },
    clients: {
      value:
        'raw fetch (no JS client speaks it), skill id by `withSkill` or `message.metadata.skillId`',
      source: 'its 0.1-era "Google A2A" JSON-RPC is not what @a2a-js/sdk speaks',
    },
    card: {
      value:
        '`/.well-known/agent.json`, `/agent.json`, `/a2a/agent.json`, no `protocolVersion` (the card span names none; calls say 0.1); HTML at `agent-card.json` (no card, no verdict); the decorator’s card says `streaming: false`',
      source: 'test/fixtures/python-a2a-live/card.json',
    },
    judged: {
      value:
        'healthy send / stream: no drift; removed skill: COMPLETED with a data part `{"error": "Error in message handler: Unknown skill: x"}` (send and stream) → `unknown_skill`; `image/png` file part → `output_mode_mismatch`; `card_changed`; `tasks/get` 404 (-32000) and a JSON-RPC POST to `/` (500): error spans, no verdict',
      source: 'python_a2a/server/a2a_server.py:275',
    },
    fixtures: 'test/fixtures/python-a2a-live/',
  },
  card: {
    protocol: undefined,
    skills: TEXT_SKILLS,
    fields: (p) => ({ protocolVersion: undefined, url: p.origin, version: '1.0.0' }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: fact(
      false,
      'the decorator’s card says streaming: false (it streams at /tasks/stream all the same)',
    ),
    push: fact(false, 'the card’s capabilities'),
    grpc: fact(false, 'Flask JSON-RPC only'),
    variantB: fact(
      'file',
      `${PYTHON_A2A_PEER}: variant B answers summarize with an image/png file part`,
    ),
  },
  healthy: [
    {
      label: 'raw 0.1, the skill declared with withSkill',
      client: rpc01('withSkill'),
      protocol: '0.1',
      skillSource: 'application',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: {
          state: 'completed',
          wire: /^event: update\nid: [\s\S]*event: complete\n[\s\S]*"text": "FR: hello"/,
        },
      },
    },
    {
      label: 'raw 0.1, the skill in message.metadata.skillId (read from the wire)',
      client: rpc01('metadata'),
      protocol: '0.1',
      skillSource: 'wire',
      // python-a2a keeps the request's metadata on the echoed message
      ops: { send: { state: 'completed', wire: /"skillId":\s*"summarize"/ } },
    },
  ],
  errors: [
    httpProbe(
      'tasks/get of an unknown task',
      '/tasks/get',
      { status: 404, span: { name: 'GetTask', error: true } },
      {
        body: () => ({ jsonrpc: '2.0', id: 'g', method: 'tasks/get', params: { id: 'no-such' } }),
      },
    ),
    httpProbe(
      'a JSON-RPC POST to the card URL /',
      '/',
      { status: 500, span: { name: 'SendMessage', error: true } },
      {
        body: () => ({
          jsonrpc: '2.0',
          id: 'm',
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: 'm-1',
              role: 'user',
              parts: [{ kind: 'text', text: 'summarize: hi' }],
            },
          },
        }),
      },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      httpProbe('the HTML page at agent-card.json', '/.well-known/agent-card.json', {
        status: 200,
      }),
      httpProbe(
        'tasks/send',
        '/tasks/send',
        { status: 200 },
        { body: task01('tasks/send', PROMPTS.summarize) },
      ),
      httpProbe(
        'tasks/sendSubscribe',
        '/tasks/stream',
        { status: 200, contentType: 'text/event-stream' },
        {
          headers: { accept: 'text/event-stream' },
          body: task01('tasks/sendSubscribe', PROMPTS.translate),
        },
      ),
      httpProbe(
        'tasks/get unknown',
        '/tasks/get',
        { status: 404 },
        {
          body: (tag) => ({
            jsonrpc: '2.0',
            id: 'g',
            method: 'tasks/get',
            params: { id: `${tag}-x` },
          }),
        },
      ),
      httpProbe(
        'tasks/send POSTed to /',
        '/',
        { status: 500 },
        { body: task01('tasks/send', 'hi') },
      ),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'tasks/send: COMPLETED with python-a2a’s error data part',
        client: rpc01('withSkill'),
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'data' },
            wire: /"data":\s*\{\s*"error":\s*"Error in message handler: Unknown skill: translate"\s*\}/,
          },
          stream: { wire: /Unknown skill: translate/ },
        },
        says: {
          value: 'words',
          source:
            'python_a2a/server/a2a_server.py:275 `f"Error in message handler: {str(e)}"` in a COMPLETED task',
        },
        verdict: 'unknown_skill',
      },
    ],
    still: sendCompletes('tasks/send summarize', rpc01('withSkill')),
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label: 'tasks/send + tasks/sendSubscribe: a file part image/png',
        client: rpc01('withSkill'),
        ops: {
          send: { part: { kind: 'file', mediaType: 'image/png' } },
          stream: { wire: /"mimeType": "image\/png"/ },
        },
        mediaType: 'image/png',
      },
    ],
  },
  recording: {
    fixture: 'python-a2a-live',
    versionsOf: ['python-a2a', 'flask', 'werkzeug'],
    steps: [
      deployment('healthy', [
        cardExchange(
          'card',
          'GET /.well-known/agent.json: the card the @agent decorator builds from the @skill methods (Flask jsonify, keys sorted; capabilities.streaming false)',
        ),
        getExchange(
          'card.agent-json',
          'GET /agent.json: the same card',
          (p) => `${p.origin}/agent.json`,
        ),
        getExchange(
          'agent-card-path.html',
          'GET /.well-known/agent-card.json: python-a2a’s HTML agent page, not a card',
          (p) => endpoint(p, 'agentCardJsonUrl'),
        ),
        task01Exchange(
          'tasks-send.summarize',
          '0.1 tasks/send summarize: a bare Task echoing the request message, COMPLETED, a text artifact',
          'tasks/send',
          'summarize',
        ),
        task01Exchange(
          'tasks-sendSubscribe.translate',
          '0.1 tasks/sendSubscribe translate: SSE event: update (submitted) / event: complete (completed + artifact), bare Tasks',
          'tasks/sendSubscribe',
          'translate',
        ),
        postExchange(
          'tasks-get.not-found',
          '0.1 tasks/get of an unknown id: HTTP 404, JSON-RPC -32000 "Task not found"',
          (p) => endpoint(p, 'getUrl'),
          () =>
            JSON.stringify({
              jsonrpc: '2.0',
              id: 'rec-get',
              method: 'tasks/get',
              params: { id: 'no-such' },
            }),
        ),
        postExchange(
          'root-post.message-send',
          '0.3 message/send POSTed to the card url (/): HTTP 500, not JSON-RPC',
          (p) => `${p.origin}/`,
          () =>
            JSON.stringify({
              jsonrpc: '2.0',
              id: 'rec-root',
              method: 'message/send',
              params: {
                message: {
                  kind: 'message',
                  messageId: 'rec-m',
                  role: 'user',
                  parts: [{ kind: 'text', text: 'summarize: hi' }],
                  metadata: { skillId: 'summarize' },
                },
              },
            }),
        ),
      ]),
      deployment('A', [
        VARIANT_A_CARD,
        task01Exchange(
          'variant-a.tasks-send.translate',
          'variant A, tasks/send translate: COMPLETED with a data part {"error": "Error in message handler: Unknown skill: translate"} (python-a2a’s wrapping of the handler’s ValueError)',
          'tasks/send',
          'translate',
        ),
        task01Exchange(
          'variant-a.tasks-sendSubscribe.translate',
          'variant A, tasks/sendSubscribe translate: the complete event carries the same data part',
          'tasks/sendSubscribe',
          'translate',
        ),
      ]),
      deployment('B', [
        task01Exchange(
          'variant-b.tasks-send.summarize',
          'variant B, tasks/send summarize: a file part image/png; the card is the healthy one',
          'tasks/send',
          'summarize',
        ),
        task01Exchange(
          'variant-b.tasks-sendSubscribe.summarize',
          'variant B, tasks/sendSubscribe summarize: the complete event with the image/png file part',
          'tasks/sendSubscribe',
          'summarize',
        ),
      ]),
    ],
  },
  quirks: pythonA2aQuirks,
};
