/**
 * The conformance table's row of node-voltagent: `voltagent` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe, rpcProbe, messageProbe } from '../conformance/probes';
import { voltagentQuirks } from './node-voltagent.quirks';
import { startVoltAgentPeer } from '../voltagent/peer-process.mjs';
import type { Row } from '../conformance/types';
import { voltagentRecording } from './node-voltagent.recording';
import { packageMissing, STREAMING_NO_PUSH, fact, nodePeer } from '../conformance/row-kit';
import { GET_TASK_32001, unknownTaskProbe, agentSideSend } from '../conformance/row-probes';

const VOLT_PEER = 'test/real-world/voltagent/peer.mjs';
const VOLT_NO_TOOL =
  "Model tried to call unavailable tool 'translate'. Available tools: summarize-v2.";
/** A VoltAgent server seen through its agent `summarizer` (`helper` beside it on the origin). */
const startVoltAgent = nodePeer(startVoltAgentPeer, (p) => ({
  cardUrl: p.cardUrl('summarizer'),
  baseUrl: p.cardUrl('summarizer'),
  cardPath: '',
  rpcUrl: p.rpcUrl('summarizer'),
  helperCardUrl: p.cardUrl('helper'),
  helperRpcUrl: p.rpcUrl('helper'),
}));
const raw03volt = { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' } as const;
/** the record separator VoltAgent puts before each SSE event's JSON */
const RS = String.fromCharCode(0x1e);
export const voltagent: Row = {
  id: 'node-voltagent',
  name: 'VoltAgent (`@voltagent/core` 2.10, `@voltagent/a2a-server` 2.0.3)',
  agentCode: 'test/real-world/voltagent/',
  unavailable: packageMissing('voltagent', '@voltagent/core'),
  start: startVoltAgent,
  recording: voltagentRecording,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/a2a/{agentId}`, kind-less Tasks, `\\x1e` SSE snapshots, JSON-RPC errors over HTTP 400',
      source: 'test/fixtures/voltagent/README.md',
    },
    clients: {
      value:
        'raw fetch with 0.2/0.3 bodies (the skill id in `message.metadata.skillId`); the `@a2a-js/sdk` client refuses its kind-less Task (a test of its own)',
      source: 'test/fixtures/voltagent/',
    },
    card: {
      value:
        '`/.well-known/{agentId}/agent-card.json`, no `protocolVersion`, skills = the agent’s tools without modes, defaults `["text"]`',
      source: 'test/fixtures/voltagent/healthy-card-summarizer.json',
    },
    judged: {
      value:
        "COMPLETED `unavailable tool 'x'`, -32603 over HTTP 400, stream error event, the FAILED task polled later → `unknown_skill`; words naming another tool: no verdict; `card_changed`; then `skill_not_in_card`; the second agent never judged against the first’s card. Variant B not expressible (no per-skill modes)",
      source: 'ai/src/error/no-such-tool-error.ts (the AI SDK’s NoSuchToolError text)',
    },
    fixtures: 'test/fixtures/voltagent/',
  },
  card: {
    protocol: undefined,
    skills: [
      ['summarize-v2', undefined],
      ['translate', undefined],
    ],
    fields: () => ({
      protocolVersion: undefined,
      defaultOutputModes: ['text'],
      defaultInputModes: ['text'],
    }),
  },
  skills: {
    send: 'summarize-v2',
    stream: 'summarize-v2',
    prompts: { 'summarize-v2': 'The quick brown fox jumps', translate: 'Hello world' },
  },
  capabilities: {
    ...STREAMING_NO_PUSH,
    grpc: fact(false, '@voltagent/a2a-server serves JSON-RPC only'),
    variantB: fact(
      'none',
      'no skill has inputModes/outputModes; defaultOutputModes is always ["text"]; text parts carry no media type',
    ),
  },
  healthy: [
    {
      label: 'raw 0.3 message/send + message/stream (`data: \\x1e{json}` events)',
      client: raw03volt,
      ops: {
        send: {
          state: 'completed',
          statusMatch: /^# Summary/,
          spanAttributes: { 'gen_ai.agent.name': 'summarizer', 'a2a.method.name': 'SendMessage' },
        },
        stream: { state: 'completed', wire: new RegExp(`^data: ${RS}\\{`), countsEvents: true },
      },
    },
  ],
  errors: [
    rpcProbe(
      'a data part where the CURRENT card says text only: -32602 over HTTP 400 (a client error, not drift)',
      'rpcUrl',
      'message/send',
      (tag) => ({
        message: {
          kind: 'message',
          role: 'user',
          messageId: `${tag}-data`,
          parts: [{ kind: 'data', data: { text: 'x' } }],
          metadata: { skillId: 'summarize-v2' },
        },
      }),
      {
        status: 400,
        body: /^\{"jsonrpc":"2.0","id":7,"error":\{"code":-32602,"message":"Only plain text message parts are supported","data":\{\}\}\}$/,
        span: { name: 'SendMessage', error: true, attributes: { 'error.type': '-32602' } },
      },
    ),
    unknownTaskProbe('rpcUrl', {
      label: 'tasks/get of an unknown task: -32001 over HTTP 400',
      id: () => 'missing',
      expect: { status: 400, body: /"code":-32001/, span: GET_TASK_32001 },
    }),
    rpcProbe(
      'tasks/resubscribe (it has none): a JSON -32601 (HTTP 400) where a stream was expected',
      'rpcUrl',
      'tasks/resubscribe',
      () => ({ id: 'missing' }),
      {
        status: 400,
        contentType: 'application/json',
        body: /"code":-32601/,
        span: { name: 'SubscribeToTask', error: true, attributes: { 'error.type': '-32601' } },
      },
      { stream: true },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe('send', 'rpcUrl', 'message/send', 'Same input', 'summarize-v2'),
      messageProbe(
        'stream (its \\x1e framing kept)',
        'rpcUrl',
        'message/stream',
        'Same input',
        'translate',
        { body: new RegExp(`data: ${RS}\\{`) },
      ),
      unknownTaskProbe('rpcUrl', { bytes: true, id: () => 'nope', expect: { status: 400 } }),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize-v2'],
    paths: [
      {
        label: 'message/send: COMPLETED, the text says the tool is unavailable',
        client: raw03volt,
        ops: {
          send: {
            state: 'completed',
            statusText: VOLT_NO_TOOL,
            spanAttributes: { 'error.type': 'StaleAgentCardError' },
          },
        },
        says: {
          value: 'words',
          source:
            'ai/src/error/no-such-tool-error.ts, the text VoltAgent puts in the COMPLETED task',
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label: 'message/stream: COMPLETED with the same words',
        client: raw03volt,
        ops: { stream: { state: 'completed', wire: /unavailable tool 'translate'/ } },
        says: { value: 'words', source: 'as above' },
        verdict: 'unknown_skill',
      },
      {
        label: 'the model fails on the missing tool: JSON-RPC -32603 over HTTP 400 naming it',
        client: raw03volt,
        prompt: '[strict] Hello world',
        ops: { send: { error: /^-32603 .*unavailable tool 'translate'/ } },
        says: {
          value: 'words',
          source: `${VOLT_PEER}: [strict] throws the AI SDK's NoSuchToolError`,
        },
        verdict: 'unknown_skill',
        rpcCode: -32603,
      },
      {
        label: 'the model fails mid-stream: error event -32603; the FAILED task polled later',
        client: raw03volt,
        prompt: '[strict] Hello world',
        ops: {
          stream: { error: /^-32603 /, minEvents: 2 },
          get: {
            state: 'failed',
            wire: /unavailable tool 'translate'/,
            spanState: 'TASK_STATE_FAILED',
          },
        },
        says: { value: 'words', source: 'as above, then the task FAILED with the text' },
        verdict: 'unknown_skill',
      },
    ],
    still: {
      label: 'message/send summarize-v2',
      client: raw03volt,
      ops: { send: { statusMatch: /^# Summary/ } },
    },
    namesAnother: [
      {
        label:
          'summarize-v2 whose model calls translate: COMPLETED naming translate, and -32603 naming it',
        client: raw03volt,
        prompt: '[call:translate] Hello world',
        ops: { send: { statusMatch: /unavailable tool 'translate'/ } },
      },
      {
        label: 'the same, [strict]: -32603 over HTTP 400 naming translate',
        client: raw03volt,
        prompt: '[strict] [call:translate] Hello world',
        ops: { send: { error: /unavailable tool 'translate'/ } },
      },
    ],
    afterRefetch: {
      label: 'message/send translate with the new card',
      client: raw03volt,
      ops: { send: {} },
    },
  },
  secondAgent: {
    cardUrl: 'helperCardUrl',
    rpcUrl: 'helperRpcUrl',
    skill: 'lookup',
    prompt: 'volt',
    agentName: 'helper',
  },
  variantB: {
    na: 'not expressible: VoltAgent cards carry no per-skill modes and defaultOutputModes is always ["text"] (only card_changed could show it; the row’s own test shows it is not flagged)',
  },
  agentSide: {
    load: 'import',
    send: agentSideSend('rpcUrl', 'message/send', 'The quick brown fox jumps', {
      'gen_ai.agent.name': 'summarizer',
    }),
    card: {
      value:
        '`/.well-known/summarizer/agent-card.json` (per agent): learned from the bytes served; the SERVER spans carry its fingerprint and `gen_ai.agent.name`',
      source: 'test/fixtures/voltagent/README.md',
    },
  },
  quirks: voltagentQuirks,
};
