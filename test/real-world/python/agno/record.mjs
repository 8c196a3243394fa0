/**
 * Records the LIVE wire of Agno AgentOS (`agno[os,a2a]` 3.1.10, peer.py in this folder) into
 * test/fixtures/agno-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/agno/record.mjs
 *
 * healthy, then variant A, then variant B on the SAME port; plain `fetch`, no instrumentation.
 * Both of AgentOS' routes per variant: `message:send` (JSON) and `message:stream` (the card's
 * `url`, SSE with `event:` lines). Per exchange: <name>.json | <name>.sse (the body, byte for
 * byte) and <name>.meta.json (request, status, headers without `date`); index.json: the versions
 * in the venv and the exchanges.
 */
import { FOX, V03, livePeerRecorder, post, pythonPackageVersions, sse } from '../../record-lib.mjs';
import { VENV_PYTHON, startAgnoPeer } from './peer-process.mjs';

const rec = livePeerRecorder('agno-live', startAgnoPeer);
const { exchange, rpc, m03, withPeer } = rec;

await withPeer({ variant: 'healthy' }, async (peer) => {
  await exchange(
    'card',
    'GET /a2a/agents/desk/.well-known/agent-card.json: protocolVersion 0.3.0, url = the message:stream route, ONE skill id "desk" (the agent, not its tools) with outputModes ["application/json"], defaults ["text"]',
    peer.cardUrl,
  );
  await exchange(
    'card.origin',
    'GET /.well-known/agent-card.json at the origin: AgentOS serves no card there',
    `${peer.origin}/.well-known/agent-card.json`,
  );
  await exchange(
    'message-send.summarize',
    'POST message:send, 0.3 message/send (skill desk, the only one on the card) asking to summarize: a COMPLETED task, the answer as an agent message in history, no artifacts',
    peer.sendUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'desk'))),
  );
  await exchange(
    'message-stream.translate',
    'POST message:stream, 0.3 message/stream (skill desk) asking to translate: status-update working, two working updates whose metadata names the tool (agno_event_type tool_call_started/completed, tool_name), a Message with the text, status-update completed (final), then the whole Task',
    peer.streamUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'desk'))),
  );
});

await withPeer({ variant: 'A' }, async (peer) => {
  await exchange(
    'variant-a.card',
    'card after the A redeploy (translate tool removed): unchanged, its only skill is the agent',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.message-send.translate',
    'variant A, message:send (skill desk) asking to translate: COMPLETED, text "Error: The requested tool does not exist or is not available." (no tool name)',
    peer.sendUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'desk'))),
  );
  await exchange(
    'variant-a.message-stream.translate',
    'variant A, message:stream (skill desk) asking to translate: no tool-call updates, the same text as a Message, COMPLETED',
    peer.streamUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'desk'))),
  );
});

await withPeer({ variant: 'B' }, async (peer) => {
  await exchange(
    'variant-b.message-send.summarize',
    'variant B (summarize returns an image by URL), message:send: COMPLETED, artifact image_0 with a FILE part mimeType "image/jpeg" (hard-coded), where the card says application/json / text',
    peer.sendUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'desk'))),
  );
  await exchange(
    'variant-b.message-stream.summarize',
    'variant B, message:stream: the final Task carries artifact image-0 with a FILE part mimeType "image/*"',
    peer.streamUrl,
    post(sse(V03), rpc('message/stream', m03(`summarize: ${FOX}`, 'desk'))),
  );
});

const versions = pythonPackageVersions(VENV_PYTHON, [
  'agno',
  'a2a-sdk',
  'fastapi',
  'starlette',
  'uvicorn',
]);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
