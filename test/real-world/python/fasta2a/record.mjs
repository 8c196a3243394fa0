/**
 * Records the LIVE wire of FastA2A (`fasta2a` 2.1.1 + pydantic-ai bridge, peer.py in this folder)
 * into test/fixtures/fasta2a-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/fasta2a/record.mjs
 *
 * healthy, then variant A on the SAME port; plain `fetch`, no instrumentation. Per exchange:
 * <name>.json | <name>.sse (the body, byte for byte) and <name>.meta.json (request, status,
 * headers without `date`); index.json: the versions in the venv and the exchanges.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VENV_PYTHON, startFastA2APeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(here, '../../../fixtures/fasta2a-live');
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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let peer = await startFastA2APeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange(
    'card',
    'GET /.well-known/agent-card.json: a 1.0 card; skills text/plain, defaults forced to application/json',
    peer.cardUrl,
  );
  await exchange(
    'card.agent-json',
    'GET /.well-known/agent.json (the path of fasta2a <= 0.5)',
    `${peer.origin}/.well-known/agent.json`,
  );
  await exchange(
    'jsonrpc-v0.3.message-send.summarize',
    '0.3 message/send skill summarize: answered at once with the SUBMITTED task, as {"result":{"task":{...}}} with the 0.3 state "submitted" and no kind',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'summarize'))),
  );
  await sleep(300);
  const send10 = await fetch(
    peer.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
  const id10 = (await send10.json()).result.task.id;
  await sleep(300);
  await exchange(
    'jsonrpc.get-task.completed',
    '1.0 GetTask of a SendMessage task after it finished: TASK_STATE_COMPLETED, the model text as an agent message in history and as artifact "result"',
    peer.rpcUrl,
    post(V10, rpc('GetTask', { id: id10 })),
  );
  await exchange(
    'jsonrpc.send-streaming-message.translate',
    '1.0 SendStreamingMessage skill translate: task (SUBMITTED), statusUpdate WORKING, artifactUpdate (lastChunk), statusUpdate COMPLETED; compact JSON, LF framing',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.message-stream.translate',
    '0.3 message/stream skill translate',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.tasks-get.not-found',
    '0.3 tasks/get of an unknown id',
    peer.rpcUrl,
    post(V03, rpc('tasks/get', { id: 'no-such-task' })),
  );
} finally {
  await peer.stop();
}

peer = await startFastA2APeer({ variant: 'A', port });
try {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: translate gone, version 1.0.0',
    peer.cardUrl,
  );
  const r = await fetch(
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  const idA = (await r.json()).result.task.id;
  await sleep(300);
  await exchange(
    'variant-a.jsonrpc-v0.3.tasks-get.translate',
    "variant A, tasks/get of a message/send for translate: COMPLETED, text \"Unknown tool name: 'translate'. Available tools: 'summarize'\"",
    peer.rpcUrl,
    post(V03, rpc('tasks/get', { id: idA })),
  );
  await exchange(
    'variant-a.jsonrpc.send-streaming-message.translate',
    'variant A, 1.0 SendStreamingMessage skill translate: COMPLETED with the same text',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('translate: hello', 'translate'))),
  );
} finally {
  await peer.stop();
}

const versions = JSON.parse(
  execFileSync(VENV_PYTHON, [
    '-c',
    'import json, importlib.metadata as m, sys; print(json.dumps({"python": sys.version.split()[0], **{p: m.version(p) for p in ["fasta2a", "pydantic-ai-slim", "pydantic", "starlette", "uvicorn"]}}))',
  ]).toString(),
);
writeFileSync(
  path.join(OUT, 'index.json'),
  JSON.stringify({ recordedWith: versions, exchanges: index }, null, 2) + '\n',
);
console.log(`recorded ${index.length} exchanges into ${OUT}`, versions);
