/**
 * The conformance table's row of node-adk: `adkJs` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe } from '../conformance/probes';
import { adkJsQuirks } from './node-adk.quirks';
import { startAdkPeer } from '../adk/peer-process.mjs';
import type { Row } from '../conformance/types';
import { adkRecording } from './node-adk.recording';
import {
  packageMissing,
  PROMPTS,
  SUMMARY,
  sdk03,
  STREAMING_NO_PUSH,
  fact,
  nodePeer,
  raw,
  sendCompletes,
} from '../conformance/row-kit';
import { GET_TASK_ERROR, unknownTaskProbe, agentSideSend } from '../conformance/row-probes';

const ADK_JS_FUNCTIONS = '@google/adk 2.0.0 dist/cjs/agents/functions.js:396';
const ADK_TOOLS_DICT = 'Function translate is not found in the toolsDict.';
/** Google ADK's JS peer seen through its agent `desk` (studio at its own base path beside it). */
const startAdkJs = nodePeer(startAdkPeer, (p) => ({
  baseUrl: p.baseUrl('desk'),
  cardUrl: p.cardUrl('desk'),
  rpcUrl: p.rpcUrl('desk'),
  studioCardUrl: p.cardUrl('studio'),
  studioRpcUrl: p.rpcUrl('studio'),
}));
export const adkJs: Row = {
  id: 'node-adk',
  name: 'Google ADK server (`@google/adk` 2.0.0 `toA2a` / `A2AAgentExecutor`, two LlmAgents on a scripted `BaseLlm`)',
  agentCode: 'test/real-world/adk/',
  unavailable: packageMissing('adk', '@google/adk'),
  start: startAdkJs,
  recording: adkRecording,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC send / stream at `{basePath}/jsonrpc` (`@a2a-js/sdk` 0.3 server); tool calls and results streamed as artifacts, data parts marked `adk_type`',
      source: 'test/fixtures/adk/README.md',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in 0.3 mode and raw fetch; the skill id in `message.metadata.skillId`, or named in a data part (a test of its own)',
      source: 'the card is a 0.3 card',
    },
    card: {
      value:
        '`{basePath}/.well-known/agent-card.json` per agent, skills `<agent>` ("model") + `<agent>-<tool>` named after the tool, defaults `["text"]`',
      source: 'test/fixtures/adk/healthy-card-desk.json',
    },
    judged: {
      value:
        'healthy tool calls: no drift (the marked parts are intermediate); removed tool: FAILED `Function translate is not found in the toolsDict.` → `unknown_skill` for `desk-translate` (the tool named by the skill’s name); an image where the card says text → `output_mode_mismatch` `image/png`; `card_changed` on re-fetch; skill named in a data part; the second agent judged against its own card',
      source: ADK_JS_FUNCTIONS,
    },
    fixtures: 'test/fixtures/adk/',
  },
  card: {
    protocol: '0.3',
    skills: [
      ['desk', undefined],
      ['desk-summarize', undefined],
      ['desk-translate', undefined],
    ],
    fields: (p) => ({
      protocolVersion: '0.3.0',
      version: '1.0.0',
      url: `${p.origin}/desk/jsonrpc`,
      defaultOutputModes: ['text'],
      skills: [{ name: 'model' }, { name: 'summarize' }, { name: 'translate' }],
    }),
  },
  skills: {
    send: 'desk-summarize',
    stream: 'desk-summarize',
    prompts: { 'desk-summarize': PROMPTS.summarize, 'desk-translate': 'translate: Hello world' },
  },
  capabilities: {
    ...STREAMING_NO_PUSH,
    grpc: fact(false, 'toA2a serves JSON-RPC (and REST) only'),
    variantB: fact(
      'file',
      'test/real-world/adk/peer.mjs: variant B answers with an image/png inline part, sent as a file part',
    ),
  },
  healthy: [
    {
      label:
        'raw 0.3 message/send + message/stream: function_call / function_response data parts, then the text',
      client: raw('0.3', 'rpcUrl'),
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          artifacts: 3,
          part: { kind: 'text', text: SUMMARY },
          wire: /"adk_type":"function_call"[\s\S]*"adk_type":"function_response"/,
        },
        stream: {
          state: 'completed',
          // task, working, function_call, function_response, two partial texts, the aggregated text, completed
          events: [
            'task',
            'status',
            'artifact',
            'artifact',
            'artifact',
            'artifact',
            'artifact',
            'status',
          ],
        },
      },
    },
    {
      label: 'SDK 0.3 mode on the card the app fetched',
      client: sdk03('card'),
      protocol: '0.3',
      ops: {
        send: { state: 'completed', artifacts: 3 },
        stream: { state: 'completed', minEvents: 6 },
      },
    },
  ],
  errors: [
    unknownTaskProbe('rpcUrl', { expect: { status: 200, body: /"error"/, span: GET_TASK_ERROR } }),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      unknownTaskProbe('rpcUrl', { bytes: true, expect: { status: 200, body: /"error"/ } }),
    ],
  },
  variantA: {
    gone: 'desk-translate',
    left: ['desk', 'desk-summarize'],
    paths: [
      {
        label: 'SDK 0.3 mode holding the healthy card: FAILED with ADK’s words',
        client: sdk03('card'),
        ops: { send: { state: 'failed', statusText: ADK_TOOLS_DICT } },
        says: {
          value: 'words',
          source: `${ADK_JS_FUNCTIONS}: "Function <tool> is not found in the toolsDict." (the tool name, not the skill id)`,
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label: 'raw 0.3 message/stream: the failed final status-update',
        client: raw('0.3', 'rpcUrl'),
        ops: {
          stream: {
            state: 'failed',
            wire: /"parts":\[\{"kind":"text","text":"Function translate is not found in the toolsDict\."\}\][\s\S]*"adk_error_code":"UNKNOWN_ERROR"/,
          },
        },
        says: { value: 'words', source: ADK_JS_FUNCTIONS },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
    ],
    still: sendCompletes('SDK send desk-summarize', sdk03('card')),
  },
  secondAgent: {
    cardUrl: 'studioCardUrl',
    rpcUrl: 'studioRpcUrl',
    skill: 'studio-render',
    prompt: 'render: a red house',
  },
  variantB: {
    skill: 'desk-summarize',
    paths: [
      {
        label: 'SDK 0.3 mode holding the healthy card: an image/png artifact',
        client: sdk03('card'),
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'raw', mediaType: 'image/png' },
            spanAttributes: { 'a2a.drift.actual_media_types': ['image/png'] },
          },
        },
        mediaType: 'image/png',
      },
      {
        label: 'raw 0.3 message/stream: a file part image/png',
        client: raw('0.3', 'rpcUrl'),
        ops: {
          stream: {
            state: 'completed',
            wire: /"kind":"artifact-update"[^\n]*"parts":\[\{"kind":"file","file":\{[^}]*"mimeType":"image\/png"/,
            spanAttributes: { 'a2a.drift.actual_media_types': ['image/png'] },
          },
        },
        mediaType: 'image/png',
      },
    ],
  },
  agentSide: {
    load: 'import',
    send: agentSideSend('rpcUrl', 'message/send', PROMPTS.summarize),
    card: {
      value:
        '`/desk/.well-known/agent-card.json` (toA2a `basePath`, one per agent): learned from the bytes served; the SERVER spans carry its fingerprint',
      source: 'test/real-world/adk/peer.mjs',
    },
  },
  quirks: adkJsQuirks,
};
