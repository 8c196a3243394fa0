/**
 * Records the real VoltAgent A2A wire into test/fixtures/voltagent/.
 *
 *   cd /work/main/test/real-world/voltagent && npm ci && node record.mjs
 *
 * Starts peer.mjs (healthy, then redeployed as variant A and B on the SAME port with the same
 * card version), talks to it with plain `fetch` (no instrumentation loaded), and writes for
 * every exchange:
 *   <name>.json | <name>.sse   the response body, byte for byte as received
 *   <name>.meta.json           request (method, path, headers, body) + response status/headers
 * plus README.md (versions, how recorded) and index.json (the list, with notes).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  JSON_HEADERS,
  createRecorder,
  firstSseJson,
  jsonRpcPost,
  nodePackageVersions,
  versionBullets,
} from '../record-lib.mjs';
import { startVoltAgentPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rec = createRecorder({
  out: path.resolve(here, '../../fixtures/voltagent'),
  messageIdPrefix: 'rec-msg-',
});
/** `rec.rpc`: a JSON-RPC body the way a 0.2/0.3 client sends it (VoltAgent has no A2A client of its own). */
const { exchange, rpc } = rec;
const sendParams = (text, skillId) => rec.m03(text, skillId);
const call = (name, note, peer, agentId, body, stream = false) =>
  exchange(name, note, peer.rpcUrl(agentId), jsonRpcPost(body, stream));

const versions = nodePackageVersions(here, [
  '@voltagent/core',
  '@voltagent/a2a-server',
  '@voltagent/server-hono',
  '@voltagent/server-core',
  'ai',
  '@a2a-js/sdk',
]);

