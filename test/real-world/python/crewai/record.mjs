/**
 * Records the LIVE wire of a crewAI agent (`crewai[a2a]` 1.15.30, peer.py in this folder: crewAI's
 * own A2A task execution and `to_agent_card` on the reference a2a-sdk 0.3.26 Starlette app) into
 * test/fixtures/crewai-live/.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh   # the venv
 *   node test/real-world/python/crewai/record.mjs
 *
 * healthy (ReAct, then function calling), then variant A in both modes on the SAME port; plain
 * `fetch`, no instrumentation. The requests name their skill where crewAI's own client puts it,
 * `params.message.metadata.skill_id` (crewai.a2a.utils.delegation; crewAI's server ignores it).
 * Per exchange: <name>.json | .sse | .txt (the body, byte for byte) and <name>.meta.json;
 * index.json: the versions in the venv and the exchanges.
 */
import { FOX, V03, livePeerRecorder, post, pythonPackageVersions, sse } from '../../record-lib.mjs';
import { VENV_PYTHON, startCrewAIPeer } from './peer-process.mjs';

const rec = livePeerRecorder('crewai-live', startCrewAIPeer);
const { exchange, rpc, nextMessageId, withPeer } = rec;

/** 0.3 `MessageSendParams`, the skill in `message.metadata.skill_id` (crewAI's convention). */
const m03 = (text, skill_id) => ({
  message: {
    kind: 'message',
    role: 'user',
    messageId: nextMessageId(),
    parts: [{ kind: 'text', text }],
    metadata: { skill_id },
  },
});

await withPeer({ variant: 'healthy', mode: 'react' }, async (peer) => {
  await exchange(
    'card',
    'GET /.well-known/agent-card.json: agent.to_agent_card(url): 0.3.0, modes text/plain + application/json, skills = the tools (id = name, tags [name], no modes)',
    peer.cardUrl,
  );
  await exchange(
    'react.jsonrpc-v0.3.message-send.summarize',
    '0.3 message/send skill summarize, ReAct: the model calls summarize; ONE completed Task, artifact result_<task id> = the tool result, the same text as the last history message',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'react.jsonrpc-v0.3.message-stream.translate',
    '0.3 message/stream skill translate, ReAct: one SSE event, the completed Task (crewAI enqueues no intermediate events)',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc-v0.3.tasks-get.not-found',
    '0.3 tasks/get of an unknown id',
    peer.rpcUrl,
    post(V03, rpc('tasks/get', { id: 'no-such-task' })),
  );
});

await withPeer({ variant: 'healthy', mode: 'function-calling' }, async (peer) => {
  await exchange(
    'function-calling.jsonrpc-v0.3.message-send.translate',
    '0.3 message/send skill translate, native function calling: completed, artifact text "FR: hello"',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
});

await withPeer({ variant: 'A', mode: 'react' }, async (peer) => {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: the translate tool removed, so the skill too; version 1.0.0',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.react.jsonrpc-v0.3.message-send.translate',
    "variant A, ReAct: COMPLETED; artifact and last history message = crewAI's ToolUsage error \"I encountered an error: Action 'translate' don't exist, these are the only available Actions:\\n<summarize's description>\" (repeated by the model)",
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a.react.jsonrpc-v0.3.message-stream.translate',
    'variant A, ReAct, message/stream: one SSE event, the same completed Task',
    peer.rpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
});

await withPeer({ variant: 'A', mode: 'function-calling' }, async (peer) => {
  await exchange(
    'variant-a.function-calling.jsonrpc-v0.3.message-send.translate',
    'variant A, native function calling: COMPLETED; artifact and last history message = "Tool not found" (the tool message crewAI\'s AgentExecutor sends back, repeated by the model)',
    peer.rpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
});

const versions = pythonPackageVersions(VENV_PYTHON, ['crewai', 'a2a-sdk', 'starlette', 'uvicorn']);
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
