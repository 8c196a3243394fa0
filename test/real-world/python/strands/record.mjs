/**
 * Records the LIVE wire of Strands Agents' A2AServer (`strands-agents[a2a]` 1.62.0, peer.py in
 * this folder) into test/fixtures/strands-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/strands/record.mjs
 *
 * healthy (A2AServer's default legacy streaming, then its A2A-compliant streaming), then variant
 * A on the SAME port; plain `fetch`, no instrumentation. Per exchange: <name>.json | <name>.sse
 * (the body, byte for byte) and <name>.meta.json (request, status, headers without `date`);
 * index.json: the versions in the venv and the exchanges.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOX, V03, createRecorder, post, pythonPackageVersions, sse } from '../../record-lib.mjs';
import { VENV_PYTHON, startStrandsPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rec = createRecorder({
  out: path.resolve(here, '../../../fixtures/strands-live'),
  keep: ['README.md'],
  dropResponseHeaders: ['date'],
  messageIdPrefix: 'rec-',
});
const { exchange, rpc, m03 } = rec;

let peer = await startStrandsPeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange(
    'card',
    'GET /.well-known/agent-card.json: a 0.3 card (protocolVersion 0.3.0), defaults ["text"], skills = the tools (no modes, tags [])',
    peer.cardUrl,
  );
  await exchange(
    'card.agent-json',
    'GET /.well-known/agent.json (the a2a-sdk 0.3 server serves the older path too)',
    `${peer.origin}/.well-known/agent.json`,
  );
  await exchange(
    'jsonrpc-v0.3.message-send.summarize',
    '0.3 message/send skill summarize: the model calls the summarize tool; COMPLETED, artifact "agent_response" = the AgentResult str()-ed (trailing newline)',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-stream.translate',
    "0.3 message/stream skill translate, A2AServer's default (legacy) streaming: task, status-update working carrying the text chunk as an agent message, artifact-update, status-update completed",
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.tasks-get.not-found',
    '0.3 tasks/get of an unknown id',
    peer.rpcUrl,
    post(V03, rpc('tasks/get', { id: 'no-such-task' })),
  );
  await exchange(
    'rest.message-send.not-served',
    'POST /v1/message:send: A2AServer serves no HTTP+JSON binding (404)',
    `${peer.origin}/v1/message:send`,
    post(V03, JSON.stringify({ message: m03('hi', 'summarize').message })),
  );
} finally {
  await peer.stop();
}

peer = await startStrandsPeer({ variant: 'healthy', port, streaming: 'compliant' });
try {
  await exchange(
    'compliant.jsonrpc-v0.3.message-stream.translate',
    'enable_a2a_compliant_streaming=True: task, artifact-update (the chunk), artifact-update (append, lastChunk, empty text), status-update completed',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
} finally {
  await peer.stop();
}

peer = await startStrandsPeer({ variant: 'A', port });
try {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: the translate tool removed, so the skill too; version 1.0.0',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.jsonrpc-v0.3.message-send.translate',
    'variant A, 0.3 message/send skill translate: COMPLETED, text "Unknown tool: translate" (Strands\' tool result, repeated by the model)',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a.jsonrpc-v0.3.message-stream.translate',
    'variant A, 0.3 message/stream skill translate: COMPLETED with the same text',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
} finally {
  await peer.stop();
}

const versions = pythonPackageVersions(VENV_PYTHON, [
  'strands-agents',
  'a2a-sdk',
  'starlette',
  'uvicorn',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
