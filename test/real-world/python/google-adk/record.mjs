/**
 * Records the LIVE wire of Google ADK's Python A2A server (`to_a2a`, peer.py in this folder)
 * into test/fixtures/google-adk-python-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/google-adk/record.mjs
 *
 * healthy, then variant A on the SAME port; plain `fetch`, no instrumentation. Per exchange:
 * <name>.json | <name>.sse (the body, byte for byte) and <name>.meta.json (request, status,
 * headers without `date`); index.json: the versions in the venv and the exchanges.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VENV_PYTHON, startPythonAdkPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(here, '../../../fixtures/google-adk-python-live');
mkdirSync(OUT, { recursive: true });
for (const f of readdirSync(OUT)) if (f !== 'README.md') rmSync(path.join(OUT, f));

const FOX = 'The quick brown fox jumps over the lazy dog';
const V10 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
const V03 = { 'content-type': 'application/json' };
const index = [];
let rpcId = 0;
let msgSeq = 0;

async function exchange(name, note, url, init = {}) {
  const method = init.method ?? 'GET';
  const headers = init.headers ?? {};
  const res = await fetch(url, { method, headers, body: init.body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const ct = res.headers.get('content-type') ?? '';
  const ext = ct.includes('text/event-stream') ? 'sse' : ct.includes('json') ? 'json' : 'txt';
  writeFileSync(path.join(OUT, `${name}.${ext}`), bytes);
  const u = new URL(url);
  const headersOut = Object.fromEntries(res.headers.entries());
  delete headersOut.date;
  const body = typeof init.body === 'string' ? JSON.parse(init.body) : null;
  const meta = {
    note,
    request: { method, path: u.pathname, headers, body },
    response: { status: res.status, headers: headersOut, bodyFile: `${name}.${ext}` },
  };
  writeFileSync(path.join(OUT, `${name}.meta.json`), JSON.stringify(meta, null, 2) + '\n');
  index.push({ name, file: `${name}.${ext}`, note, status: res.status, method, path: u.pathname });
}
const rpc = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params });
const m10 = (text, skillId) => ({
  message: { messageId: `rec-${++msgSeq}`, role: 'ROLE_USER', parts: [{ text }] },
  metadata: { skillId },
});
const m03 = (text, skillId) => ({
  message: {
    kind: 'message',
    role: 'user',
    messageId: `rec-${++msgSeq}`,
    parts: [{ kind: 'text', text }],
    metadata: { skillId },
  },
});
const post = (headers, body) => ({ method: 'POST', headers, body });
const sse = (h) => ({ ...h, accept: 'text/event-stream' });

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

const versions = JSON.parse(
  execFileSync(VENV_PYTHON, [
    '-c',
    'import json, importlib.metadata as m, sys; print(json.dumps({"python": sys.version.split()[0], **{p: m.version(p) for p in ["google-adk", "google-genai", "a2a-sdk", "starlette", "sse-starlette", "uvicorn"]}}))',
  ]).toString(),
);
writeFileSync(
  path.join(OUT, 'index.json'),
  JSON.stringify({ recordedWith: versions, exchanges: index }, null, 2) + '\n',
);
console.log(`recorded ${index.length} exchanges into ${OUT}`, versions);
