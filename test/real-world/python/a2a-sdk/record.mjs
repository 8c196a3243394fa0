/**
 * Records the LIVE wire of the reference Python SDK (`a2a-sdk`, peer.py in this folder) into
 * test/fixtures/a2a-python-live/, beside the fixtures test/fixtures/a2a-python/ DERIVED from its
 * source when PyPI was unreachable.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/a2a-sdk/record.mjs
 *
 * Starts peer.py (healthy; then A with a failed task, A with a raised ValueError, B, each on the
 * SAME port), talks to it with plain `fetch` (no instrumentation loaded), and writes for every
 * exchange:
 *   <name>.json | <name>.sse   the response body, byte for byte as received
 *   <name>.meta.json           request (method, path, headers, body) + response status/headers
 * plus index.json (the versions installed in the venv, the list of exchanges with notes).
 * README.md is written by hand (it holds the comparison with the derived fixtures).
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
import { VENV_PYTHON, startPythonSdkPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rec = createRecorder({
  out: path.resolve(here, '../../../fixtures/a2a-python-live'),
  keep: ['README.md'],
  dropResponseHeaders: ['date'],
  messageIdPrefix: 'rec-',
});
const { exchange, rpc, m10 } = rec;
/** 0.3 params, the skill in the params' own `metadata` (MessageSendParams.metadata). */
const m03 = (text, skillId) => rec.m03(text, skillId, 'params');

// ------------------------------------------------------------------ healthy
let peer = await startPythonSdkPeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange('card', 'GET /.well-known/agent-card.json, no A2A-Version header', peer.cardUrl);
  await exchange(
    'card.a2a-version-1.0',
    'the same with A2A-Version: 1.0 (same bytes)',
    peer.cardUrl,
    {
      headers: { 'A2A-Version': '1.0' },
    },
  );
  const send = await exchange(
    'jsonrpc.send-message.completed',
    'JSON-RPC 1.0 SendMessage skill summarize: COMPLETED task (history: the user message and the WORKING status message)',
    peer.jsonRpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'jsonrpc.get-task.completed',
    'JSON-RPC 1.0 GetTask of that task',
    peer.jsonRpcUrl,
    post(V10, rpc('GetTask', { id: JSON.parse(send.text).result.task.id })),
  );
  await exchange(
    'jsonrpc.send-streaming-message',
    'JSON-RPC 1.0 SendStreamingMessage skill translate: task, statusUpdate working, artifactUpdate, statusUpdate completed',
    peer.jsonRpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-send.completed',
    'JSON-RPC 0.3 message/send (compat layer, same endpoint, no A2A-Version) skill translate',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-stream',
    'JSON-RPC 0.3 message/stream skill summarize',
    peer.jsonRpcUrl,
    post(sse(V03), rpc('message/stream', m03(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'rest.message-send.completed',
    'HTTP+JSON 1.0 POST /message:send skill summarize (bare SendMessageResponse)',
    `${peer.restUrl}/message:send`,
    post(V10, JSON.stringify(m10(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'rest.message-stream',
    'HTTP+JSON 1.0 POST /message:stream skill translate',
    `${peer.restUrl}/message:stream`,
    post(sse(V10), JSON.stringify(m10('translate: hello', 'translate'))),
  );
  await exchange(
    'rest.get-task.not-found',
    'HTTP+JSON 1.0 GET /tasks/no-such-task',
    `${peer.restUrl}/tasks/no-such-task`,
    { headers: { 'A2A-Version': '1.0' } },
  );
  await exchange(
    'rest.message-send.empty-parts',
    'HTTP+JSON 1.0 POST /message:send with parts [] (the SDK validation)',
    `${peer.restUrl}/message:send`,
    post(V10, JSON.stringify({ message: { messageId: 'x', role: 'ROLE_USER', parts: [] } })),
  );
  await exchange(
    'rest.message-send.invalid-params',
    'HTTP+JSON 1.0 /message:send, the skill raises InvalidParamsError after the Task event',
    `${peer.restUrl}/message:send`,
    post(V10, JSON.stringify(m10('summarize: max_words=-1', 'summarize'))),
  );
  await exchange(
    'rest.message-stream.invalid-params',
    'HTTP+JSON 1.0 /message:stream, InvalidParamsError after the Task event',
    `${peer.restUrl}/message:stream`,
    post(sse(V10), JSON.stringify(m10('summarize: max_words=-1', 'summarize'))),
  );
  await exchange(
    'jsonrpc.send-streaming-message.invalid-params',
    'JSON-RPC 1.0 SendStreamingMessage, InvalidParamsError after the Task event',
    peer.jsonRpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('summarize: max_words=-1', 'summarize'))),
  );
  await exchange(
    'jsonrpc.send-message.invalid-params',
    'JSON-RPC 1.0 SendMessage, InvalidParamsError after the Task event',
    peer.jsonRpcUrl,
    post(V10, rpc('SendMessage', m10('summarize: max_words=-1', 'summarize'))),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant A, failed task
peer = await startPythonSdkPeer({ variant: 'A', port });
try {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: translate gone, version 1.0.0',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.jsonrpc.send-message.unknown-skill',
    'JSON-RPC 1.0 SendMessage skill translate: the executor fails the task, status message "unknown skill: translate"',
    peer.jsonRpcUrl,
    post(V10, rpc('SendMessage', m10('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a.jsonrpc-v0.3.message-send.unknown-skill',
    'JSON-RPC 0.3 message/send skill translate: failed task',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a.rest.message-stream.unknown-skill',
    'HTTP+JSON 1.0 /message:stream skill translate: task, then the failed statusUpdate',
    `${peer.restUrl}/message:stream`,
    post(sse(V10), JSON.stringify(m10('translate: hello', 'translate'))),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant A, executor raises
peer = await startPythonSdkPeer({ variant: 'A', port, unknownSkill: 'raise' });
try {
  await exchange(
    'variant-a-raise.jsonrpc.send-message.unknown-skill',
    'JSON-RPC 1.0 SendMessage skill translate, the executor raises ValueError("unknown skill: translate")',
    peer.jsonRpcUrl,
    post(V10, rpc('SendMessage', m10('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a-raise.jsonrpc-v0.3.message-send.unknown-skill',
    'JSON-RPC 0.3 message/send, the executor raises ValueError',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a-raise.rest.message-send.unknown-skill',
    'HTTP+JSON 1.0 /message:send, the executor raises ValueError',
    `${peer.restUrl}/message:send`,
    post(V10, JSON.stringify(m10('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a-raise.jsonrpc.send-streaming-message.unknown-skill',
    'JSON-RPC 1.0 SendStreamingMessage, the executor raises ValueError',
    peer.jsonRpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('translate: hello', 'translate'))),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant B
peer = await startPythonSdkPeer({ variant: 'B', port });
try {
  await exchange(
    'variant-b.jsonrpc.send-message.image',
    'JSON-RPC 1.0 SendMessage skill summarize: artifact with a raw part, mediaType image/png (card: text/plain)',
    peer.jsonRpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'variant-b.jsonrpc-v0.3.message-send.image',
    'JSON-RPC 0.3 message/send skill summarize: a file part (bytes, mimeType image/png)',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'summarize'))),
  );
} finally {
  await peer.stop();
}

const versions = pythonPackageVersions(VENV_PYTHON, [
  'a2a-sdk',
  'starlette',
  'sse-starlette',
  'uvicorn',
  'protobuf',
  'pydantic',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
