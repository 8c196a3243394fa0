/**
 * The live wire of the node-mastra row, recorded into test/fixtures/mastra/ by
 * conformance/record.ts: the healthy peer (on Node 22), then variant A redeployed on the same port
 * (translate removed; the card's version is always "1.0"), talked to with 0.3 bodies and, under
 * `A2A-Version: 1.0`, 1.0 shapes under the same slash method names.
 */
import { execFileSync } from 'node:child_process';
import { nodePackageVersions, V03, type Recorder } from '../record-lib.mjs';
import type { Json } from '../lib';
import type { RecordedExchange, Row } from '../conformance/types';
import {
  getExchange,
  postExchange,
  previousTaskExchange,
  rootCardExchange,
  redeploys,
  rpcExchange,
  type PostOptions,
  unknownAgentUrl,
} from '../conformance/row-recording';
import { MASTRA_DIR, node22 } from '../mastra/peer-process.mjs';

/** The model calls the tool named by `skill:<id>` in the text (Mastra hands it no metadata). */
const TRANSLATE = 'skill:translate hello world from Prague';
const TRANSLATE_V1 = 'skill:translate hello world';
const OTHER_TOOL = 'skill:weather what is the weather in Prague';
const THROW = 'model:throw skill:translate x';
/** A 1.0 message (ROLE_USER, parts without kind), the skill in its metadata. */
const m1 = (r: Recorder, text: string, skillId: string): Json => ({
  message: {
    messageId: r.nextMessageId(),
    role: 'ROLE_USER',
    parts: [{ text }],
    metadata: { skillId },
  },
});
/** `<step>.message-send.response` (message/send skill translate), then its task read back. */
const translateThenRead = (step: string, note: string): RecordedExchange[] => [
  rpcExchange(`${step}.message-send.response`, note, 'rpcUrl', 'message/send', (r) =>
    r.m03(TRANSLATE, 'translate'),
  ),
  previousTaskExchange(`${step}.tasks-get.response`, 'tasks/get of that task'),
];
const V1: PostOptions = { v10: true };
const V1_STREAM: PostOptions = { v10: true, stream: true };
const STREAM: PostOptions = { stream: true };
const VERSIONS_OF = [
  '@mastra/core',
  '@mastra/server',
  '@mastra/hono',
  'hono',
  '@hono/node-server',
  'ai',
  'zod',
  // the two @a2a-js/sdk Mastra bundles
  '@a2a-js/sdk-v0_3',
  '@a2a-js/sdk-v1',
];

