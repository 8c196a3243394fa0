/**
 * Agno AgentOS (`agno[os,a2a]` 3.1.10, a2a-sdk 0.3.26; python/agno/requirements.lock) serving an
 * Agent `desk` (tools summarize, translate; a scripted `Model`) with `a2a_interface=True`
 * (python/agno/peer.py; fixtures test/fixtures/agno-live/). Card at
 * `/a2a/agents/desk/.well-known/agent-card.json`, 0.3.0, `url` = the STREAMING route
 * `…/v1/message:stream`; `…/v1/message:send` is on no card. ONE skill, the agent (`desk`,
 * outputModes ["application/json"]), not its tools. Variant A (translate removed): the card is
 * unchanged, the task COMPLETES with "Error: The requested tool does not exist or is not
 * available." (no name). Variant B: an image by URL, a FILE part where the skill says JSON.
 * The card's `url` names one operation route, so it speaks for its sibling routes under the same
 * prefix (`…/v1/message:send`): both routes carry the fingerprint and both are judged. Variant A
 * cannot be caught: the answer names no tool and the card (one skill, the agent) never changes.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setupOtel, type Harness } from '../helpers/otel';
import { parseAgnoSse, startAgnoPeer, venvInstalled } from './python/agno/peer-process.mjs';
import type { AgnoPeer } from './python/agno/peer-process.mjs';
import { FOX, callVerdict, getCard, messages, rpc, sdkClient, spanChecks, type Json } from './lib';
import { collect, sendRequest } from '../peers/sdk-client';

const skip = venvInstalled()
  ? false
  : 'test/real-world/python/agno/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
before(() => {
  h = setupOtel();
});
after(async () => {
  await h.shutdown();
});

const { v03Params } = messages('py-agno-');
const { only, describeSpans, spansSettled } = spanChecks(() => h);
const NOT_AVAILABLE = 'Error: The requested tool does not exist or is not available.';
// The verdicts. Both routes are tied to the card (its url names message:stream; message:send is
// its sibling). The SDK client's 400 on message:send (it posts message/send to the card's
// streaming url) is a failure for a skill the card lists: a suspicion the unchanged card refutes.
const SEND = { status: 0, fingerprint: true };
const STREAM = { status: 0, fingerprint: true };
const SDK_SEND_400 = { refetch: 'unchanged', status: 2, fingerprint: true };
const MISMATCH = 'output_mode_mismatch';
const IMAGE_0 = { name: 'image_0', description: 'Generated image 0' };
const B_SEND = { kind: MISMATCH, evidence: 'protocol', status: 2, fingerprint: true };
const B_STREAM = { kind: MISMATCH, evidence: 'protocol', status: 2, fingerprint: true };
/** The send's and the stream's verdicts. */
function verdictsAre(send: Json, stream: Json): void {
  // by name: a span held while the card is fetched again ends after the next one
  const got = h
    .spans()
    .map((s) => ({ [s.name]: callVerdict(s) }))
    .sort((a, b) => Object.keys(a)[0].localeCompare(Object.keys(b)[0]));
  assert.deepEqual(got, [{ SendMessage: send }, { SendStreamingMessage: stream }], describeSpans());
}

/** POST a 0.3 message/stream to `url`: the SSE events as [event name, parsed data]. */
async function stream(url: string, text: string): Promise<Array<[string, Json]>> {
  const body = { jsonrpc: '2.0', id: 9, method: 'message/stream', params: v03Params(text, 'desk') };
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  return parseAgnoSse(await res.text()) as Array<[string, Json]>;
}
const texts = (m: Json): string[] => m.parts.map((p: Json) => p.text ?? p.kind);
/** The SSE event names, short: S TaskStatusUpdateEvent, M Message, T Task. */
const names = (events: Array<[string, Json]>): string =>
  events.map(([e]) => ({ TaskStatusUpdateEvent: 'S', Message: 'M', Task: 'T' })[e] ?? e).join(' ');

