/**
 * Bad input from a live Python server: a Starlette 1.10 app on uvicorn
 * 0.55 (test/real-world/python/bad-input/peer.py, run with the FastA2A venv's Python) that
 *   - answers JSON-RPC with a 500 and the real Python traceback page (Starlette debug=True:
 *     HTML when the request accepts text/html, text/plain otherwise),
 *   - cuts an SSE stream inside a `data:` line (the connection dropped; and a clean end there),
 *   - serves cards with Python `None`s where JS expects arrays (`defaultOutputModes`, a skill's
 *     `tags` and `outputModes`; `skills` itself).
 * Each through raw fetch and the `@a2a-js/sdk` 1.3 client (0.3 mode): no exception from the
 * instrumentation (nothing at diag error level, no unhandled rejection), no false drift, the span
 * says what could not be judged, and the app's bytes / outcome are the same with the
 * instrumentation disabled.
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh      # once: the FastA2A venv
 *   node --import tsx --test test/real-world/python-bad-input.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagLogLevel, SpanStatusCode, diag } from '@opentelemetry/api';
import { setupOtel, type Harness } from '../helpers/otel';
import { collect, sendRequest } from '../peers/sdk-client';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import {
  startBadInputPeer,
  venvInstalled,
  type BadInputAgent,
  type BadInputPeer,
} from './python/bad-input/peer-process.mjs';
import { FOX, sameWithAndWithout, sdkClient, spanChecks, type Json } from './lib';

const skip = venvInstalled()
  ? false
  : 'test/real-world/python/fasta2a/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh';

let h: Harness;
let peer: BadInputPeer;
const diagErrors: string[] = [];
const rejections: unknown[] = [];
const onRejection = (e: unknown) => rejections.push(e);
before(async () => {
  h = setupOtel();
  const record =
    (level: string) =>
    (...a: unknown[]) =>
      diagErrors.push(`${level}: ${a.map(String).join(' ')}`);
  diag.setLogger(
    {
      error: record('error'),
      warn: () => {},
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true },
  );
  process.on('unhandledRejection', onRejection);
  if (!skip) peer = await startBadInputPeer();
});
after(async () => {
  process.off('unhandledRejection', onRejection);
  diag.disable();
  await peer?.stop();
  await h.shutdown();
});
beforeEach(async () => {
  await h.reset();
});

const { only, driftKinds, describeSpans, spansSettled } = spanChecks(() => h);

/** No exception reached diag or the process from the instrumentation, no drift anywhere. */
async function noHarm(): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(diagErrors, [], 'nothing at diag error level');
  assert.deepEqual(rejections, [], 'no unhandled rejection');
  assert.deepEqual(driftKinds(), [], describeSpans());
  assert.equal(await h.driftCount(), 0);
}
/** What the app saw from a promise: its value (as text) or the error it threw. */
async function outcome(p: () => Promise<unknown>): Promise<string> {
  try {
    return `ok ${JSON.stringify(await p())}`;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return `threw ${err.name}: ${err.message}${err.cause ? ` (cause ${err.cause.name}: ${err.cause.message})` : ''}`;
  }
}
const post = (method: string, params: Json, accept = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept },
  body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
});
/** status, content type and body text of a raw fetch, or the error reading it threw */
async function rawFetch(url: string, init?: RequestInit): Promise<string> {
  const res = await fetch(url, init);
  const head = `${res.status} ${res.headers.get('content-type')}`;
  return `${head} ${await outcome(() => res.text())}`;
}
/** Only the text of the message differs between the two runs; keep it out of the comparison. */
const fixedParams = (skillId: string) => ({
  message: {
    kind: 'message',
    role: 'user',
    messageId: 'm-1',
    parts: [{ kind: 'text', text: `summarize: ${FOX}` }],
    metadata: { skillId },
  },
});

const attr = (name: string, key: string) => only(name).attributes[key];
/**
 * The card, a send and a stream by raw fetch, with the instrumentation on and off: the same
 * (asserted); what the app saw.
 */
async function cardSendStreamOnOff(a: BadInputAgent): Promise<string[]> {
  const run = async () => [
    await rawFetch(a.cardUrl),
    await rawFetch(a.rpcUrl, post('message/send', fixedParams('summarize'))),
    await rawFetch(a.rpcUrl, post('message/stream', fixedParams('summarize'), 'text/event-stream')),
  ];
  const { on, off } = await sameWithAndWithout(h, run);
  assert.deepEqual(on, off);
  return on;
}

