/**
 * Records the LIVE wire of python-a2a (`python-a2a` 0.5.9 from its hashed lock, peer.py in this
 * folder: an @agent A2AServer on the library's own Flask app) into test/fixtures/python-a2a-live/.
 * It replaces nothing in test/fixtures/python-a2a/ (recorded in an earlier session from the
 * sources with stubbed imports); the README here says where the two differ.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/python-a2a/record.mjs
 *
 * healthy, then variants A and B on the SAME port; plain `fetch`, no instrumentation. The
 * requests name their skill in `params.message.metadata.skillId` (python-a2a ignores it; the
 * core replay test reads it). Per exchange: <name>.json | .sse | .txt (the body, byte for byte)
 * and <name>.meta.json; index.json: the versions in the venv and the exchanges.
 */
import { FOX, V03, livePeerRecorder, post, pythonPackageVersions, sse } from '../../record-lib.mjs';
import { VENV_PYTHON, startPythonA2aPeer } from './peer-process.mjs';

const rec = livePeerRecorder('python-a2a-live', startPythonA2aPeer);
const { exchange, nextRpcId, withPeer } = rec;

/** A 0.1 tasks/send | tasks/sendSubscribe body, ids rec-rpc-N / rec-task-N. */
function task01(method, text, skillId) {
  const n = nextRpcId();
  return JSON.stringify({
    jsonrpc: '2.0',
    id: `rec-rpc-${n}`,
    method,
    params: {
      id: `rec-task-${n}`,
      sessionId: 'rec-session',
      message: { role: 'user', parts: [{ type: 'text', text }], metadata: { skillId } },
    },
  });
}

await withPeer({ variant: 'healthy' }, async (peer) => {
  await exchange(
    'card',
    'GET /.well-known/agent.json: the card the @agent decorator builds from the @skill methods (Flask jsonify, keys sorted; capabilities.streaming false)',
    peer.cardUrl,
  );
  await exchange('card.agent-json', 'GET /agent.json: the same card', `${peer.origin}/agent.json`);
  await exchange(
    'agent-card-path.html',
    'GET /.well-known/agent-card.json: python-a2a’s HTML agent page, not a card',
    peer.agentCardJsonUrl,
  );
  await exchange(
    'tasks-send.summarize',
    '0.1 tasks/send summarize: a bare Task echoing the request message, COMPLETED, a text artifact',
    peer.sendUrl,
    post(V03, task01('tasks/send', `summarize: ${FOX}`, 'summarize')),
  );
  await exchange(
    'tasks-sendSubscribe.translate',
    '0.1 tasks/sendSubscribe translate: SSE event: update (submitted) / event: complete (completed + artifact), bare Tasks',
    peer.streamUrl,
    post(sse(V03), task01('tasks/sendSubscribe', 'translate: hello', 'translate')),
  );
  await exchange(
    'tasks-get.not-found',
    '0.1 tasks/get of an unknown id: HTTP 404, JSON-RPC -32000 "Task not found"',
    peer.getUrl,
    post(
      V03,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'rec-get',
        method: 'tasks/get',
        params: { id: 'no-such' },
      }),
    ),
  );
  await exchange(
    'root-post.message-send',
    '0.3 message/send POSTed to the card url (/): HTTP 500, not JSON-RPC',
    `${peer.origin}/`,
    post(
      V03,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'rec-root',
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'rec-m',
            role: 'user',
            parts: [{ kind: 'text', text: 'summarize: hi' }],
            metadata: { skillId: 'summarize' },
          },
        },
      }),
    ),
  );
});

await withPeer({ variant: 'A' }, async (peer) => {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: translate gone, version 1.0.0',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.tasks-send.translate',
    'variant A, tasks/send translate: COMPLETED with a data part {"error": "Error in message handler: Unknown skill: translate"} (python-a2a’s wrapping of the handler’s ValueError)',
    peer.sendUrl,
    post(V03, task01('tasks/send', 'translate: hello', 'translate')),
  );
  await exchange(
    'variant-a.tasks-sendSubscribe.translate',
    'variant A, tasks/sendSubscribe translate: the complete event carries the same data part',
    peer.streamUrl,
    post(sse(V03), task01('tasks/sendSubscribe', 'translate: hello', 'translate')),
  );
});

await withPeer({ variant: 'B' }, async (peer) => {
  await exchange(
    'variant-b.tasks-send.summarize',
    'variant B, tasks/send summarize: a file part image/png; the card is the healthy one',
    peer.sendUrl,
    post(V03, task01('tasks/send', `summarize: ${FOX}`, 'summarize')),
  );
  await exchange(
    'variant-b.tasks-sendSubscribe.summarize',
    'variant B, tasks/sendSubscribe summarize: the complete event with the image/png file part',
    peer.streamUrl,
    post(sse(V03), task01('tasks/sendSubscribe', `summarize: ${FOX}`, 'summarize')),
  );
});

const versions = pythonPackageVersions(VENV_PYTHON, ['python-a2a', 'flask', 'werkzeug']);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