// ------------------------------------------------------------------ healthy
let peer = await startVoltAgentPeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange(
    'healthy-card-summarizer',
    'GET the summarizer agent card (healthy deployment)',
    peer.cardUrl('summarizer'),
  );
  await exchange(
    'healthy-card-helper',
    'GET the second agent card on the same origin',
    peer.cardUrl('helper'),
  );
  await exchange(
    'healthy-card-root-well-known',
    'GET /.well-known/agent-card.json: VoltAgent serves no root card',
    `${peer.origin}/.well-known/agent-card.json`,
  );
  await exchange(
    'healthy-card-unknown-agent',
    'GET the card of an agent id that does not exist',
    peer.cardUrl('nobody'),
  );
  const sent = await call(
    'healthy-send-summarize',
    'message/send, skill summarize-v2 in message.metadata.skillId',
    peer,
    'summarizer',
    rpc('message/send', sendParams('The quick brown fox jumps over the lazy dog', 'summarize-v2')),
  );
  await call(
    'healthy-send-translate',
    'message/send, skill translate',
    peer,
    'summarizer',
    rpc('message/send', sendParams('Hello world', 'translate')),
  );
  await call(
    'healthy-stream-summarize',
    'message/stream, skill summarize-v2: every event is a full task snapshot framed `data: \\x1e{json}\\n\\n`',
    peer,
    'summarizer',
    rpc(
      'message/stream',
      sendParams('The quick brown fox jumps over the lazy dog', 'summarize-v2'),
    ),
    true,
  );
  await call(
    'healthy-stream-translate',
    'message/stream, skill translate',
    peer,
    'summarizer',
    rpc('message/stream', sendParams('Hello world', 'translate')),
    true,
  );
  await call(
    'healthy-send-helper-lookup',
    'message/send to the second agent (/a2a/helper), skill lookup (not in the summarizer card)',
    peer,
    'helper',
    rpc('message/send', sendParams('volt', 'lookup')),
  );
  const taskId = JSON.parse(sent.text).result.id;
  await call(
    'healthy-tasks-get',
    'tasks/get of the healthy summarize task',
    peer,
    'summarizer',
    rpc('tasks/get', { id: taskId }),
  );
  // JSON-RPC error cases
  await call(
    'error-method-not-found',
    'unknown JSON-RPC method → -32601, HTTP 400',
    peer,
    'summarizer',
    rpc('tasks/resubscribe', { id: taskId }),
  );
  await call(
    'error-invalid-params-data-part',
    'a data part (VoltAgent accepts text parts only) → -32602, HTTP 400; skill id is one the card lists',
    peer,
    'summarizer',
    JSON.stringify({
      jsonrpc: '2.0',
      id: rec.nextRpcId(),
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          role: 'user',
          messageId: rec.nextMessageId(),
          parts: [{ kind: 'data', data: { text: 'x' } }],
          metadata: { skillId: 'summarize-v2' },
        },
      },
    }),
  );
  await call(
    'error-task-not-found',
    'tasks/get of an unknown task → -32001, HTTP 400',
    peer,
    'summarizer',
    rpc('tasks/get', { id: 'no-such-task' }),
  );
  await call(
    'error-unknown-agent',
    'message/send to /a2a/nobody → -32600, HTTP 400',
    peer,
    'nobody',
    rpc('message/send', sendParams('hi', 'summarize-v2')),
  );
  await exchange(
    'error-parse',
    'a body that is not JSON → -32700, HTTP 400',
    peer.rpcUrl('summarizer'),
    { method: 'POST', headers: JSON_HEADERS, body: '{"jsonrpc":"2.0",' },
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant A: translate removed, same port, same version
peer = await startVoltAgentPeer({ variant: 'A', port });
try {
  await call(
    'variant-a-send-translate',
    'variant A (translate tool removed), message/send skill translate: COMPLETED task, text is the AI SDK NoSuchToolError message relayed by the (mock) model',
    peer,
    'summarizer',
    rpc('message/send', sendParams('Hello world', 'translate')),
  );
  await call(
    'variant-a-stream-translate',
    'variant A, message/stream skill translate: working snapshots then COMPLETED, same text',
    peer,
    'summarizer',
    rpc('message/stream', sendParams('Hello world', 'translate')),
    true,
  );
  await call(
    'variant-a-send-translate-strict',
    'variant A, message/send skill translate, model throws NoSuchToolError ([strict]): JSON-RPC -32603 over HTTP 400',
    peer,
    'summarizer',
    rpc('message/send', sendParams('[strict] Hello world', 'translate')),
  );
  const st = await call(
    'variant-a-stream-translate-strict',
    'variant A, message/stream skill translate, model throws ([strict]): one working snapshot then a JSON-RPC -32603 error event',
    peer,
    'summarizer',
    rpc('message/stream', sendParams('[strict] Hello world', 'translate')),
    true,
  );
  await call(
    'variant-a-tasks-get-failed',
    'tasks/get of the task of the failed stream: state failed, status text = the error',
    peer,
    'summarizer',
    rpc('tasks/get', { id: firstSseJson(st.text).result.id }),
  );
  await call(
    'variant-a-send-summarize-calls-translate',
    'variant A, message/send skill summarize-v2 (still in the card) but the model calls translate ([call:translate]): COMPLETED, text names translate, not the requested skill',
    peer,
    'summarizer',
    rpc('message/send', sendParams('[call:translate] Hello world', 'summarize-v2')),
  );
  await call(
    'variant-a-send-summarize',
    'variant A, message/send skill summarize-v2: healthy',
    peer,
    'summarizer',
    rpc('message/send', sendParams('The quick brown fox jumps over the lazy dog', 'summarize-v2')),
  );
  await exchange(
    'variant-a-card-summarizer',
    'GET the summarizer card after the redeploy: translate gone, version unchanged',
    peer.cardUrl('summarizer'),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant B: summarize-v2 reused (plain text), same port, same version
peer = await startVoltAgentPeer({ variant: 'B', port });
try {
  await call(
    'variant-b-send-summarize',
    'variant B (summarize-v2 now returns plain text), message/send: COMPLETED, text part (no media type on the wire)',
    peer,
    'summarizer',
    rpc('message/send', sendParams('The quick brown fox jumps over the lazy dog', 'summarize-v2')),
  );
  await exchange(
    'variant-b-card-summarizer',
    'GET the summarizer card after the B redeploy: only the skill description differs (no per-skill modes exist)',
    peer.cardUrl('summarizer'),
  );
} finally {
  await peer.stop();
}

rec.writeIndex({ recordedWith: versions, node: process.version });
writeFileSync(
  path.join(rec.out, 'README.md'),
  `# VoltAgent A2A wire samples

Recorded from the real packages (no hand-written bodies) by
\`test/real-world/voltagent/record.mjs\` on Node ${process.version}:

${versionBullets(versions)}

(\`@a2a-js/sdk@${versions['@a2a-js/sdk']}\` is the dependency of \`@voltagent/a2a-server\`, used by it for types only.)

The peer is \`test/real-world/voltagent/peer.mjs\`: one VoltAgent with the Hono server provider
and two A2A servers on one origin (agent ids \`summarizer\` and \`helper\`), its LLM a deterministic
\`MockLanguageModelV3\` (\`ai/test\`) that calls the tool named by the requested skill
(\`params.message.metadata.skillId\`) and answers with the tool's output. Redeploys (variant A:
tool \`translate\` removed; variant B: \`summarize-v2\` returns plain text instead of markdown) restart
the peer on the same port with the same card \`version\` (1.0.0). The client side is plain
\`fetch\` with 0.2/0.3 JSON-RPC bodies (VoltAgent ships no A2A client).

Files: \`<name>.json\` / \`<name>.sse\` are response bodies byte for byte (SSE events are framed
\`data: \\x1e{json}\\n\\n\`); \`<name>.meta.json\` holds the request and the response status and
headers; \`index.json\` lists them with a note each. Ids, timestamps and the port are random per run.

Wire facts:
- card: \`GET /.well-known/{agentId}/agent-card.json\`; no root \`/.well-known/agent-card.json\` (404);
  \`url\` = \`http://127.0.0.1:{port}/a2a/{agentId}\`; no \`protocolVersion\`, no \`preferredTransport\`;
  \`defaultInputModes\`/\`defaultOutputModes\` = \`["text"]\` (bare word, hard-coded); \`skills\` = the agent's
  tools as \`{id, name, description, tags: ["tool"]}\` with no \`inputModes\`/\`outputModes\`.
- operations: \`POST /a2a/{agentId}\`, methods \`message/send\`, \`message/stream\`, \`tasks/get\`, \`tasks/cancel\`.
- results: a Task WITHOUT \`kind\` (\`{id, contextId, history, status: {state, timestamp, message}, metadata}\`),
  lowercase states; the answer is only in \`status.message.parts\` (text) and \`history\`, never in artifacts.
- errors: \`{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":{…}}}\` with HTTP 400.
`,
);
console.log(`wrote ${rec.index.length} exchanges to ${rec.out}`);
