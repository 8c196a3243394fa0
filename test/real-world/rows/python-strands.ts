/**
 * The conformance table's row of python-strands: `strands` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { post, V03 } from '../record-lib.mjs';
import { cardProbe, httpProbe, m10, V10, messageProbe } from '../conformance/probes';
import type { Row } from '../conformance/types';
import {
  pythonAgent,
  aFail,
  PROMPTS,
  SUMMARY,
  sdk03,
  fact,
  raw,
  sendCompletes,
  SETTLED_BY_CARD,
  TOOL_SKILLS,
} from '../conformance/row-kit';
import {
  getExchange,
  cardExchange,
  VARIANT_A_TOOL_CARD,
  messageExchange,
  UNKNOWN_TASK_EXCHANGE_03,
  deployment,
} from '../conformance/row-recording';
import { unknownTaskProbe } from '../conformance/row-probes';

/** Strands' one text of a task whose agent raised (executor.py `StrandsA2AExecutor.execute`) */
const STRANDS_FAILED = 'Agent execution failed';
/** its failed status: that one agent text part; the history only the client's message */
const STRANDS_FAILED_WIRE =
  /"history":\[\{[^[]*"parts":\[\{"kind":"text","text":"translate: hello"\}\],"role":"user"[^\]]*\],.*"status":\{"message":\{[^[]*"parts":\[\{"kind":"text","text":"Agent execution failed"\}\],"role":"agent"/;
export const strands: Row = {
  id: 'python-strands',
  name: 'Strands Agents (`strands-agents[a2a]` 1.62.0 `A2AServer`, on `a2a-sdk` 0.3.26; a `Model` subclass)',
  ...pythonAgent('strands', {
    variant: aFail,
    env: (d) => ({ STREAMING: (d.opts?.streaming as string | undefined) ?? 'legacy' }),
  }),
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/` only (no HTTP+JSON); legacy (default) and A2A-compliant streaming',
      source:
        'strands/multiagent/a2a/server.py: A2AServer builds the a2a-sdk 0.3 JSON-RPC app only; `enable_a2a_compliant_streaming`',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in its 0.3 mode and raw fetch; the skill id in `message.metadata.skillId` (raw) and the request metadata (SDK)',
      source: 'the card is 0.3-only (protocolVersion 0.3.0, no supportedInterfaces)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json` (and `agent.json`), 0.3 card, skills = the tools (id = tool name, no modes), defaults `["text"]`',
      source:
        'strands/multiagent/a2a/server.py:187-188 `default_output_modes=["text"]`; test/fixtures/strands-live/card.json',
    },
    judged: {
      value:
        'removed tool: COMPLETED with Strands\' "Unknown tool: x" repeated by the model → content evidence, confirmed by the card re-fetched without the skill → `unknown_skill`; the model raising instead (A-fail): FAILED with the fixed "Agent execution failed", naming nothing → the card fetched again decides, `unknown_skill` (evidence `card`, suspicion `failure`); `card_changed`; -32001 and a 404 on the REST path it does not serve: error spans, no verdict. Variant B not expressible (text parts only, modes fixed to `["text"]`)',
      source: 'strands/tools/executors/_executor.py:654 `f"Unknown tool: {tool_name}"`',
    },
    fixtures: 'test/fixtures/strands-live/',
  },
  card: {
    protocol: '0.3',
    skills: TOOL_SKILLS,
    fields: (p) => ({
      protocolVersion: '0.3.0',
      supportedInterfaces: undefined,
      url: `${p.origin}/`,
      defaultOutputModes: ['text'],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: fact(
      true,
      'strands/multiagent/a2a/server.py:126 `AgentCapabilities(streaming=True)`',
    ),
    push: fact(false, 'A2AServer: no push_config_store / push_sender given (server.py:48-49)'),
    grpc: fact(false, 'A2AServer serves JSON-RPC only'),
    variantB: fact(
      'none',
      'StrandsA2AExecutor emits only text parts (the AgentResult str()-ed) and A2AServer fixes the card’s modes to ["text"] (server.py:187-188)',
    ),
  },
  healthy: [
    {
      label: 'SDK 0.3 mode from the card URL, legacy streaming',
      client: sdk03('url'),
      protocol: '0.3',
      ops: {
        // legacy: the AgentResult str()-ed (a newline per text block)
        send: { state: 'completed', part: { kind: 'text', text: `${SUMMARY}\n` } },
        stream: { state: 'completed', events: ['task', 'status', 'artifact', 'status'] },
      },
    },
    {
      label: 'SDK 0.3 mode from the card URL, A2A-compliant streaming',
      deploy: { streaming: 'compliant' },
      client: sdk03('url'),
      protocol: '0.3',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed', events: ['task', 'artifact', 'artifact', 'status'] },
      },
    },
    {
      label: 'raw 0.3 message/send and message/stream',
      client: raw('0.3', 'rpcUrl'),
      protocol: '0.3',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: `${SUMMARY}\n` } },
        stream: { state: 'completed', wire: /"kind":"artifact-update"/ },
      },
    },
  ],
  errors: [
    unknownTaskProbe('rpcUrl'),
    httpProbe(
      'a REST path it does not serve',
      '/v1/message:send',
      { status: 404, span: { name: 'SendMessage', error: true } },
      { headers: V10, body: (tag) => m10('hi', 'summarize', tag) },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe('send', 'rpcUrl', 'message/send', PROMPTS.summarize, 'summarize'),
      messageProbe('stream', 'rpcUrl', 'message/stream', PROMPTS.translate, 'translate', {
        contentType: 'text/event-stream; charset=utf-8',
        body: /^data: /,
      }),
      unknownTaskProbe('rpcUrl', { bytes: true }),
      httpProbe('a REST path it does not serve', '/v1/tasks/x', { status: 404 }),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'raw 0.3 message/send',
        client: raw('0.3', 'rpcUrl'),
        ops: {
          send: { state: 'completed', part: { kind: 'text', text: 'Unknown tool: translate\n' } },
        },
        says: {
          value: 'words',
          source:
            'strands/tools/executors/_executor.py:654: the tool result "Unknown tool: translate", repeated by the model; the task COMPLETES',
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      {
        label: 'SDK 0.3 mode stream, holding the healthy card',
        client: sdk03('card'),
        ops: { stream: { minEvents: 3 } },
        says: { value: 'words', source: 'as above, in the stream’s artifact' },
        verdict: 'unknown_skill',
        evidence: 'content',
        confirmed: true,
      },
      {
        label:
          'A-fail (the model raises): raw 0.3 message/send, FAILED with Strands’ fixed text, no artifact, the history only the client’s message; the card fetched again decides',
        deploy: { a: 'fail' },
        client: raw('0.3', 'rpcUrl'),
        ops: {
          send: {
            state: 'failed',
            statusText: STRANDS_FAILED,
            artifacts: 0,
            answer: '',
            wire: STRANDS_FAILED_WIRE,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': 'changed' },
          },
        },
        says: {
          value: 'failure',
          source:
            'strands/multiagent/a2a/executor.py `StrandsA2AExecutor.execute`: `except Exception:` → `updater.failed(... TextPart(text="Agent execution failed"))`, no skill or tool named (peer.py VARIANT=A-fail: the model raises)',
        },
        ...SETTLED_BY_CARD,
        suspicion: 'failure',
      },
      {
        label:
          'A-fail: SDK 0.3 mode stream holding the healthy card, task then a final status-update FAILED with the same text; judged at once against the newer card the failing send fetched',
        deploy: { a: 'fail' },
        client: sdk03('card'),
        ops: {
          stream: {
            state: 'failed',
            events: ['task', 'status'],
            statusText: STRANDS_FAILED,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': undefined },
          },
        },
        says: { value: 'failure', source: 'as above, in the final status-update' },
        ...SETTLED_BY_CARD,
      },
    ],
    still: sendCompletes('SDK 0.3 mode send summarize', sdk03('card')),
  },
  recording: {
    fixture: 'strands-live',
    versionsOf: ['strands-agents', 'a2a-sdk', 'starlette', 'uvicorn'],
    steps: [
      deployment('healthy', [
        cardExchange(
          'card',
          'GET /.well-known/agent-card.json: a 0.3 card (protocolVersion 0.3.0), defaults ["text"], skills = the tools (no modes, tags [])',
        ),
        getExchange(
          'card.agent-json',
          'GET /.well-known/agent.json (the a2a-sdk 0.3 server serves the older path too)',
          (p) => `${p.origin}/.well-known/agent.json`,
        ),
        messageExchange(
          'jsonrpc-v0.3.message-send.summarize',
          '0.3 message/send skill summarize: the model calls the summarize tool; COMPLETED, artifact "agent_response" = the AgentResult str()-ed (trailing newline)',
          'rpcUrl',
          'message/send',
          PROMPTS.summarize,
          'summarize',
        ),
        messageExchange(
          'jsonrpc-v0.3.message-stream.translate',
          "0.3 message/stream skill translate, A2AServer's default (legacy) streaming: task, status-update working carrying the text chunk as an agent message, artifact-update, status-update completed",
          'rpcUrl',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
        UNKNOWN_TASK_EXCHANGE_03,
        {
          name: 'rest.message-send.not-served',
          note: 'POST /v1/message:send: A2AServer serves no HTTP+JSON binding (404)',
          request: (p, r) => ({
            url: `${p.origin}/v1/message:send`,
            init: post(V03, JSON.stringify({ message: r.m03('hi', 'summarize').message })),
          }),
        },
      ]),
      deployment({ variant: 'healthy', opts: { streaming: 'compliant' } }, [
        messageExchange(
          'compliant.jsonrpc-v0.3.message-stream.translate',
          'enable_a2a_compliant_streaming=True: task, artifact-update (the chunk), artifact-update (append, lastChunk, empty text), status-update completed',
          'rpcUrl',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
      ]),
      deployment('A', [
        VARIANT_A_TOOL_CARD,
        messageExchange(
          'variant-a.jsonrpc-v0.3.message-send.translate',
          'variant A, 0.3 message/send skill translate: COMPLETED, text "Unknown tool: translate" (Strands\' tool result, repeated by the model)',
          'rpcUrl',
          'message/send',
          PROMPTS.translate,
          'translate',
        ),
        messageExchange(
          'variant-a.jsonrpc-v0.3.message-stream.translate',
          'variant A, 0.3 message/stream skill translate: COMPLETED with the same text',
          'rpcUrl',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
      ]),
    ],
  },
  variantB: {
    na: 'not expressible: StrandsA2AExecutor emits only text parts and A2AServer fixes the card’s output modes to ["text"]',
  },
};
