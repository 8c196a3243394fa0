/**
 * The agent's side, in process: a real @a2a-js/sdk express server (test/peers/sdk-peer.ts) with
 * the instrumentation enabled, called with `node:http` (a client this package does not see: no
 * fetch, no undici). Each test fails on the code before the agent's side existed (no SERVER
 * span, no `A2A-Card-Fingerprint` header, no `a2a.server.stale_calls`).
 *
 *   node --import tsx --test test/telemetry/server-calls.test.ts
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { setupOtel, type Harness } from '../helpers/otel';
import { A2A_V1, raw, sendMessage } from '../helpers/raw-http';
import { startSdkPeer, DEFAULT_SKILL, TRANSLATE_SKILL, type SdkPeer } from '../peers/sdk-peer';
import { skillFingerprint } from '../../src/core/fingerprint';
import { servedCards, setServedAgentCard } from '../../src/telemetry/server-calls';
import { onStaleCaller, type StaleCallerEvent } from '../../src/index';

describe('the agent side (SERVER spans, served card, stale callers)', () => {
  let h: Harness;
  let peer: SdkPeer;

  before(async () => {
    h = setupOtel({ cardRevalidationMs: 0, serverSpans: true });
  });
  after(async () => {
    await h.shutdown();
  });
  beforeEach(async () => {
    await h.reset();
    servedCards().clear();
    peer = await startSdkPeer({ skills: [DEFAULT_SKILL, TRANSLATE_SKILL] });
  });
  const close = () => peer.close();

  test('the first A2A request, before anyone fetched the card: a SERVER span with the served card', async () => {
    try {
      assert.equal(peer.cardFetches, 0);
      const answer = await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), A2A_V1);
      assert.equal(answer.status, 200);
      const spans = await h.waitForSpans((s) => s.some((x) => x.kind === SpanKind.SERVER));
      const server = spans.find((x) => x.kind === SpanKind.SERVER)!;
      assert.equal(server.name, 'SendMessage');
      const fp = skillFingerprint(JSON.parse((await raw(peer.cardUrl, 'GET')).body));
      assert.equal(server.attributes['a2a.method.name'], 'SendMessage');
      assert.equal(server.attributes['a2a.protocol.version'], '1.0');
      assert.equal(server.attributes['a2a.skill.id'], DEFAULT_SKILL.id);
      assert.equal(server.attributes['a2a.agent_card.fingerprint'], fp);
      assert.equal(server.attributes['a2a.agent_card.url'], peer.cardUrl);
      assert.equal(server.attributes['a2a.drift.kind'], undefined);
      // the loopback request for the card was made by the package, once
      assert.equal(peer.cardFetches, 2);
      const second = await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), A2A_V1);
      assert.equal(second.headers['a2a-card-fingerprint'], fp);
      assert.equal(peer.cardFetches, 2);
    } finally {
      await close();
    }
  });

  test('HTTP+JSON and the 0.3 JSON-RPC methods are SERVER spans too, named as the client names them', async () => {
    try {
      await raw(peer.cardUrl, 'GET');
      await raw(
        `${peer.restUrl}/message:send`,
        'POST',
        JSON.stringify({
          message: { messageId: 'r1', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
          metadata: { skillId: DEFAULT_SKILL.id },
        }),
        A2A_V1,
      );
      await raw(
        peer.v03JsonRpcUrl,
        'POST',
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'message/send',
          params: {
            message: {
              messageId: 'o1',
              role: 'user',
              kind: 'message',
              parts: [{ kind: 'text', text: 'hi' }],
            },
            metadata: { skillId: DEFAULT_SKILL.id },
          },
        }),
      );
      const spans = await h.waitForSpans(
        (s) => s.filter((x) => x.kind === SpanKind.SERVER).length >= 2,
      );
      const server = spans.filter((x) => x.kind === SpanKind.SERVER);
      assert.deepEqual(
        server
          .map((s) => [s.name, s.attributes['a2a.binding'], s.attributes['a2a.method.name']])
          .sort(),
        [
          ['SendMessage', 'http+json', 'SendMessage'],
          ['SendMessage', 'jsonrpc', 'SendMessage'],
        ],
      );
      for (const s of server) assert.equal(s.attributes['a2a.skill.id'], DEFAULT_SKILL.id);
    } finally {
      await close();
    }
  });

  test('stale callers: a skill the served card does not list, another fingerprint announced', async () => {
    try {
      const fp = skillFingerprint(JSON.parse((await raw(peer.cardUrl, 'GET')).body));
      const okAnswer = await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), {
        ...A2A_V1,
        'a2a-card-fingerprint': fp,
      });
      assert.equal(okAnswer.headers['a2a-card-fingerprint'], fp);
      await raw(peer.jsonRpcUrl, 'POST', sendMessage('retired_skill'), A2A_V1);
      const other = 'ab'.repeat(32);
      await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), {
        ...A2A_V1,
        'a2a-card-fingerprint': other,
      });
      const spans = await h.waitForSpans(
        (s) => s.filter((x) => x.kind === SpanKind.SERVER).length === 3,
      );
      const server = spans.filter((x) => x.kind === SpanKind.SERVER);
      const [fine, retired, stale] = server;
      assert.equal(fine!.attributes['a2a.drift.kind'], undefined);
      assert.equal(retired!.attributes['a2a.drift.kind'], 'caller_skill_not_in_card');
      assert.equal(retired!.attributes['a2a.skill.id'], 'retired_skill');
      assert.equal(
        retired!.events.find((e) => e.name === 'a2a.drift')?.attributes?.['a2a.drift.kind'],
        'caller_skill_not_in_card',
      );
      // the server's own status: the SDK answered 200 with a task
      assert.notEqual(retired!.status.code, 2);
      assert.equal(stale!.attributes['a2a.drift.kind'], 'caller_card_stale');
      assert.equal(stale!.attributes['a2a.caller.card_fingerprint'], other);
    } finally {
      await close();
    }
  });

  test('onStaleCaller: the app is told of each stale caller (what the SERVER span says), off the request path; a throwing callback harms nothing', async () => {
    const seen: StaleCallerEvent[] = [];
    const offThrow = onStaleCaller(() => {
      throw new Error('app bug');
    });
    const off = onStaleCaller((e) => {
      seen.push(e);
    });
    try {
      const fp = skillFingerprint(JSON.parse((await raw(peer.cardUrl, 'GET')).body));
      await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), {
        ...A2A_V1,
        'a2a-card-fingerprint': fp,
      });
      const retired = await raw(peer.jsonRpcUrl, 'POST', sendMessage('retired_skill'), A2A_V1);
      assert.equal(retired.status, 200);
      const other = 'cd'.repeat(32);
      await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), {
        ...A2A_V1,
        'a2a-card-fingerprint': other,
      });
      await h.waitForSpans((s) => s.filter((x) => x.kind === SpanKind.SERVER).length === 3);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        seen.map((e) => e.kind),
        ['caller_skill_not_in_card', 'caller_card_stale'],
      );
      assert.deepEqual(seen[0], {
        kind: 'caller_skill_not_in_card',
        operation: 'SendMessage',
        skillId: 'retired_skill',
        fingerprint: fp,
        cardUrl: peer.cardUrl,
        agentName: peer.card.name,
      });
      assert.equal(seen[1]!.callerFingerprint, other);
      assert.equal(seen[1]!.skillId, DEFAULT_SKILL.id);
      off();
      await raw(peer.jsonRpcUrl, 'POST', sendMessage('retired_skill'), A2A_V1);
      await h.waitForSpans((s) => s.filter((x) => x.kind === SpanKind.SERVER).length === 4);
      await new Promise((r) => setImmediate(r));
      assert.equal(seen.length, 2, 'removed: not called again');
    } finally {
      off();
      offThrow();
      await close();
    }
  });

  test('setServedAgentCard: a card served elsewhere judges the requests', async () => {
    try {
      const card = { ...peer.card, skills: [] };
      assert.equal(
        setServedAgentCard(JSON.parse(JSON.stringify(card)), { url: peer.cardUrl }),
        true,
      );
      assert.equal(setServedAgentCard('not a card', { url: peer.cardUrl }), false);
      await raw(peer.jsonRpcUrl, 'POST', sendMessage(DEFAULT_SKILL.id), A2A_V1);
      const spans = await h.waitForSpans((s) => s.some((x) => x.kind === SpanKind.SERVER));
      const server = spans.find((x) => x.kind === SpanKind.SERVER)!;
      assert.equal(server.attributes['a2a.drift.kind'], 'caller_skill_not_in_card');
      assert.equal(peer.cardFetches, 0);
    } finally {
      await close();
    }
  });
  test('an agent listening on IPv6 loopback: its card learned from [::1] as from 127.0.0.1', async () => {
    const card = JSON.stringify(peer.card);
    let cardGets = 0;
    const v6 = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
        cardGets++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(card);
        return;
      }
      req.resume();
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            '{"jsonrpc":"2.0","id":1,"result":{"message":{"messageId":"a","role":"ROLE_AGENT","parts":[{"text":"ok"}]}}}',
          ),
      );
    });
    try {
      await new Promise<void>((r) => v6.listen(0, '::1', r));
      const url = `http://[::1]:${(v6.address() as AddressInfo).port}/`;
      await raw(url, 'POST', sendMessage(DEFAULT_SKILL.id), A2A_V1);
      const spans = await h.waitForSpans((s) => s.some((x) => x.kind === SpanKind.SERVER));
      const server = spans.find((x) => x.kind === SpanKind.SERVER)!;
      assert.equal(
        server.attributes['a2a.agent_card.fingerprint'],
        skillFingerprint(JSON.parse(card)),
      );
      assert.equal(cardGets, 1, 'the package asked its own server for the card once');
    } finally {
      v6.closeAllConnections();
      await new Promise((r) => v6.close(r));
      await close();
    }
  });
});
