/**
 * The GenAI conventions' invoke agent client span: SendMessage and SendStreamingMessage carry
 * `gen_ai.operation.name = invoke_agent` (the key GenAI-aware backends group agent calls by);
 * the other operations do not. Span names stay the A2A operation's by default; only
 * `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental` names them
 * `invoke_agent {gen_ai.agent.name}` (`invoke_agent` when the card is not known), as the
 * conventions ask of instrumentations that emitted older names. Real @a2a-js/sdk server and
 * client.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setupOtel, type Harness } from '../helpers/otel';
import { startSdkPeer, type SdkPeer } from '../peers/sdk-peer';
import { asTask, collect, createSdkClient, sendRequest } from '../peers/sdk-client';
import { JSON_RPC_1_0_HEADERS, jsonRpcSendBody } from '../peers/wire';

let h: Harness;
let peer: SdkPeer;
const savedOptIn = process.env.OTEL_SEMCONV_STABILITY_OPT_IN;

before(async () => {
  delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
  h = setupOtel();
  peer = await startSdkPeer({ name: 'Desk', streaming: true, behaviour: { settleDelayMs: 0 } });
});

after(async () => {
  if (savedOptIn === undefined) delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
  else process.env.OTEL_SEMCONV_STABILITY_OPT_IN = savedOptIn;
  await peer.close();
  await h.shutdown();
});

/** Re-reads the environment, as a new instrumentation would. */
function optIn(value: string | undefined): void {
  if (value === undefined) delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
  else process.env.OTEL_SEMCONV_STABILITY_OPT_IN = value;
  h.instrumentation.setConfig({ driftCallbackDebounceMs: 0 });
}

async function sendStreamAndGet(): Promise<void> {
  const client = await createSdkClient(peer, 'jsonrpc');
  const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
  await collect(client.sendMessageStream(sendRequest('summarize-v2')));
  await client.getTask({ tenant: '', id: task.id, historyLength: undefined } as never);
}

test('default: SendMessage and SendStreamingMessage say gen_ai.operation.name=invoke_agent; names and other operations unchanged', async () => {
  optIn(undefined);
  await h.reset();
  await sendStreamAndGet();
  const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
  const byName = (n: string) => spans.find((s) => s.name === n);
  for (const n of ['SendMessage', 'SendStreamingMessage']) {
    const s = byName(n);
    assert.ok(s, `${n} span named as before`);
    assert.equal(s.attributes['gen_ai.operation.name'], 'invoke_agent', n);
    assert.equal(s.attributes['a2a.method.name'], n);
    assert.equal(s.attributes['gen_ai.agent.name'], 'Desk');
  }
  assert.equal(byName('GetTask')?.attributes['gen_ai.operation.name'], undefined);
  assert.equal(byName('GetAgentCard')?.attributes['gen_ai.operation.name'], undefined);
  assert.ok(!spans.some((s) => s.name.startsWith('invoke_agent')));
});

test('OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental: invoke_agent {gen_ai.agent.name}; a2a.method.name keeps the operation', async () => {
  optIn('http, GEN_AI_LATEST_EXPERIMENTAL');
  try {
    await h.reset();
    await sendStreamAndGet();
    const spans = await h.waitForSpans((s) => s.some((x) => x.name === 'GetTask'));
    const invoked = spans.filter((s) => s.name === 'invoke_agent Desk');
    assert.deepEqual(invoked.map((s) => s.attributes['a2a.method.name']).sort(), [
      'SendMessage',
      'SendStreamingMessage',
    ]);
    for (const s of invoked) assert.equal(s.attributes['gen_ai.operation.name'], 'invoke_agent');
    assert.ok(
      spans.some((s) => s.name === 'GetTask'),
      'other operations keep their names',
    );
    assert.ok(spans.some((s) => s.name === 'GetAgentCard'));
  } finally {
    optIn(undefined);
  }
});

test('opt-in, no card known for the agent: invoke_agent alone', async () => {
  optIn('gen_ai_latest_experimental');
  try {
    await h.reset(); // forgets the cards
    await fetch(peer.jsonRpcUrl, {
      method: 'POST',
      headers: JSON_RPC_1_0_HEADERS,
      body: jsonRpcSendBody('summarize-v2', { messageId: 'm-1' }),
    }).then((r) => r.json());
    const [span] = await h.waitForSpans((s) => s.length > 0);
    assert.equal(span?.name, 'invoke_agent');
    assert.equal(span?.attributes['a2a.method.name'], 'SendMessage');
  } finally {
    optIn(undefined);
  }
});
