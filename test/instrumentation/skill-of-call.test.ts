/**
 * Which skill a call is for, however the caller names it, or does not, against a real
 * @a2a-js/sdk server and client: a client that names no skill (ADK's RemoteA2aAgent, Strands,
 * Microsoft Agent Framework, Agno) to an agent that now answers `image/png` where its card
 * promises only text is variant B judged against the card as a whole; a client naming the skill
 * in `Message.metadata["a2a.skillId"]` (an A2A 1.0 skill-invocation extension, activated by
 * `A2A-Extensions`); a card of one skill; and the bad input (`skillLevel: 3`, thousands of
 * metadata keys, a card stating no output modes). On the code before, every call here but the
 * healthy ones was `no skill id for this task` and no drift: the tests of drift, skill ids and
 * `a2a.request.extensions` failed (checked by running this file against main's src).
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { startSdkPeer, type PeerSkillInput, type SdkPeer } from '../peers/sdk-peer';
import {
  asTask,
  collect,
  createSdkClient,
  sendRequest,
  pollUntilTerminal,
} from '../peers/sdk-client';
import { JSON_RPC_1_0_HEADERS } from '../peers/wire';

const SUMMARIZE: PeerSkillInput = { id: 'summarize-v2', outputModes: ['text/markdown'] };
const TRANSLATE: PeerSkillInput = { id: 'translate-v1', outputModes: ['text/plain'] };
/** The redeploy: the same ids, the first (the one a skill-less call gets) now draws pictures. */
const SUMMARIZE_PNG: PeerSkillInput = { ...SUMMARIZE, outputModes: ['image/png'] };

let h: Harness;
let peer: SdkPeer | undefined;

before(() => {
  h = setupOtel();
});
after(async () => {
  await peer?.close();
  await h.shutdown();
});
beforeEach(async () => {
  await peer?.close();
  peer = undefined;
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
  await h.reset();
});

async function start(o: Parameters<typeof startSdkPeer>[0]): Promise<SdkPeer> {
  peer = await startSdkPeer({ name: 'peer-s', ...o });
  return peer;
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 30));

for (const transport of ['jsonrpc', 'rest'] as const) {
  test(`${transport}: a client naming no skill, an agent now answering image/png where the card lists text only → output_mode_mismatch, scope card`, async () => {
    const p = await start({ skills: [SUMMARIZE, TRANSLATE] });
    const client = await createSdkClient(p, transport);
    p.redeploy([SUMMARIZE_PNG, TRANSLATE]);
    await client.sendMessage(sendRequest(undefined));
    for await (const _ of client.sendMessageStream(sendRequest(undefined))) void _;
    await h.waitForSpans((s) => drifted(s).length >= 2);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      const [span] = drifted(h.spans(name));
      assert.ok(span, `${name} drifted`);
      assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
      assert.equal(span.attributes['a2a.drift.scope'], 'card');
      assert.equal(span.attributes['a2a.skill.id'], undefined);
      assert.equal(span.attributes['a2a.drift.actual_media_type'], 'image/png');
      assert.deepEqual(
        [...(span.attributes['a2a.drift.expected_output_modes'] as string[])].sort(),
        ['text/markdown', 'text/plain'],
      );
    }
    assert.equal(p.executions[0]?.mediaType, 'image/png');
  });
}

test('a poll (GetTask after a send) of a skill-less call is judged against the card as a whole', async () => {
  const p = await start({ skills: [SUMMARIZE, TRANSLATE] });
  const client = await createSdkClient(p, 'jsonrpc');
  p.redeploy([SUMMARIZE_PNG, TRANSLATE]);
  const sent = asTask(
    await client.sendMessage(sendRequest(undefined, { returnImmediately: true })),
  );
  await pollUntilTerminal(client, sent.id);
  await h.waitForSpans((s) => drifted(s).length >= 1);
  const [span] = drifted(h.spans('GetTask'));
  assert.equal(span?.attributes['a2a.drift.scope'], 'card');
  assert.equal(span?.attributes['a2a.drift.kind'], 'output_mode_mismatch');
});

test('healthy skill-less traffic: no drift, the reason on the span', async () => {
  const p = await start({ skills: [SUMMARIZE, TRANSLATE] });
  const client = await createSdkClient(p, 'jsonrpc');
  await client.sendMessage(sendRequest(undefined));
  await collect(client.sendMessageStream(sendRequest(undefined)));
  await settle();
  assert.deepEqual(drifted(h.spans()), []);
  const send = h.spans('SendMessage')[0];
  assert.equal(send.attributes['a2a.skill.id'], undefined);
  assert.match(String(send.attributes['a2a.drift.unjudged_reason']), /no skill id for this task/);
});

