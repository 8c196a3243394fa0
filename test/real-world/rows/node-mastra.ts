/**
 * The conformance table's row of node-mastra: `mastra` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe, httpProbe, m03, messageProbe } from '../conformance/probes';
import { endpoint } from '../conformance/types';
import { mastraQuirks } from './node-mastra.quirks';
import { node22, startMastraPeer } from '../mastra/peer-process.mjs';
import type { Row } from '../conformance/types';
import { mastraRecording } from './node-mastra.recording';
import {
  packageMissing,
  sdk03,
  STREAMING_NO_PUSH,
  fact,
  nodePeer,
  sendCompletes,
} from '../conformance/row-kit';
import { GET_TASK_32001, unknownTaskProbe, agentSideSend } from '../conformance/row-probes';

const MASTRA_PEER = 'test/real-world/mastra/peer.mjs';
/** Mastra seen through its agent `assistant` (`helper` beside it on the origin), on Node 22. */
const startMastra = nodePeer(startMastraPeer, (p) => ({
  cardUrl: p.cardUrl('assistant'),
  rpcUrl: p.rpcUrl('assistant'),
  helperCardUrl: p.cardUrl('helper'),
  helperRpcUrl: p.rpcUrl('helper'),
}));
/** Why the Mastra row cannot run: its package, or a Node >= 22.13 (node22.sh). */
function mastraUnavailable(): string | undefined {
  const missing = packageMissing('mastra', '@mastra/core')();
  if (missing) return missing;
  try {
    node22();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
const raw03m = { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' } as const;
const raw10slash = {
  kind: 'jsonrpc',
  version: '1.0',
  endpoint: 'rpcUrl',
  slashNames: true,
} as const;
const STALE = { 'error.type': 'StaleAgentCardError', 'a2a.task.state': 'TASK_STATE_COMPLETED' };
export const mastra: Row = {
  id: 'node-mastra',
  name: 'Mastra (`@mastra/core` 1.71, `@mastra/server` 1.67, Node 22)',
  agentCode: 'test/real-world/mastra/',
  unavailable: mastraUnavailable,
  start: startMastra,
  recording: mastraRecording,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/api/a2a/{agentId}` (1.0 shapes with `A2A-Version: 1.0`, slash method names); its peer on Node 22 (Mastra needs >= 22.13)',
      source: 'test/fixtures/mastra/README.md; test/real-world/mastra/node22.sh',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in 0.3 mode and raw fetch (0.3, and 1.0 shapes under the slash names); the skill id in `message.metadata.skillId`',
      source: 'test/fixtures/mastra/',
    },
    card: {
      value:
        '`/api/.well-known/{agentId}/agent-card.json`, one per agent: protocolVersion 0.3.0, version always "1.0", skills = the tools without modes, defaults `["text/plain"]`',
      source: 'test/fixtures/mastra/card.assistant.json',
    },
    judged: {
      value:
        'removed tool: COMPLETED task `Tool "x" not found` → `unknown_skill` (send; stream in word chunks; SDK client; 1.0 shapes); words naming another tool: no verdict; `card_changed` on re-fetch; then `skill_not_in_card`; another agent on the origin unaffected; -32001, -32009, HTTP 400 and a provider failure: error spans. Variant B not expressible',
      source: `${MASTRA_PEER}: Mastra's tool-not-found text in a COMPLETED task`,
    },
    fixtures: 'test/fixtures/mastra/',
  },
  card: {
    protocol: '0.3',
    skills: [
      ['summarize-v2', undefined],
      ['translate', undefined],
    ],
    fields: (p) => ({
      protocolVersion: '0.3.0',
      url: endpoint(p, 'rpcUrl'),
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
    }),
    spanAttributes: (p) => ({
      'gen_ai.agent.name': 'assistant',
      'gen_ai.agent.version': '1.0',
      'server.port': p.port,
    }),
  },
  skills: {
    send: 'translate',
    stream: 'translate',
    prompts: {
      translate: 'skill:translate hello world from Prague',
      'summarize-v2': 'skill:summarize-v2 one two three four five six',
    },
  },
  capabilities: {
    ...STREAMING_NO_PUSH,
    grpc: fact(false, '@mastra/server serves JSON-RPC only'),
    variantB: fact(
      'none',
      'no per-skill modes, fixed text/plain defaults, parts without a media type',
    ),
  },
  healthy: [
    {
      label: 'raw 0.3 message/send, tasks/get of its task, message/stream in word chunks',
      client: raw03m,
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: 'Traduction: hello world from Prague' },
          spanAttributes: { 'gen_ai.agent.name': 'assistant' },
        },
        stream: {
          state: 'completed',
          firstEvent: 'task',
          countsEvents: true,
          wire: /"text":"Traduction: "[\s\S]*"text":"hello "[\s\S]*"text":"world "[\s\S]*"text":"from "[\s\S]*"text":"Prague"/,
        },
        get: { state: 'completed', spanAttributes: { 'a2a.lifecycle.negotiation_known': true } },
      },
    },
    {
      label: 'SDK 0.3 mode on the card the app fetched',
      client: sdk03('card'),
      ops: { send: { state: 'completed', part: { kind: 'text' } }, stream: { minEvents: 4 } },
    },
    {
      label: 'A2A-Version: 1.0 (the slash method names kept, 1.0 shapes: a part without mediaType)',
      client: raw10slash,
      ops: {
        send: {
          state: 'completed',
          wire: /"parts":\[\{"text":"Traduction: hello world from Prague"\}\]/,
        },
        stream: { state: 'completed' },
      },
    },
  ],
  errors: [
    unknownTaskProbe('rpcUrl', {
      label: 'tasks/get of an unknown task (-32001 at HTTP 200)',
      expect: { status: 200, body: /"code":-32001/, span: GET_TASK_32001 },
    }),
    httpProbe(
      'A2A-Version: 2.0 (-32009)',
      '',
      {
        status: 200,
        body: /"code":-32009/,
        span: { name: 'SendMessage', error: true, attributes: { 'error.type': '-32009' } },
      },
      {
        base: 'rpcUrl',
        headers: { 'A2A-Version': '2.0' },
        body: (tag) => ({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: m03('skill:translate x', 'translate', tag),
        }),
      },
    ),
    httpProbe(
      'a schema error (role "robot"): HTTP 400',
      '',
      {
        status: 400,
        body: /"error":"Invalid request body"/,
        span: { name: 'SendMessage', error: true, attributes: { 'error.type': '400' } },
      },
      {
        base: 'rpcUrl',
        body: (tag) => ({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: { ...m03('skill:translate x', 'translate', tag).message, role: 'robot' },
          },
        }),
      },
    ),
  ],
  errorCalls: [
    {
      label: 'the agent run throws (a provider failure): -32603 on send',
      client: raw03m,
      prompt: 'model:throw skill:translate x',
      ops: {
        send: {
          error: /^-32603 mock model failure \(model:throw\)$/,
          spanAttributes: { 'error.type': '-32603' },
        },
      },
    },
    {
      label:
        'the agent run throws: a FAILED "Handler failed: …" stream (a task state, not an error status)',
      client: raw03m,
      prompt: 'model:throw skill:translate x',
      errorSpan: false,
      ops: {
        stream: {
          state: 'failed',
          wire: /"text":"Handler failed: mock model failure \(model:throw\)"/,
          spanAttributes: { 'a2a.task.state': 'TASK_STATE_FAILED' },
        },
      },
    },
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe(
        'send',
        'rpcUrl',
        'message/send',
        'skill:translate hello world from Prague',
        'translate',
      ),
      messageProbe(
        'stream',
        'rpcUrl',
        'message/stream',
        'skill:summarize-v2 one two three four five',
        'summarize-v2',
      ),
      unknownTaskProbe('rpcUrl', {
        bytes: true,
        id: () => 'no-such-task',
        expect: { status: 200 },
      }),
    ],
    calls: [
      { label: 'SDK 0.3 mode send + stream', client: sdk03('card'), ops: { send: {}, stream: {} } },
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize-v2'],
    paths: [
      {
        label: 'message/send: a COMPLETED task saying Tool "translate" not found',
        client: raw03m,
        ops: {
          send: {
            state: 'completed',
            wire: /"text":"Tool \\"translate\\" not found\. Available tools: summarize-v2\./,
            spanAttributes: STALE,
          },
        },
        says: {
          value: 'words',
          source: `${MASTRA_PEER}; test/fixtures/mastra/ (Mastra's "Tool \\"x\\" not found", no JSON-RPC error)`,
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label:
          'message/stream: the words in word chunks ("Tool ", "\\"translate\\" ", "not ", "found. ")',
        client: raw03m,
        ops: {
          stream: {
            state: 'completed',
            wire: /"text":"Tool "[\s\S]*"text":"\\"translate\\" "[\s\S]*"text":"not "[\s\S]*"text":"found\. "/,
            spanAttributes: STALE,
          },
        },
        says: { value: 'words', source: 'as above, streamed word by word' },
        verdict: 'unknown_skill',
      },
      {
        label: 'the SDK client holding the old card',
        client: sdk03('card'),
        ops: { send: { state: 'completed' } },
        says: { value: 'words', source: 'as above' },
        verdict: 'unknown_skill',
      },
      {
        label: 'A2A-Version: 1.0 send and stream',
        client: raw10slash,
        ops: {
          send: { state: 'completed', wire: /"text":"Tool \\"translate\\" not found/ },
          stream: {},
        },
        says: { value: 'words', source: 'as above, in 1.0 shapes' },
        verdict: 'unknown_skill',
      },
    ],
    still: sendCompletes('message/send summarize-v2', raw03m),
    afterRefetch: {
      label: 'message/send translate with the new card',
      client: raw03m,
      ops: { send: {} },
    },
    namesAnother: [
      {
        label:
          'summarize-v2 steered to translate (gone): the text names translate, lists summarize-v2',
        client: raw03m,
        prompt: 'skill:translate hello',
        ops: {
          send: {
            wire: /"text":"Tool \\"translate\\" not found\. Available tools: summarize-v2\./,
          },
        },
      },
      {
        label:
          'on the healthy agent, summarize-v2 steered to weather: "Tool \\"weather\\" not found", send and stream',
        on: 'healthy',
        client: raw03m,
        prompt: 'skill:weather in Prague',
        ops: {
          send: {
            wire: /"text":"Tool \\"weather\\" not found\. Available tools: summarize-v2, translate\./,
          },
          stream: {},
        },
      },
    ],
  },
  secondAgent: {
    cardUrl: 'helperCardUrl',
    rpcUrl: 'helperRpcUrl',
    skill: 'lookup',
    prompt: 'skill:lookup drift',
    agentName: 'helper',
  },
  variantB: {
    na: 'not expressible: Mastra cards carry no per-skill modes and fixed text/plain defaults, and its parts carry no media type (the row’s own test shows it)',
  },
  agentSide: {
    load: 'import',
    send: agentSideSend('rpcUrl', 'message/send', 'skill:translate hello world from Prague'),
    card: {
      value:
        '`/api/.well-known/assistant/agent-card.json` (per agent, under `/api`): learned from the bytes served; the SERVER spans carry its fingerprint',
      source: 'test/fixtures/mastra/README.md',
    },
  },
  quirks: mastraQuirks,
};
