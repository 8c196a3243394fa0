/**
 * The conformance table's row of python-agent-framework: `agentFramework` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe, httpProbe, V10, messageProbe } from '../conformance/probes';
import { agentFrameworkQuirks } from './python-agent-framework.quirks';
import { endpoint, type Row } from '../conformance/types';
import { post, sse, V10 as V10REC } from '../record-lib.mjs';
import {
  pythonAgent,
  PROMPTS,
  SUMMARY,
  sdk,
  TRANSPORTS,
  TEXT_SKILLS,
  fact,
  raw,
  sendCompletes,
} from '../conformance/row-kit';
import {
  cardExchange,
  VARIANT_A_TOOL_CARD,
  messageExchange,
  unknownTaskExchange,
  deployment,
} from '../conformance/row-recording';
import { unknownTaskProbe, REST_UNKNOWN_TASK, REST_STREAM } from '../conformance/row-probes';

const MAF_NOT_FOUND = 'Error: Requested function "translate" not found.';
const MAF_TOOLS = 'agent_framework/_tools.py';
export const agentFramework: Row = {
  id: 'python-agent-framework',
  name: 'Microsoft Agent Framework (`agent-framework-a2a` 1.0.0b261022 `A2AExecutor`, `agent-framework-core` 1.26.0, on `a2a-sdk` 1.3.0; a `BaseChatClient` with the framework’s `FunctionInvocationLayer` over a scripted model)',
  ...pythonAgent('agent-framework', {
    env: (d) => ({
      UNKNOWN: (d.opts?.unknown as string | undefined) ?? 'result',
      STREAM: d.opts?.stream ? '1' : '0',
    }),
  }),
  facts: {
    bindings: {
      value:
        '1.0 JSON-RPC and HTTP+JSON, the SDK’s 0.3 compat layer on JSON-RPC; `stream=False` (default: the answer is a WORKING status message, in `history`, no artifacts) and `stream=True` (artifact updates)',
      source: 'agent_framework_a2a A2AExecutor(stream=...); test/fixtures/agent-framework-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, REST; 1.0 and 0.3 modes), raw fetch and Google ADK JS `RemoteA2AAgent` (0.3 stream, a test of its own); the skill id in the request metadata or `message.metadata`',
      source: 'test/peers/sdk-client.ts; test/real-world/clients/lib.ts (putSkillId)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, the app’s own card (the framework writes none): 1.0 + the SDK’s 0.3 fields, skills = the tools, `text/plain`',
      source:
        'test/real-world/python/agent-framework/peer.py; test/fixtures/agent-framework-live/card.json',
    },
    judged: {
      value:
        'healthy tool-using send / stream on both bindings and both executor modes: no drift; `a2a.protocol.version` 1.0 / 0.3 per call; -32001 and REST 404: error spans, no verdict. Removed tool: COMPLETED with the framework’s `Error: Requested function "x" not found.` repeated by the model (history / status message) → `unknown_skill`, confirmed by the card re-served; with `terminate_on_unknown_calls` FAILED with that text → `unknown_skill`; `card_changed`. Variant B (`stream=True`): raw `image/png` artifact → `output_mode_mismatch`; under `stream=False` the image is a status message, not judged for modes (limit)',
      source: `${MAF_TOOLS}:2331, 2749`,
    },
    fixtures: 'test/fixtures/agent-framework-live/',
  },
  card: {
    protocol: '1.0',
    skills: TEXT_SKILLS,
    fields: () => ({
      version: '1.0.0',
      protocolVersion: '0.3',
      supportedInterfaces: [
        { protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: fact(true, 'the app’s card: AgentCapabilities(streaming=True)'),
    push: fact(false, 'the app’s card'),
    grpc: fact(false, 'the SDK’s JSON-RPC and REST routes only'),
    variantB: fact(
      'raw',
      'variant B answers with an image/png raw part; judged only as an artifact (stream=True)',
    ),
  },
  healthy: [
    ...TRANSPORTS.flatMap((transport) =>
      [false, true].map((stream) => ({
        label: `SDK ${transport} 1.0 from the card URL, A2AExecutor stream=${stream ? 'True' : 'False'}`,
        deploy: { stream },
        client: sdk(transport, 'url'),
        protocol: '1.0' as const,
        ops: {
          send: { state: 'completed', answer: SUMMARY },
          stream: { state: 'completed', minEvents: 3, firstEvent: 'task' },
        },
      })),
    ),
    {
      label: 'SDK JSON-RPC 0.3 mode on the SDK 0.3 layer (the card without its 1.0 interfaces)',
      client: sdk('JSONRPC', 'card', true),
      protocol: '0.3',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
    {
      label: 'raw JSON-RPC 1.0 SendMessage, the answer read from the history',
      client: raw('1.0', 'rpcUrl'),
      protocol: '1.0',
      ops: { send: { state: 'completed', answer: SUMMARY } },
    },
    {
      label: 'raw 0.3 message/send: no artifacts (stream=False), the answer a message',
      client: raw('0.3', 'rpcUrl'),
      protocol: '0.3',
      ops: { send: { state: 'completed', artifacts: 0, answer: SUMMARY } },
    },
  ],
  errors: [
    unknownTaskProbe('rpcUrl', { v10: true, label: 'JSON-RPC GetTask of an unknown task' }),
    REST_UNKNOWN_TASK,
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe('JSON-RPC 1.0 send', 'rpcUrl', 'SendMessage', PROMPTS.summarize, 'summarize'),
      REST_STREAM,
      unknownTaskProbe('rpcUrl', { bytes: true, v10: true, id: (tag) => `${tag}-x` }),
      httpProbe(
        'REST GET of an unknown task',
        '/tasks/probe-none',
        { status: 404, contentType: 'application/json' },
        { base: 'restUrl', headers: V10 },
      ),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'raw 0.3 message/send: COMPLETED with the framework’s words',
        client: raw('0.3', 'rpcUrl'),
        ops: { send: { state: 'completed', answer: MAF_NOT_FOUND } },
        says: {
          value: 'words',
          source: `${MAF_TOOLS}:2331 the function result "${MAF_NOT_FOUND}", repeated by the model; the task COMPLETES`,
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      ...TRANSPORTS.map((transport) => ({
        label: `SDK ${transport} holding the healthy card: send + stream`,
        client: sdk(transport, 'card'),
        ops: { send: { answer: MAF_NOT_FOUND }, stream: {} },
        says: { value: 'words' as const, source: `${MAF_TOOLS}:2331` },
        verdict: 'unknown_skill' as const,
        confirmed: true,
      })),
      {
        label:
          'terminate_on_unknown_calls: SDK send → FAILED with the text (str() of a KeyError: in quotes)',
        deploy: { unknown: 'terminate' },
        client: sdk('JSONRPC', 'card'),
        ops: {
          send: {
            state: 'failed',
            statusText: `'${MAF_NOT_FOUND}'`,
            spanState: 'TASK_STATE_FAILED',
          },
        },
        says: {
          value: 'words',
          source: `${MAF_TOOLS}:2749 _UnknownFunctionCallError, the task FAILS`,
        },
        verdict: 'unknown_skill',
      },
      {
        label:
          'terminate_on_unknown_calls: raw JSON-RPC 1.0 stream → the FAILED status update carries the text',
        deploy: { unknown: 'terminate' },
        client: raw('1.0', 'rpcUrl'),
        ops: {
          stream: {
            state: 'failed',
            wire: /TASK_STATE_FAILED[\s\S]*Requested function \\"translate\\" not found|Requested function \\"translate\\" not found[\s\S]*TASK_STATE_FAILED/,
          },
        },
        says: { value: 'words', source: `${MAF_TOOLS}:2749` },
        verdict: 'unknown_skill',
      },
    ],
    still: sendCompletes('SDK send summarize', sdk('JSONRPC', 'card')),
  },
  variantB: {
    skill: 'summarize',
    paths: TRANSPORTS.map((transport) => ({
      label: `A2AExecutor stream=True, SDK ${transport}: a raw image/png artifact`,
      deploy: { stream: true },
      client: sdk(transport, 'card'),
      ops: {
        send: { state: 'completed', part: { kind: 'raw', mediaType: 'image/png' } },
        stream: {},
      },
      mediaType: 'image/png',
    })),
  },
  recording: {
    fixture: 'agent-framework-live',
    versionsOf: ['agent-framework-a2a', 'agent-framework-core', 'a2a-sdk', 'starlette', 'uvicorn'],
    steps: [
      deployment('healthy', [
        cardExchange(
          'card',
          'GET /.well-known/agent-card.json: the app’s 1.0 card (skills = the tools, text/plain) with the a2a-sdk 0.3 fields merged in',
        ),
        messageExchange(
          'jsonrpc-v1.0.send-message.summarize',
          'JSON-RPC 1.0 SendMessage, skill summarize: the scripted model calls the tool; stream=False: COMPLETED task, no artifacts, the answer as the last agent message of the history',
          'rpcUrl',
          'SendMessage',
          PROMPTS.summarize,
          'summarize',
        ),
        messageExchange(
          'jsonrpc-v0.3.message-send.translate',
          '0.3 message/send (the SDK compat layer), skill translate: COMPLETED, answer in history',
          'rpcUrl',
          'message/send',
          PROMPTS.translate,
          'translate',
        ),
        {
          name: 'rest-v1.0.message-stream.translate',
          note: 'HTTP+JSON 1.0 message:stream, stream=False: task, status SUBMITTED, WORKING, WORKING with the answer as a message, COMPLETED',
          request: (p, r) => ({
            url: `${endpoint(p, 'restUrl')}/message:stream`,
            init: post(sse(V10REC), JSON.stringify(r.m10(PROMPTS.translate, 'translate'))),
          }),
        },
        unknownTaskExchange(
          'jsonrpc-v1.0.get-task.not-found',
          'JSON-RPC 1.0 GetTask of an unknown id: -32001',
          'rpcUrl',
          { v10: true },
        ),
        {
          name: 'rest-v1.0.get-task.not-found',
          note: 'HTTP+JSON 1.0 GET /tasks/{id} of an unknown id: 404',
          request: (p) => ({
            url: `${endpoint(p, 'restUrl')}/tasks/no-such-task`,
            init: { headers: { 'A2A-Version': '1.0' } },
          }),
        },
      ]),
      deployment({ variant: 'healthy', opts: { stream: true } }, [
        messageExchange(
          'stream-true.jsonrpc-v1.0.send-message.summarize',
          'A2AExecutor(stream=True), SendMessage summarize: the answer as an artifact',
          'rpcUrl',
          'SendMessage',
          PROMPTS.summarize,
          'summarize',
        ),
        messageExchange(
          'stream-true.jsonrpc-v1.0.send-streaming-message.translate',
          'A2AExecutor(stream=True), SendStreamingMessage translate: artifact updates',
          'rpcUrl',
          'SendStreamingMessage',
          PROMPTS.translate,
          'translate',
        ),
      ]),
      deployment('A', [
        VARIANT_A_TOOL_CARD,
        messageExchange(
          'variant-a.jsonrpc-v1.0.send-message.translate',
          'variant A, SendMessage translate: COMPLETED; the answer is the framework’s function result `Error: Requested function "translate" not found.` (repeated by the model)',
          'rpcUrl',
          'SendMessage',
          PROMPTS.translate,
          'translate',
        ),
        messageExchange(
          'variant-a.jsonrpc-v0.3.message-stream.translate',
          'variant A, 0.3 message/stream translate: the same text in a working status message',
          'rpcUrl',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
      ]),
      deployment({ variant: 'A', opts: { unknown: 'terminate' } }, [
        messageExchange(
          'variant-a-terminate.jsonrpc-v1.0.send-message.translate',
          'variant A with terminate_on_unknown_calls: FAILED, status message = str() of the framework’s error (the text in single quotes)',
          'rpcUrl',
          'SendMessage',
          PROMPTS.translate,
          'translate',
        ),
      ]),
      deployment({ variant: 'B', opts: { stream: true } }, [
        messageExchange(
          'variant-b.stream-true.jsonrpc-v1.0.send-message.summarize',
          'variant B (stream=True), SendMessage summarize: the artifact is a raw image/png part; the card is the healthy one',
          'rpcUrl',
          'SendMessage',
          PROMPTS.summarize,
          'summarize',
        ),
      ]),
    ],
  },
  quirks: agentFrameworkQuirks,
};
