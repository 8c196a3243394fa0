/**
 * Records the LIVE wire of FastA2A (`fasta2a` 2.1.1 + pydantic-ai bridge, peer.py in this folder)
 * into test/fixtures/fasta2a-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/fasta2a/record.mjs
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
import { VENV_PYTHON, startFastA2APeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rec = createRecorder({
  out: path.resolve(here, '../../../fixtures/fasta2a-live'),
  keep: ['README.md'],
  dropResponseHeaders: ['date'],
  messageIdPrefix: 'rec-',
});
const { exchange, rpc, m10, m03 } = rec;

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

peer = await startFastA2APeer({ variant: 'B', port });
try {
  await exchange(
    'variant-b.card',
    'card after the B redeploy: unchanged (the same skills, summarize text/plain)',
    peer.cardUrl,
  );
  await exchange(
    'variant-b.jsonrpc.send-streaming-message.summarize',
    'variant B (the agent now has a structured output_type), 1.0 SendStreamingMessage skill summarize: the artifact is a DATA part {"result": {"summary": …}} with its json_schema, where the skill says text/plain',
    peer.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10(`summarize: ${FOX}`, 'summarize'))),
  );
} finally {
  await peer.stop();
}

const versions = pythonPackageVersions(VENV_PYTHON, [
  'fasta2a',
  'pydantic-ai-slim',
  'pydantic',
  'starlette',
  'uvicorn',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