describe('a live Python server answering badly (Starlette, the FastA2A venv)', { skip }, () => {
  test('500 with the Python traceback page (text/plain and HTML): error span, unjudged, same bytes', async () => {
    const a = peer.agent('traceback');
    const run = async () => [
      await rawFetch(a.cardUrl),
      await rawFetch(a.rpcUrl, post('message/send', fixedParams('summarize'))),
      await rawFetch(
        a.rpcUrl,
        post('message/send', fixedParams('summarize'), 'text/html,application/json'),
      ),
    ];
    const { on, off } = await sameWithAndWithout(h, run);
    assert.deepEqual(on, off);
    assert.match(on[1], /^500 text\/plain; charset=utf-8 ok "Traceback \(most recent call last\)/);
    assert.match(on[1], /TypeError: 'NoneType' object is not subscriptable/);
    assert.match(on[2], /^500 text\/html; charset=utf-8 ok "\\n<html>/);
    await spansSettled(3);
    const sends = h.spans('SendMessage');
    assert.equal(sends.length, 2, describeSpans());
    assert.deepEqual(
      sends.map((s) => [
        s.status.code,
        s.attributes['http.response.status_code'],
        s.attributes['error.type'],
        s.attributes['a2a.skill.id'],
        s.attributes['a2a.drift.unjudged_reason'],
      ]),
      [
        [SpanStatusCode.ERROR, 500, '500', 'summarize', 'response is text/plain, not JSON'],
        [SpanStatusCode.ERROR, 500, '500', 'summarize', 'response is text/html, not JSON'],
      ],
    );
    // the traceback never reaches telemetry
    assert.doesNotMatch(describeSpans(), /Traceback|NoneType/);
    await noHarm();
  });

  test('@a2a-js/sdk client against the traceback 500: the same error with and without, no drift', async () => {
    const a = peer.agent('traceback');
    const run = async () => {
      const client = await sdkClient({ baseUrl: a.cardUrl, path: '' }, { legacy: true });
      return [await outcome(() => client.sendMessage(sendRequest('summarize', { text: FOX })))];
    };
    const { on, off } = await sameWithAndWithout(h, run);
    assert.deepEqual(on, off);
    assert.match(on[0], /^threw Error: HTTP error for message\/send! Status: 500 .*Traceback/s);
    await spansSettled(2);
    assert.equal(attr('SendMessage', 'http.response.status_code'), 500);
    assert.equal(
      attr('SendMessage', 'a2a.drift.unjudged_reason'),
      'response is text/plain, not JSON',
    );
    await noHarm();
  });

  const streamOutcome: Record<'cut' | 'cut-eof', string> = {
    cut: 'threw TypeError: terminated (cause SocketError: other side closed)',
    'cut-eof': 'ok ["statusUpdate"]',
  };
  for (const base of ['cut', 'cut-eof'] as const) {
    const dropped = base === 'cut';
    test(`SSE stream ${dropped ? 'dropped' : 'ended'} inside a data: line: raw fetch, same bytes, the span says the event was not judged`, async () => {
      const a = peer.agent(base);
      const run = async () => [
        await rawFetch(a.cardUrl),
        await rawFetch(
          a.rpcUrl,
          post('message/stream', fixedParams('summarize'), 'text/event-stream'),
        ),
      ];
      const { on, off } = await sameWithAndWithout(h, run);
      assert.deepEqual(on, off);
      if (dropped)
        assert.match(on[1], /^200 text\/event-stream; charset=utf-8 threw TypeError: terminated/);
      else assert.match(on[1], /\\"artifact\\": \{"$/, 'the body ends inside the data: line');
      await spansSettled(2);
      const st = only('SendStreamingMessage');
      assert.equal(st.attributes['a2a.task.state'], 'TASK_STATE_WORKING', describeSpans());
      assert.match(
        String(st.attributes['a2a.drift.unjudged_reason']),
        /^stream ended inside an event \(\d+ characters\): that event not judged$/,
      );
      if (dropped) {
        assert.equal(st.status.code, SpanStatusCode.ERROR);
        assert.equal(st.attributes['error.type'], 'SocketError');
      } else assert.notEqual(st.status.code, SpanStatusCode.ERROR, describeSpans());
      await noHarm();
    });

    test(`SSE stream ${dropped ? 'dropped' : 'ended'} inside a data: line: @a2a-js/sdk client, the same outcome`, async () => {
      const a = peer.agent(base);
      const run = async () => {
        const client = await sdkClient({ baseUrl: a.cardUrl, path: '' }, { legacy: true });
        return [
          await outcome(async () =>
            (await collect(client.sendMessageStream(sendRequest('summarize', { text: FOX })))).map(
              (e) => e.payload?.$case,
            ),
          ),
        ];
      };
      const { on, off } = await sameWithAndWithout(h, run);
      assert.deepEqual(on, off);
      assert.deepEqual(on, [streamOutcome[base]]);
      await spansSettled(2);
      assert.match(
        String(attr('SendStreamingMessage', 'a2a.drift.unjudged_reason')),
        /^stream ended inside an event/,
      );
      await noHarm();
    });
  }

  test("card with None for defaultOutputModes, a skill's tags and outputModes: raw fetch, a card, healthy answers unjudged, same bytes", async () => {
    const on = await cardSendStreamOnOff(peer.agent('nulls'));
    assert.match(on[0], /"defaultOutputModes\\": null/);
    assert.match(
      on[0],
      /"tags\\": null, \\"inputModes\\": \[\\"text\/plain\\"\], \\"outputModes\\": null/,
    );
    await spansSettled(3);
    const raw = JSON.parse(on[0].replace(/^200 application\/json ok /, '')) as string;
    const fp = skillFingerprint(JSON.parse(raw) as never);
    assert.equal(attr('GetAgentCard', 'a2a.agent_card.fingerprint'), fp);
    // the seed's own algorithm, in python3, has no answer for this card: sorted(None) raises
    // (ours reads a None as absent: the skill's modes fall back to the card's, here none)
    assert.throws(() => pythonSeedFingerprint(raw), /'NoneType' object is not iterable/);
    assert.equal(attr('GetAgentCard', 'a2a.agent_card.skill_count'), 1);
    for (const name of ['SendMessage', 'SendStreamingMessage']) {
      assert.equal(attr(name, 'a2a.task.state'), 'TASK_STATE_COMPLETED');
      assert.equal(attr(name, 'a2a.agent_card.fingerprint'), fp);
      assert.equal(attr(name, 'a2a.drift.unjudged_reason'), 'the skill advertises no output modes');
    }
    await noHarm();
  });

  test('card with skills None: raw fetch, "not an Agent Card (skills is null)", calls unjudged, same bytes', async () => {
    const on = await cardSendStreamOnOff(peer.agent('null-skills'));
    assert.match(on[0], /"skills\\": null/);
    await spansSettled(3);
    const get = only('GetAgentCard');
    assert.equal(get.attributes['a2a.drift.unjudged_reason'], 'not an Agent Card (skills is null)');
    assert.equal(get.attributes['a2a.agent_card.fingerprint'], undefined);
    assert.notEqual(get.status.code, SpanStatusCode.ERROR);
    for (const name of ['SendMessage', 'SendStreamingMessage'])
      assert.equal(
        attr(name, 'a2a.drift.unjudged_reason'),
        'no Agent Card known for this endpoint',
      );
    await noHarm();
  });

  for (const [base, refusal] of [
    ['nulls', 'agentCard.defaultOutputModes is required and must be an array'],
    ['null-skills', 'agentCard.skills is required and must be an array'],
  ] as const) {
    test(`@a2a-js/sdk client on the ${base} card: it refuses the card itself, the same with and without`, async () => {
      const a = peer.agent(base);
      const run = async () => [
        await outcome(async () => {
          const c = await sdkClient({ baseUrl: a.cardUrl, path: '' }, { legacy: true });
          return c.sendMessage(sendRequest('summarize', { text: FOX }));
        }),
      ];
      const { on, off } = await sameWithAndWithout(h, run);
      assert.deepEqual(on, off);
      assert.deepEqual(on, [`threw RequestMalformedError: ${refusal}`]);
      await spansSettled(1);
      assert.equal(attr('GetAgentCard', 'http.response.status_code'), 200);
      await noHarm();
    });
  }
});