export const mastraRecording: Row['recording'] = {
  fixture: 'mastra',
  versionsOf: VERSIONS_OF,
  // the peer's Node is not the recorder's: Mastra needs >= 22.13
  recordedWith: () => ({
    ...nodePackageVersions(MASTRA_DIR, VERSIONS_OF),
    node: execFileSync(node22(), ['--version'], { encoding: 'utf8' }).trim(),
  }),
  steps: redeploys({
    healthy: [
      getExchange('card.assistant', 'healthy: tools summarize-v2, translate', 'cardUrl'),
      getExchange('card.helper', 'second agent on the same origin: tool lookup', 'helperCardUrl'),
      getExchange(
        'card.assistant.a2a-version-1.0',
        'the card does not change with A2A-Version: 1.0 (still protocolVersion 0.3.0, no supportedInterfaces)',
        'cardUrl',
        { headers: { 'A2A-Version': '1.0' } },
      ),
      rootCardExchange('card.root-well-known.404', 'no card at the origin root'),
      ...translateThenRead(
        'healthy',
        'healthy translate, blocking: COMPLETED task, one artifact response.txt',
      ),
      rpcExchange(
        'healthy.message-stream',
        'healthy translate, streaming: Task(working) first, then word-sized artifact-update chunks (append after the first), final status-update',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(TRANSLATE, 'translate'),
        STREAM,
      ),
      rpcExchange(
        'healthy.summarize.message-send.response',
        'healthy summarize-v2, blocking',
        'rpcUrl',
        'message/send',
        (r) => r.m03('skill:summarize-v2 one two three four five six', 'summarize-v2'),
      ),
      rpcExchange(
        'other-tool-error.message-send.response',
        'skillId summarize-v2 (on the card), but the model was steered to a tool "weather" that never existed: the COMPLETED text names "weather", not the requested skill',
        'rpcUrl',
        'message/send',
        (r) => r.m03(OTHER_TOOL, 'summarize-v2'),
      ),
      rpcExchange(
        'other-tool-error.message-stream',
        'the same, streaming',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(OTHER_TOOL, 'summarize-v2'),
        STREAM,
      ),
      rpcExchange(
        'helper.message-send.response',
        'second agent, skill lookup (not on the assistant card)',
        'helperRpcUrl',
        'message/send',
        (r) => r.m03('skill:lookup drift', 'lookup'),
      ),
      rpcExchange(
        'v1.healthy.message-send.response',
        "A2A-Version: 1.0 selects Mastra's v1 shapes (ROLE_*, TASK_STATE_*, result {task}, parts without kind) but the method names stay message/send, message/stream",
        'rpcUrl',
        'message/send',
        (r) => m1(r, TRANSLATE_V1, 'translate'),
        V1,
      ),
      rpcExchange(
        'v1.healthy.message-stream',
        'the same, streaming',
        'rpcUrl',
        'message/stream',
        (r) => m1(r, TRANSLATE_V1, 'translate'),
        V1_STREAM,
      ),
      rpcExchange(
        'model-error.message-send.response',
        'the model throws (a provider failure): what Mastra answers when the agent run throws',
        'rpcUrl',
        'message/send',
        (r) => r.m03(THROW, 'translate'),
      ),
      rpcExchange(
        'model-error.message-stream',
        'the same, streaming',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(THROW, 'translate'),
        STREAM,
      ),
      rpcExchange(
        'error.tasks-get.task-not-found.response',
        'JSON-RPC -32001 over HTTP 200',
        'rpcUrl',
        'tasks/get',
        () => ({ id: 'no-such-task' }),
      ),
      rpcExchange(
        'error.tasks-list.method-not-found.response',
        'tasks/list exists only with A2A-Version: 1.0: -32601 over HTTP 200',
        'rpcUrl',
        'tasks/list',
        () => ({}),
      ),
      rpcExchange(
        'error.version-not-supported.response',
        'JSON-RPC -32009 over HTTP 200',
        'rpcUrl',
        'message/send',
        (r) => r.m03('skill:translate x', 'translate'),
        { headers: { ...V03, 'A2A-Version': '2.0' } },
      ),
      rpcExchange(
        'error.send-message-1.0-name.400',
        "the A2A 1.0 JSON-RPC method name is rejected by the route's body schema: HTTP 400, not JSON-RPC",
        'rpcUrl',
        'SendMessage',
        (r) => m1(r, 'skill:translate x', 'translate'),
        V1,
      ),
      rpcExchange(
        'error.invalid-params.400',
        'invalid params never reach JSON-RPC: HTTP 400 {"error":"Invalid request body","issues":[...]}',
        'rpcUrl',
        'message/send',
        () => ({}),
      ),
      postExchange(
        'error.unknown-agent.404',
        'an agent id the server does not have: HTTP 404',
        unknownAgentUrl('rpcUrl', 'assistant'),
        (r) => r.rpc('message/send', r.m03('skill:translate x', 'translate')),
      ),
      getExchange(
        'error.unknown-agent-card.404',
        'the card of an agent id the server does not have: HTTP 404',
        unknownAgentUrl('cardUrl', 'assistant'),
      ),
    ],
    A: [
      getExchange(
        'variant-a.card.assistant',
        'variant A: translate removed, same version "1.0"',
        'cardUrl',
      ),
      ...translateThenRead(
        'variant-a',
        'variant A: COMPLETED task; the artifact text is the mock model echoing Mastra\'s tool error "Tool \\"translate\\" not found. Available tools: ..."; no JSON-RPC error',
      ),
      rpcExchange(
        'variant-a.message-stream',
        'variant A streaming: the tool-error text arrives split over word-sized appended artifact chunks ("Tool ", "\\"translate\\" ", "not ", "found. ", ...); final status-update completed',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(TRANSLATE, 'translate'),
        STREAM,
      ),
      rpcExchange(
        'v1.variant-a.message-send.response',
        'variant A under A2A-Version: 1.0',
        'rpcUrl',
        'message/send',
        (r) => m1(r, TRANSLATE_V1, 'translate'),
        V1,
      ),
      rpcExchange(
        'v1.variant-a.message-stream',
        'the same, streaming',
        'rpcUrl',
        'message/stream',
        (r) => m1(r, TRANSLATE_V1, 'translate'),
        V1_STREAM,
      ),
    ],
  }),
};