describe('agno AgentOS (Python): healthy, A (no translate), B (an image)', { skip }, () => {
  let peer: AgnoPeer;
  let card: Json;
  before(async () => {
    peer = await startAgnoPeer({ variant: 'healthy' });
  });
  after(async () => {
    await peer?.stop();
  });
  beforeEach(() => {
    h.exporter.reset();
  });
  async function redeploy(variant: 'A' | 'B'): Promise<void> {
    const port = peer.port;
    await peer.stop();
    peer = await startAgnoPeer({ variant, port });
  }

  test('healthy card: url = message:stream, one skill "desk", protocol 0.3.0, none at the origin', async () => {
    ({ card } = await getCard(peer.cardUrl));
    assert.equal(card.url, peer.streamUrl);
    const head = [card.protocolVersion, card.version, card.preferredTransport, card.skills.length];
    assert.deepEqual(head, ['0.3.0', '1.0.0', 'JSONRPC', 1]);
    assert.deepEqual([card.defaultInputModes, card.defaultOutputModes], [['text'], ['text']]);
    const [sk] = card.skills;
    assert.deepEqual([sk.id, sk.outputModes, sk.tags], ['desk', ['application/json'], ['agno']]);
    assert.equal((await fetch(`${peer.origin}/.well-known/agent-card.json`)).status, 404);
    await spansSettled(2);
    assert.equal(h.spans('GetAgentCard')[0].attributes['a2a.agent_card.skill_count'], 1);
  });

  test('healthy: message:send answers JSON (COMPLETED, the text in history, no artifacts); message:stream answers SSE', async () => {
    const t = await rpc(peer.sendUrl, 'message/send', v03Params(`summarize: ${FOX}`, 'desk'));
    assert.equal(t.status.state, 'completed');
    assert.deepEqual(texts(t.history[0]), ['Summary: The quick brown fox jumps over.']);
    assert.equal(t.artifacts, undefined);
    const events = await stream(peer.streamUrl, 'translate: hello');
    assert.equal(names(events), 'S S S M S T');
    assert.equal(events[1][1].metadata.tool_name, 'translate', 'the tool called is named');
    assert.deepEqual(texts(events[3][1]), ['FR: hello']);
    await spansSettled(2);
    verdictsAre(SEND, STREAM);
  });

  test('SDK client from the card (0.3 mode): sendMessage posts message/send to the card url → HTTP 400; its stream works', async () => {
    const client = await sdkClient({ card }, { legacy: true });
    const req = sendRequest('desk', { text: 'translate: hello' });
    const refused = /Status: 400.*Input should be 'message\/stream'/s; // pydantic, on message/send
    await assert.rejects(client.sendMessage(req), refused);
    const events = await collect(client.sendMessageStream(req));
    const cases = 'statusUpdate statusUpdate statusUpdate message statusUpdate task';
    assert.equal(events.map((e) => e.payload?.$case).join(' '), cases);
    await spansSettled(2);
    assert.equal(only('SendMessage').attributes['http.response.status_code'], 400);
    verdictsAre(SDK_SEND_400, STREAM);
  });

  test('variant A (same port, the card unchanged): send and stream COMPLETE with a text naming no tool', async () => {
    await redeploy('A');
    const t = await rpc(peer.sendUrl, 'message/send', v03Params('translate: hello', 'desk'));
    assert.equal(t.status.state, 'completed');
    assert.deepEqual(texts(t.history[0]), [NOT_AVAILABLE]);
    const events = await stream(peer.streamUrl, 'translate: hello');
    assert.equal(names(events), 'S M S T');
    assert.deepEqual(texts(events[1][1]), [NOT_AVAILABLE]);
    assert.equal(events[2][1].status.state, 'completed');
    await spansSettled(2);
    verdictsAre(SEND, STREAM);
    assert.deepEqual((await getCard(peer.cardUrl)).card.skills, card.skills);
  });

  test('variant B: an image artifact (FILE part, image/jpeg on send, image/* on stream) where the skill says application/json', async () => {
    await redeploy('B');
    const t = await rpc(peer.sendUrl, 'message/send', v03Params(`summarize: ${FOX}`, 'desk'));
    assert.equal(t.status.state, 'completed');
    const file = { mimeType: 'image/jpeg', uri: 'https://media.example.invalid/summary.png' };
    const parts = [{ kind: 'file', file }];
    assert.deepEqual(t.artifacts, [{ artifactId: t.artifacts[0].artifactId, ...IMAGE_0, parts }]);
    const events = await stream(peer.streamUrl, `summarize: ${FOX}`);
    const [art] = events[events.length - 1][1].artifacts;
    assert.deepEqual([art.name, art.parts[0].file.mimeType], ['image-0', 'image/*']);
    await spansSettled(2);
    verdictsAre(B_SEND, B_STREAM);
  });
});
