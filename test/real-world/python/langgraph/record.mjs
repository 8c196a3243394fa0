/**
 * Records the LIVE wire of the LangGraph server's A2A endpoint (`langgraph-api` with the
 * in-memory runtime, peer.py and graphs.py in this folder) into test/fixtures/langgraph-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/langgraph/record.mjs
 *
 * healthy, then variant A (graph studio removed), then variant B (desk answers with an image),
 * on the SAME port (the assistant ids are uuid5 of the graph ids: the same in every run); plain
 * `fetch`, no instrumentation. Per exchange: <name>.json | <name>.sse (the body, byte for byte)
 * and <name>.meta.json (request, status, headers without `date`); index.json: the versions in the
 * venv and the exchanges. `card.json` is desk's card, `studio.card.json` studio's.
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
import { VENV_PYTHON, startLangGraphPeer } from './peer-process.mjs';

const rec = livePeerRecorder('langgraph-live', startLangGraphPeer);
const { exchange, rpc, m10, m03, withPeer } = rec;
const skill = (a) => `${a.assistantId}-main`;
let desk;
let studio;

await withPeer({ variant: 'healthy' }, async (peer) => {
  ({ desk, studio } = peer.assistants);
  await exchange(
    'card',
    "GET /.well-known/agent-card.json?assistant_id=<desk>: a 1.0 card (+ url), version = langgraph-api's, one skill <id>-main, modes application/json + text/plain",
    desk.cardUrl,
  );
  await exchange('studio.card', "the same for the graph studio's assistant", studio.cardUrl);
  await exchange(
    'card.no-assistant-id',
    'GET /.well-known/agent-card.json without assistant_id: 400 {"error": {"code": -32602, ...}} (no jsonrpc, no id)',
    `${peer.origin}/.well-known/agent-card.json`,
  );
  await exchange(
    'jsonrpc-v0.3.message-send.desk',
    '0.3 message/send: a COMPLETED 0.3 task (kind, "completed"), the answer in history and in the artifact "Assistant Response"',
    desk.rpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, skill(desk)))),
  );
  await exchange(
    'jsonrpc.send-message.desk',
    '1.0 SendMessage: a hybrid, {"task": {"kind": "task", ..., "role": "ROLE_AGENT", parts with kind, "state": "TASK_STATE_COMPLETED"}}',
    desk.rpcUrl,
    post(V10, rpc('SendMessage', m10(`summarize: ${FOX}`, skill(desk)))),
  );
  await exchange(
    'jsonrpc.send-streaming-message.desk',
    '1.0 SendStreamingMessage: `event: message` CRLF SSE; task (submitted), status-update working with the answer as its message, artifact-update, status-update completed (final)',
    desk.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10(`summarize: ${FOX}`, skill(desk)))),
  );
  await exchange(
    'jsonrpc-v0.3.message-stream.studio',
    '0.3 message/stream to studio',
    studio.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('hello', skill(studio)))),
  );
  await exchange(
    'jsonrpc-v0.3.tasks-get.not-found',
    '0.3 tasks/get of an unknown id: -32001 "Task not found: <id>"',
    desk.rpcUrl,
    post(V03, rpc('tasks/get', { id: 'no-such-task' })),
  );
});

await withPeer({ variant: 'A' }, async () => {
  await exchange(
    'variant-a.studio.card',
    "studio's card URL after the A redeploy (graph removed): 400 -32602 \"Assistant '<id>' not found\"",
    studio.cardUrl,
  );
  await exchange(
    'variant-a.jsonrpc-v0.3.message-send.studio',
    "variant A, 0.3 message/send to studio's endpoint: -32602 \"Assistant '<id>' not found\" (HTTP 200)",
    studio.rpcUrl,
    post(V03, rpc('message/send', m03('hello', skill(studio)))),
  );
  await exchange(
    'variant-a.jsonrpc.send-streaming-message.studio',
    'variant A, 1.0 SendStreamingMessage to studio: the same error as one SSE event',
    studio.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10('hello', skill(studio)))),
  );
});

await withPeer({ variant: 'B' }, async () => {
  await exchange('variant-b.card', "desk's card after the B redeploy: unchanged", desk.cardUrl);
  await exchange(
    'variant-b.jsonrpc-v0.3.message-send.desk',
    'variant B, 0.3 message/send: the artifact is a file part {bytes, mimeType image/png} (an image content block) where the card says application/json, text/plain',
    desk.rpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, skill(desk)))),
  );
  await exchange(
    'variant-b.jsonrpc.send-streaming-message.desk',
    'variant B, 1.0 SendStreamingMessage',
    desk.rpcUrl,
    post(sse(V10), rpc('SendStreamingMessage', m10(`summarize: ${FOX}`, skill(desk)))),
  );
});

const versions = pythonPackageVersions(VENV_PYTHON, [
  'langgraph-api',
  'langgraph-runtime-inmem',
  'langgraph',
  'langchain-core',
  'starlette',
  'uvicorn',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
