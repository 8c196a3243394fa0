/**
 * Records the LIVE wire of Microsoft Agent Framework's A2A hosting (`agent-framework-a2a`
 * 1.0.0b261022, peer.py in this folder) into test/fixtures/agent-framework-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/agent-framework/record.mjs
 *
 * healthy (A2AExecutor stream=False, then stream=True), variant A on the SAME port (unknown
 * function answered to the model, then terminate_on_unknown_calls), variant B (stream=True);
 * plain `fetch`, no instrumentation. Per exchange: <name>.json | <name>.sse (the body, byte for
 * byte) and <name>.meta.json (request, status, headers without `date`); index.json: the versions
 * in the venv and the exchanges.
 */
import {
  FOX,
  V03,
  V10,
  livePeerRecorder,
  post,
  pythonPackageVersions,
  sse,
} from '../../record-lib.mjs';
import { VENV_PYTHON, startAgentFrameworkPeer } from './peer-process.mjs';

const rec = livePeerRecorder('agent-framework-live', startAgentFrameworkPeer);
const { exchange, rpc, m03, m10, withPeer } = rec;

await withPeer({ variant: 'healthy' }, async (peer) => {
  await exchange(
    'card',
    'GET /.well-known/agent-card.json: the app’s 1.0 card (skills = the tools, text/plain) with the a2a-sdk 0.3 fields merged in',
    peer.cardUrl,
  );
  await exchange(
    'jsonrpc-v1.0.send-message.summarize',
    'JSON-RPC 1.0 SendMessage, skill summarize: the scripted model calls the tool; stream=False: COMPLETED task, no artifacts, the answer as the last agent message of the history',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-send.translate',
    '0.3 message/send (the SDK compat layer), skill translate: COMPLETED, answer in history',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'rest-v1.0.message-stream.translate',
    'HTTP+JSON 1.0 message:stream, stream=False: task, status SUBMITTED, WORKING, WORKING with the answer as a message, COMPLETED',
    `${peer.restUrl}/message:stream`,
    post(sse(V10), JSON.stringify(m10('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v1.0.get-task.not-found',
    'JSON-RPC 1.0 GetTask of an unknown id: -32001',
    peer.rpcUrl,
    post(V10, rpc('GetTask', { id: 'no-such-task' })),
  );
  await exchange(
    'rest-v1.0.get-task.not-found',
    'HTTP+JSON 1.0 GET /tasks/{id} of an unknown id: 404',
    `${peer.restUrl}/tasks/no-such-task`,
    { headers: { 'A2A-Version': '1.0' } },
  );
});

await withPeer({ variant: 'healthy', stream: true }, async (peer) => {
  await exchange(
    'stream-true.jsonrpc-v1.0.send-message.summarize',
    'A2AExecutor(stream=True), SendMessage summarize: the answer as an artifact',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'stream-true.jsonrpc-v1.0.send-streaming-message.translate',
    'A2AExecutor(stream=True), SendStreamingMessage translate: artifact updates',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('translate: hello', 'translate'))),
  );
});

await withPeer({ variant: 'A' }, async (peer) => {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: the translate tool removed, so the skill too; version 1.0.0',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.jsonrpc-v1.0.send-message.translate',
    'variant A, SendMessage translate: COMPLETED; the answer is the framework’s function result `Error: Requested function "translate" not found.` (repeated by the model)',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a.jsonrpc-v0.3.message-stream.translate',
    'variant A, 0.3 message/stream translate: the same text in a working status message',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
});

await withPeer({ variant: 'A', unknown: 'terminate' }, async (peer) => {
  await exchange(
    'variant-a-terminate.jsonrpc-v1.0.send-message.translate',
    'variant A with terminate_on_unknown_calls: FAILED, status message = str() of the framework’s error (the text in single quotes)',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10('translate: hello', 'translate'))),
  );
});

await withPeer({ variant: 'B', stream: true }, async (peer) => {
  await exchange(
    'variant-b.stream-true.jsonrpc-v1.0.send-message.summarize',
    'variant B (stream=True), SendMessage summarize: the artifact is a raw image/png part; the card is the healthy one',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
});

const versions = pythonPackageVersions(VENV_PYTHON, [
  'agent-framework-a2a',
  'agent-framework-core',
  'a2a-sdk',
  'starlette',
  'uvicorn',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