test('Message.metadata["a2a.skillId"] with A2A-Extensions: the skill, where it came from, the extensions', async () => {
  const p = await start({ skills: [SUMMARIZE, TRANSLATE] });
  await fetch(p.cardUrl, { headers: { 'A2A-Version': '1.0' } }).then((r) => r.text());
  p.redeploy([SUMMARIZE, { ...TRANSLATE, outputModes: ['image/png'] }]);
  const ext = 'https://example.com/extensions/skill-invocation/v1';
  const res = await fetch(p.jsonRpcUrl, {
    method: 'POST',
    headers: { ...JSON_RPC_1_0_HEADERS, 'A2A-Extensions': `${ext}, urn:other` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: 'm-1',
          role: 'ROLE_USER',
          parts: [{ text: 'bonjour' }],
          metadata: { 'a2a.skillId': 'translate-v1', 'a2a.skillParams': { to: 'en' } },
        },
      },
    }),
  });
  await res.text();
  assert.equal(p.executions[0]?.skillId, 'translate-v1');
  const [span] = drifted(await h.waitForSpans((s) => drifted(s).length >= 1));
  assert.equal(span.attributes['a2a.skill.id'], 'translate-v1');
  assert.equal(span.attributes['a2a.skill.id_source'], 'params.message.metadata["a2a.skillId"]');
  assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(span.attributes['a2a.drift.scope'], undefined);
  assert.deepEqual(span.attributes['a2a.request.extensions'], [ext, 'urn:other']);
});

test('a card of one skill: a call naming none is for that skill', async () => {
  const p = await start({ skills: [SUMMARIZE] });
  const client = await createSdkClient(p, 'jsonrpc');
  p.redeploy([{ ...SUMMARIZE, outputModes: ['text/plain'] }]);
  await client.sendMessage(sendRequest(undefined));
  const [span] = drifted(await h.waitForSpans((s) => drifted(s).length >= 1));
  assert.equal(span.attributes['a2a.skill.id'], 'summarize-v2');
  assert.equal(span.attributes['a2a.skill.id_source'], 'only skill in card');
  assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(span.attributes['a2a.drift.scope'], undefined);
  // a read of a task this process never saw created is no call for that skill: its failure
  // raises no suspicion (the card fetched again would otherwise turn it into a false drift)
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0, refetchCardOnDrift: true });
  h.exporter.reset(); // the card stays held
  await client
    .getTask({ tenant: '', id: 'no-such-task', historyLength: undefined } as never)
    .catch(() => undefined);
  await settle();
  const get = h.spans('GetTask')[0];
  assert.equal(get.attributes['a2a.skill.id'], undefined);
  assert.deepEqual(drifted(h.spans()), []);
});

/** A raw 1.0 SendMessage whose message metadata is `metadata`. */
async function sendWithMetadata(p: SdkPeer, metadata: Record<string, unknown>): Promise<void> {
  const res = await fetch(p.jsonRpcUrl, {
    method: 'POST',
    headers: JSON_RPC_1_0_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'x' }], metadata },
      },
    }),
  });
  assert.equal(res.status, 200);
  await res.text();
}

test('skillLevel: 3 and other keys that merely contain "skill": no skill id, no drift', async () => {
  const p = await start({ skills: [SUMMARIZE, TRANSLATE] });
  await fetch(p.cardUrl, { headers: { 'A2A-Version': '1.0' } }).then((r) => r.text());
  await sendWithMetadata(p, {
    skillLevel: 3,
    skill_level: 'translate-v1',
    skills_count: 'translate-v1',
    skillset: 'summarize-v2',
  });
  // before a key that does name one: that one
  await sendWithMetadata(p, { skillLevel: 'summarize-v2', 'a2a.skillId': 'translate-v1' });
  await settle();
  const [span, second] = h.spans('SendMessage');
  assert.equal(span.attributes['a2a.skill.id'], undefined);
  assert.equal(second.attributes['a2a.skill.id'], 'translate-v1');
  assert.equal(second.attributes['a2a.skill.id_source'], 'params.message.metadata["a2a.skillId"]');
  assert.deepEqual(drifted(h.spans()), []);
});

test('metadata of 5,000 keys: bounded, no skill id from past the keys looked at, no drift', async () => {
  const p = await start({ skills: [SUMMARIZE, TRANSLATE] });
  await fetch(p.cardUrl, { headers: { 'A2A-Version': '1.0' } }).then((r) => r.text());
  // a huge value under a key that names a skill (looked at, ignored), then the keys
  const metadata: Record<string, unknown> = { skill_name: 'y'.repeat(20_000) };
  for (let i = 0; i < 5_000; i++) metadata[`k${i}`] = i % 2 === 0 ? 'x' : { d: [i] };
  metadata['a2a.skillId'] = 'translate-v1';
  await sendWithMetadata(p, metadata);
  // the same keys after the skill's: found
  const first: Record<string, unknown> = { 'a2a.skillId': 'translate-v1' };
  for (let i = 0; i < 5_000; i++) first[`k${i}`] = i;
  await sendWithMetadata(p, first);
  await settle();
  const [span, second] = h.spans('SendMessage');
  assert.equal(span.attributes['a2a.skill.id'], undefined);
  assert.equal(second.attributes['a2a.skill.id'], 'translate-v1');
  assert.deepEqual(drifted(h.spans()), []);
});

test('a card whose skills and defaults state no output mode: no card-wide verdict, the reason', async () => {
  const p = await start({
    defaultOutputModes: [],
    skills: [
      { id: 'a', outputModes: [] },
      { id: 'b', outputModes: [] },
    ],
  });
  const client = await createSdkClient(p, 'jsonrpc');
  p.redeploy([
    { id: 'a', outputModes: ['image/png'] },
    { id: 'b', outputModes: [] },
  ]);
  await client.sendMessage(sendRequest(undefined));
  await settle();
  assert.deepEqual(drifted(h.spans()), []);
  assert.match(
    String(h.spans('SendMessage')[0].attributes['a2a.drift.unjudged_reason']),
    /card states no output modes/,
  );
});
