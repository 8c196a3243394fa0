/**
 * What only Agno AgentOS shows, beside its row of the conformance table: the SDK client's send
 * goes to the card's `url`, which is AgentOS' STREAMING route, and is refused; and variant A,
 * which no card change expresses (the card lists the agent as its one skill, not its tools).
 */
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { collect, sendRequest } from '../../peers/sdk-client';
import { callVerdict, getCard, messages, rpc, sdkClient, type Json } from '../lib';
import { endpoint, type Quirk } from '../conformance/types';
import type { RowContext } from '../conformance/checks';
import { healthyQuirk, redeployQuirk } from '../conformance/row-kit';

const { v03Params } = messages('py-agno-quirk-');
/**
 * An AgentOS SSE body (`event: <Name>\ndata: {json}\n\n`, one JSON-RPC response per event):
 * [event name, the response's `result`] per event.
 */
function parseAgnoSse(text: string): Array<[string, Json]> {
  return text
    .split('\n\n')
    .filter((e) => e.trim())
    .map((e) => {
      const [ev, data] = e.split('\n');
      return [ev.replace('event: ', ''), (JSON.parse(data.replace('data: ', '')) as Json).result];
    });
}
const NOT_AVAILABLE = 'Error: The requested tool does not exist or is not available.';
/** a span without a verdict, the card's fingerprint on it */
const CLEAN = { status: SpanStatusCode.UNSET, fingerprint: true };

/** The send's and the stream's verdicts, by span name (a span held while the card is fetched again ends after the next one). */
function verdictsAre(ctx: RowContext, send: Json, stream: Json): void {
  const got = ctx
    .h()
    .spans()
    .map((s) => ({ [s.name]: callVerdict(s) }))
    .sort((a, b) => Object.keys(a)[0].localeCompare(Object.keys(b)[0]));
  assert.deepEqual(
    got,
    [{ SendMessage: send }, { SendStreamingMessage: stream }],
    ctx.spans.describeSpans(),
  );
}

/** POST a 0.3 message/stream to `url`: the SSE events as [event name, parsed data]. */
async function stream(url: string, text: string): Promise<Array<[string, Json]>> {
  const body = { jsonrpc: '2.0', id: 9, method: 'message/stream', params: v03Params(text, 'desk') };
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  return parseAgnoSse(await res.text());
}
const texts = (m: Json): string[] => m.parts.map((p: Json) => p.text ?? p.kind);
/** The SSE event names, short: S TaskStatusUpdateEvent, M Message, T Task. */
const names = (events: Array<[string, Json]>): string =>
  events.map(([e]) => ({ TaskStatusUpdateEvent: 'S', Message: 'M', Task: 'T' })[e] ?? e).join(' ');

export const agnoQuirks: Quirk[] = [
  healthyQuirk(
    'the SDK client from the card (0.3 mode): its send posts message/send to the card’s streaming url → HTTP 400, a suspicion the unchanged card refutes; its stream works',
    'the only card whose `url` is an operation route (the streaming one) rather than an endpoint serving every method',
    async (ctx, peer) => {
      const { card } = await getCard(peer.cardUrl);
      await ctx.spans.spansSettled(1);
      ctx.h().exporter.reset();
      const client = await sdkClient({ card }, { legacy: true });
      const req = sendRequest('desk', { text: 'translate: hello' });
      // pydantic, on message/send at the streaming route
      await assert.rejects(
        client.sendMessage(req),
        /Status: 400.*Input should be 'message\/stream'/s,
      );
      const events = await collect(client.sendMessageStream(req));
      assert.equal(
        events.map((e) => e.payload?.$case).join(' '),
        'statusUpdate statusUpdate statusUpdate message statusUpdate task',
      );
      await ctx.spans.spansSettled(2);
      assert.equal(ctx.spans.only('SendMessage').attributes['http.response.status_code'], 400);
      verdictsAre(
        ctx,
        { refetch: 'unchanged', status: SpanStatusCode.ERROR, fingerprint: true },
        CLEAN,
      );
    },
  ),
  redeployQuirk(
    'A',
    'variant A (a tool removed, the card unchanged): send and stream COMPLETE with a text naming no tool; no verdict',
    'variant A is N/A for this row (the card lists the agent, not its tools): what the agent answers is kept here',
    async (ctx, { peer, card }) => {
      const t = await rpc(
        endpoint(peer, 'sendUrl'),
        'message/send',
        v03Params('translate: hello', 'desk'),
      );
      assert.equal(t.status.state, 'completed');
      assert.deepEqual(texts(t.history[0]), [NOT_AVAILABLE]);
      const events = await stream(endpoint(peer, 'streamUrl'), 'translate: hello');
      assert.equal(names(events), 'S M S T');
      assert.deepEqual(texts(events[1][1]), [NOT_AVAILABLE]);
      assert.equal(events[2][1].status.state, 'completed');
      await ctx.spans.spansSettled(2);
      verdictsAre(ctx, CLEAN, CLEAN);
      assert.deepEqual((await getCard(peer.cardUrl)).card.skills, card.skills);
    },
  ),
];
