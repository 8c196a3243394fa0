/**
 * Records the LIVE wire of Google ADK's Python A2A server (`to_a2a`, peer.py in this folder)
 * into test/fixtures/google-adk-python-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/google-adk/record.mjs
 *
 * healthy, then variant A, then variant B on the SAME port; plain `fetch`, no instrumentation. Per exchange:
 * <name>.json | <name>.sse (the body, byte for byte) and <name>.meta.json (request, status,
 * headers without `date`); index.json: the versions in the venv and the exchanges.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FOX,
  V03,
  V10,
  createRecorder,
  post,
  pythonPackageVersions,
  sse,
} from '../../record-lib.mjs';
import { VENV_PYTHON, startPythonAdkPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rec = createRecorder({
  out: path.resolve(here, '../../../fixtures/google-adk-python-live'),
  keep: ['README.md'],
  dropResponseHeaders: ['date'],
  messageIdPrefix: 'rec-',
});
const { exchange, rpc, m10, m03 } = rec;

let peer = await startPythonAdkPeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange('card', 'GET /.well-known/agent-card.json: a pure 1.0 card', peer.cardUrl);
  await exchange(
    'jsonrpc.send-message.summarize',
    'JSON-RPC 1.0 SendMessage skill desk-summarize: COMPLETED; function_call / function_response data parts (metadata.adk_type) in history, the final text in the artifact',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'desk-summarize'))),
  );
  await exchange(
    'jsonrpc.send-streaming-message.summarize',
    'JSON-RPC 1.0 SendStreamingMessage: task, WORKING status-updates (empty, function_call, function_response, text), artifactUpdate, COMPLETED',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10(`summarize: ${FOX}`, 'desk-summarize'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-send.translate',
    'JSON-RPC 0.3 message/send (compat layer, same endpoint) skill desk-translate',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'desk-translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-stream.translate',
    'JSON-RPC 0.3 message/stream skill desk-translate',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'desk-translate'))),
  );
  await exchange(
    'jsonrpc.get-task.not-found',
    'JSON-RPC 1.0 GetTask of an unknown id',
    peer.rpcUrl,
    post(V10, rpc('GetTask', { id: 'no-such-task' })),
  );
} finally {
  await peer.stop();
}

peer = await startPythonAdkPeer({ variant: 'A', port });
try {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: desk-translate gone, version 0.0.1',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.jsonrpc.send-message.translate',
    'variant A, SendMessage skill desk-translate: COMPLETED; the function_response is {"error": "Invoking `translate()` failed as no tool with that name is available. ..."}',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10('translate: hello', 'desk-translate'))),
  );
  await exchange(
    'variant-a.jsonrpc.send-streaming-message.translate',
    'variant A, SendStreamingMessage skill desk-translate',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('translate: hello', 'desk-translate'))),
  );
  await exchange(
    'variant-a.jsonrpc-v0.3.message-send.translate',
    'variant A, 0.3 message/send skill desk-translate',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'desk-translate'))),
  );
} finally {
  await peer.stop();
}

peer = await startPythonAdkPeer({ variant: 'B', port });
try {
  await exchange(
    'variant-b.jsonrpc.send-message.summarize',
    'variant B (same tools and card; the model answers with an image), SendMessage skill desk-summarize: the artifact holds a file part (raw bytes, mediaType image/png) where the card says text/plain',
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'desk-summarize'))),
  );
  await exchange(
    'variant-b.jsonrpc.send-streaming-message.summarize',
    'variant B, SendStreamingMessage skill desk-summarize',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10(`summarize: ${FOX}`, 'desk-summarize'))),
  );
} finally {
  await peer.stop();
}

const versions = pythonPackageVersions(VENV_PYTHON, [
  'google-adk',
  'google-genai',
  'a2a-sdk',
  'starlette',
  'sse-starlette',
  'uvicorn',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
