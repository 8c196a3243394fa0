import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CardRegistry } from '../../src/core/card-registry';
import { NegotiationRegistry, type Negotiation } from '../../src/core/negotiation-registry';
import { normaliseUrl } from '../../src/core/url';
import type { DecodedCard } from '../../src/core/model';

function card(endpoints: string[], over: Partial<DecodedCard> = {}): DecodedCard {
  return {
    name: 'peer',
    version: '1.0',
    endpoints: endpoints.map((url) => ({ url })),
    streaming: false,
    pushNotifications: false,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'summarize-v2', inputModes: ['text/plain'], outputModes: ['text/markdown'] }],
    ...over,
  };
}

/** Sizes of the registry's internal maps (white-box: memory must follow the caps). */
function internals(r: CardRegistry): {
  cards: number;
  indexed: number;
  byEndpoint: number;
  byOrigin: number;
  history: number;
} {
  const x = r as unknown as Record<string, { size: number }>;
  return {
    cards: x.cards.size,
    indexed: x.indexed.size,
    byEndpoint: x.byEndpoint.size,
    byOrigin: x.byOrigin.size,
    history: x.history.size,
  };
}

function neg(taskId: string, createdAt: number, skillId = 's'): Negotiation {
  return {
    taskId,
    createdAt,
    context: { cardKnown: true, skillId, cardUrl: 'https://peer-a/.well-known/agent-card.json' },
  };
}

// ---------------------------------------------------------------------------------------
// normaliseUrl

test('normaliseUrl: case, default port, userinfo, query, fragment, trailing slash; total', () => {
  assert.equal(
    normaliseUrl('HTTPS://user:pw@Peer-A.Example:443/a2a/?x=1#frag'),
    'https://peer-a.example/a2a',
  );
  assert.equal(normaliseUrl('http://peer-a:80/'), 'http://peer-a');
  assert.equal(normaliseUrl('http://peer-a:8080/A2A//'), 'http://peer-a:8080/A2A');
  assert.equal(
    normaliseUrl('../rpc', 'https://peer-a/agents/x/card.json'),
    'https://peer-a/agents/rpc',
  );
  assert.equal(normaliseUrl(new URL('https://peer-a/x')), 'https://peer-a/x');
  for (const bad of ['', 'not a url', '/relative-without-base', undefined, null, 42, {}]) {
    assert.equal(normaliseUrl(bad as unknown as string), undefined, String(bad));
  }
  assert.equal(normaliseUrl('x', 'also not a url'), undefined);
});

// ---------------------------------------------------------------------------------------
// CardRegistry

test('first put: no previous, not changed', () => {
  const r = new CardRegistry();
  const u = r.put(
    'https://peer-a/.well-known/agent.json',
    card(['https://peer-a/a2a']),
    'fp1',
    1000,
  );
  assert.equal(u.changed, false);
  assert.equal(u.versionChanged, false);
  assert.equal(u.previousFingerprint, undefined);
  assert.equal(u.entry.fingerprint, 'fp1');
  assert.equal(u.entry.version, '1.0');
  assert.equal(u.entry.fetchedAt, 1000);
  assert.equal(u.entry.suspect, false);
  assert.deepEqual([...u.entry.skills.keys()], ['summarize-v2']);
  assert.equal(r.get('https://peer-a/.well-known/agent.json'), u.entry);
  assert.equal(r.size, 1);
});

test('same version, different fingerprint: changed; same fingerprint: not changed', () => {
  const r = new CardRegistry();
  const url = 'https://peer-a/.well-known/agent.json';
  r.put(url, card([]), 'fp1', 1);
  const same = r.put(url, card([]), 'fp1', 2);
  assert.equal(same.changed, false);
  assert.equal(same.versionChanged, false);
  assert.equal(same.previousFingerprint, 'fp1');
  const diff = r.put(url, card([]), 'fp2', 3);
  assert.equal(diff.changed, true);
  assert.equal(diff.versionChanged, false);
  assert.equal(diff.previousFingerprint, 'fp1');
  assert.equal(diff.previousVersion, '1.0');
  assert.equal(r.get(url)?.fingerprint, 'fp2');
});

test('version change with the same fingerprint reports versionChanged, not changed', () => {
  const r = new CardRegistry();
  const url = 'https://peer-a/.well-known/agent.json';
  r.put(url, card([], { version: '1.0' }), 'fp1', 1);
  const u = r.put(url, card([], { version: '1.1' }), 'fp1', 2);
  assert.equal(u.versionChanged, true);
  assert.equal(u.changed, false);
  assert.equal(u.previousVersion, '1.0');
  assert.equal(u.entry.version, '1.1');
  // version and fingerprint both change: still not `changed` (the version was bumped)
  const both = r.put(url, card([], { version: '2.0' }), 'fp2', 3);
  assert.equal(both.versionChanged, true);
  assert.equal(both.changed, false);
  // no version at all, twice, then a fingerprint change: changed (undefined === undefined)
  r.put('https://peer-b/card', card([], { version: undefined }), 'a', 4);
  const nov = r.put('https://peer-b/card', card([], { version: undefined }), 'b', 5);
  assert.equal(nov.changed, true);
  assert.equal(nov.versionChanged, false);
});

test('evict drops the card and its endpoints but keeps history: a re-fetch reports changed', () => {
  const r = new CardRegistry();
  const url = 'https://peer-a/.well-known/agent.json';
  r.put(url, card(['https://peer-a/a2a']), 'fp-old', 1);
  assert.ok(r.forRequestUrl('https://peer-a/a2a'));
  r.evict(url);
  assert.equal(r.get(url), undefined);
  assert.equal(r.size, 0);
  assert.equal(r.forRequestUrl('https://peer-a/a2a'), undefined, 'endpoint stops resolving');
  assert.equal(r.forRequestUrl('https://peer-a/other'), undefined, 'origin stops resolving');
  assert.deepEqual(
    { ...internals(r), history: undefined },
    { cards: 0, indexed: 0, byEndpoint: 0, byOrigin: 0, history: undefined },
  );
  const u = r.put(url, card(['https://peer-a/a2a']), 'fp-new', 2);
  assert.equal(u.changed, true);
  assert.equal(u.previousFingerprint, 'fp-old');
  // clear() forgets history too
  r.clear();
  assert.equal(r.put(url, card([]), 'fp-x', 3).changed, false);
});

test('card URL key: scheme/host case and default port do not matter, fragment ignored, query kept', () => {
  const r = new CardRegistry();
  r.put('https://Peer-A:443/.well-known/agent.json#x', card([]), 'fp1', 1);
  assert.ok(r.get('https://peer-a/.well-known/agent.json'));
  assert.equal(r.put('HTTPS://PEER-A/.well-known/agent.json', card([]), 'fp2', 2).changed, true);
  assert.equal(r.size, 1);
  r.put('https://peer-a/.well-known/agent.json?tenant=b', card([]), 'fp3', 3);
  assert.equal(r.size, 2);
  assert.equal(r.get('https://peer-a/.well-known/agent.json')?.fingerprint, 'fp2');
});

test('markSuspect marks the held card; a new put clears it', () => {
  const r = new CardRegistry();
  const url = 'https://peer-a/card';
  r.put(url, card([]), 'fp', 1);
  r.markSuspect(url);
  assert.equal(r.get(url)?.suspect, true);
  r.markSuspect('https://unknown/card'); // no-op
  assert.equal(r.put(url, card([]), 'fp', 2).entry.suspect, false);
});

test('skills map: by id, the last of duplicate ids wins', () => {
  const r = new CardRegistry();
  const u = r.put(
    'https://peer-a/card',
    card([], {
      skills: [
        { id: 'a', inputModes: ['x'], outputModes: ['1'] },
        { id: 'b', inputModes: [], outputModes: [] },
        { id: 'a', inputModes: ['y'], outputModes: ['2'] },
      ],
    }),
    'fp',
    1,
  );
  assert.deepEqual([...u.entry.skills.keys()], ['a', 'b']);
  assert.deepEqual(u.entry.skills.get('a')?.outputModes, ['2']);
});

test('forRequestUrl: exact endpoint, normalised', () => {
  const r = new CardRegistry();
  r.put('https://peer-a/.well-known/agent.json', card(['https://peer-a/a2a/jsonrpc']), 'fpA', 1);
  assert.equal(r.forRequestUrl('https://peer-a/a2a/jsonrpc')?.fingerprint, 'fpA');
  assert.equal(r.forRequestUrl('HTTPS://u:p@PEER-A:443/a2a/jsonrpc/?q=1#f')?.fingerprint, 'fpA');
  assert.equal(r.forRequestUrl('https://peer-b/a2a/jsonrpc'), undefined, 'other host');
  assert.equal(
    r.forRequestUrl('http://peer-a/a2a/jsonrpc'),
    undefined,
    'other scheme is another origin',
  );
  assert.equal(
    r.forRequestUrl('https://peer-a:8443/a2a/jsonrpc'),
    undefined,
    'other port is another origin',
  );
});

test('forRequestUrl: longest endpoint prefix at a segment boundary, before the origin fallback', () => {
  const r = new CardRegistry();
  r.put('https://peer-a/cards/rest.json', card(['https://peer-a/a2a']), 'fpRest', 1);
  r.put('https://peer-a/cards/v1.json', card(['https://peer-a/a2a/v1']), 'fpV1', 2);
  r.put('https://peer-a/cards/other.json', card(['https://peer-a/other']), 'fpOther', 3); // most recent
  // REST binding: endpoint + '/message:send'
  assert.equal(r.forRequestUrl('https://peer-a/a2a/message:send')?.fingerprint, 'fpRest');
  assert.equal(r.forRequestUrl('https://peer-a/a2a/tasks/t-1:cancel')?.fingerprint, 'fpRest');
  // the longer endpoint wins
  assert.equal(r.forRequestUrl('https://peer-a/a2a/v1/message:send')?.fingerprint, 'fpV1');
  assert.equal(
    r.forRequestUrl('https://peer-a/a2a/v1/tasks/abc?historyLength=2')?.fingerprint,
    'fpV1',
  );
  // no false prefix: /a2ab is not under /a2a, /a2a/v10 not under /a2a/v1 (→ /a2a)
  // and no origin fallback either: every card there declares its endpoints on this origin
  assert.equal(r.forRequestUrl('https://peer-a/a2ab/message:send'), undefined);
  assert.equal(r.forRequestUrl('https://peer-a/a2a/v10/message:send')?.fingerprint, 'fpRest');
});

test('forRequestUrl: origin fallback picks the most recently put card of that origin that declares no endpoint there', () => {
  const r = new CardRegistry();
  r.put('https://peer-a/.well-known/agent.json', card([]), 'fp1', 1);
  assert.equal(r.forRequestUrl('https://peer-a/somewhere/else')?.fingerprint, 'fp1');
  r.put('https://peer-a/other/agent.json', card([]), 'fp2', 2);
  assert.equal(r.forRequestUrl('https://peer-a/somewhere/else')?.fingerprint, 'fp2');
  // re-putting the first makes it the most recent
  r.put('https://peer-a/.well-known/agent.json', card([]), 'fp3', 3);
  assert.equal(r.forRequestUrl('https://peer-a/somewhere/else')?.fingerprint, 'fp3');
  // a card whose endpoints are on another host (a discovery host) does not speak for the card host's other paths...
  r.put('https://discovery/agents/c.json', card(['https://peer-c:9000/rpc']), 'fpC', 4);
  assert.equal(r.forRequestUrl('https://peer-c:9000/rpc')?.fingerprint, 'fpC');
  // ...nor for paths of the endpoint's host that are not its endpoint
  assert.equal(r.forRequestUrl('https://peer-c:9000/x'), undefined);
  assert.equal(r.forRequestUrl('https://peer-d/x'), undefined);
});

test("forRequestUrl: several agents on one origin are never judged against each other's card", () => {
  const r = new CardRegistry();
  // Mastra: per-agent cards; the card's url names another host (localhost) than the one called (127.0.0.1)
  r.put(
    'http://127.0.0.1:4111/api/.well-known/weather/agent-card.json',
    card(['http://localhost:4111/api/a2a/weather']),
    'fpW',
    1,
  );
  assert.equal(r.forRequestUrl('http://127.0.0.1:4111/api/a2a/weather')?.fingerprint, 'fpW');
  assert.equal(
    r.forRequestUrl('http://127.0.0.1:4111/api/a2a/translator'),
    undefined,
    'another agent on the same origin',
  );
  r.put(
    'http://127.0.0.1:4111/api/.well-known/translator/agent-card.json',
    card(['http://localhost:4111/api/a2a/translator']),
    'fpT',
    2,
  );
  assert.equal(r.forRequestUrl('http://127.0.0.1:4111/api/a2a/translator')?.fingerprint, 'fpT');
  assert.equal(r.forRequestUrl('http://127.0.0.1:4111/api/a2a/weather')?.fingerprint, 'fpW');
  // VoltAgent: per-agent cards whose url is on the called origin: matched by endpoint
  r.put(
    'http://127.0.0.1:3141/.well-known/a1/agent-card.json',
    card(['http://127.0.0.1:3141/a2a/a1']),
    'fpA1',
    3,
  );
  assert.equal(r.forRequestUrl('http://127.0.0.1:3141/a2a/a1')?.fingerprint, 'fpA1');
  assert.equal(r.forRequestUrl('http://127.0.0.1:3141/a2a/a2'), undefined);
  // an endpoint at the origin's root is a prefix of every path there
  r.put('http://root-peer/.well-known/agent.json', card(['http://root-peer/']), 'fpRoot', 4);
  assert.equal(r.forRequestUrl('http://root-peer/tasks/1')?.fingerprint, 'fpRoot');
});

test('forRequestUrl: relative endpoints resolve against the card URL; shared endpoints go to the newest card', () => {
  const r = new CardRegistry();
  r.put('https://peer-a/agents/x/card.json', card(['../rpc']), 'fpRel', 1);
  assert.equal(r.forRequestUrl('https://peer-a/agents/rpc')?.fingerprint, 'fpRel');
  r.put('https://peer-a/agents/y/card.json', card(['https://peer-a/agents/rpc']), 'fpNew', 2);
  assert.equal(r.forRequestUrl('https://peer-a/agents/rpc')?.fingerprint, 'fpNew');
  r.evict('https://peer-a/agents/y/card.json');
  assert.equal(
    r.forRequestUrl('https://peer-a/agents/rpc')?.fingerprint,
    'fpRel',
    'older card resolves again',
  );
});

test('forRequestUrl: an extended card speaks for its endpoints before a public card put later, on the same origin terms', () => {
  const r = new CardRegistry();
  const rpc = 'https://peer-a/a2a/jsonrpc';
  r.put('https://peer-a/.well-known/agent-card.json', card([rpc]), 'fpPublic', 1);
  r.put(rpc, card([rpc]), 'fpExtended', 2, { extended: 'jsonrpc' });
  assert.equal(r.forRequestUrl(rpc)?.fingerprint, 'fpExtended');
  assert.equal(r.get(rpc)?.extended, 'jsonrpc');
  r.put('https://peer-a/.well-known/agent-card.json', card([rpc]), 'fpPublic2', 3);
  assert.equal(r.forRequestUrl(rpc)?.fingerprint, 'fpExtended', 'the public card re-fetched later');
  // A discovery host's extended card does not take over an agent whose own card is known.
  r.put('https://directory/extendedAgentCard', card([rpc]), 'fpElsewhere', 4, { extended: 'rest' });
  assert.equal(r.forRequestUrl(rpc)?.fingerprint, 'fpExtended');
  r.evict(rpc);
  assert.equal(r.forRequestUrl(rpc)?.fingerprint, 'fpPublic2', 'without it, the public card');
  assert.equal(r.get('https://peer-a/.well-known/agent-card.json')?.extended, undefined);
});

test('LRU: get/forRequestUrl keep a card; the least recently put/used is dropped past maxCards', () => {
  const r = new CardRegistry({ maxCards: 2 });
  r.put('https://a/card', card(['https://a/rpc']), 'A', 1);
  r.put('https://b/card', card(['https://b/rpc']), 'B', 2);
  assert.ok(r.forRequestUrl('https://a/rpc')); // a used
  r.put('https://c/card', card(['https://c/rpc']), 'C', 3);
  assert.equal(r.size, 2);
  assert.ok(r.get('https://a/card'));
  assert.equal(r.get('https://b/card'), undefined);
  assert.equal(r.forRequestUrl('https://b/rpc'), undefined);
  // history outlives the LRU eviction too
  assert.equal(r.put('https://b/card', card(['https://b/rpc']), 'B2', 4).changed, true);
});

test('caps hold under 100k puts (cards, endpoint/origin indexes, history)', () => {
  const r = new CardRegistry({ maxCards: 50, maxHistory: 200 });
  for (let i = 0; i < 100_000; i++) {
    const host = `https://h${i % 5000}.example`;
    r.put(
      `${host}/c${i}.json`,
      card([`${host}/a2a/${i}`, `${host}/rest/${i}`, `https://shared.example/x`]),
      `fp${i}`,
      i,
    );
    if (i % 997 === 0) r.forRequestUrl(`${host}/a2a/${i}/message:send`);
  }
  const sz = internals(r);
  assert.equal(r.size, 50);
  assert.equal(sz.cards, 50);
  assert.equal(sz.indexed, 50);
  assert.ok(sz.byEndpoint <= 50 * 2 + 1, `byEndpoint ${sz.byEndpoint}`);
  assert.ok(sz.byOrigin <= 50 + 1, `byOrigin ${sz.byOrigin}`);
  assert.equal(sz.history, 200);
  // the newest are held, the oldest history forgotten
  assert.ok(r.get('https://h4999.example/c99999.json'));
  assert.equal(r.forRequestUrl('https://shared.example/x')?.fingerprint, 'fp99999');
  assert.equal(
    r.put('https://h0.example/c0.json', card([]), 'other', 1e6).previousFingerprint,
    undefined,
  );
  assert.equal(r.put('https://h4999.example/c99999.json', card([]), 'other', 1e6).changed, true);
  // a card with a huge endpoint list indexes a bounded number of them
  const big = new CardRegistry();
  big.put(
    'https://big/card',
    card(Array.from({ length: 100_000 }, (_, i) => `https://big/e${i}`)),
    'fp',
    1,
  );
  assert.ok(internals(big).byEndpoint <= 64, `byEndpoint ${internals(big).byEndpoint}`);
});

test('CardRegistry methods never throw on odd input', () => {
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('boom');
      },
    },
  );
  const odd: unknown[] = [
    undefined,
    null,
    42,
    '',
    'not a url',
    {},
    [],
    hostile,
    Symbol('s'),
    'https://x/%zz',
    'http://[::1]:99999/',
  ];
  for (const opts of [
    undefined,
    null,
    5,
    { maxCards: -1, maxHistory: NaN },
    { maxCards: 'x' },
    hostile,
  ]) {
    const r = new CardRegistry(opts as never);
    for (const u of odd) {
      for (const c of [
        undefined,
        null,
        hostile,
        { endpoints: hostile, skills: hostile },
        { endpoints: [null, 1, { url: 5 }, { url: 'rel' }] },
      ]) {
        const res = r.put(u as string, c as unknown as DecodedCard, u as string, u as number);
        assert.equal(typeof res.changed, 'boolean');
      }
      r.get(u as string);
      r.forRequestUrl(u as string);
      r.markSuspect(u as string);
      r.evict(u as string);
    }
    assert.ok(r.size >= 0);
    r.clear();
    assert.equal(r.size, 0);
  }
});

// ---------------------------------------------------------------------------------------
// NegotiationRegistry

test('negotiations: get by taskId; same taskId replaces', () => {
  const r = new NegotiationRegistry();
  r.put(neg('t1', 0, 'a'));
  r.put(neg('t2', 0));
  r.put(neg('t1', 5, 'b'));
  assert.equal(r.size, 2);
  assert.equal(r.get('t1', 10)?.context.skillId, 'b');
  assert.equal(r.get('nope', 10), undefined);
});

test('negotiations: age expiry (now - createdAt > maxAgeMs) removes the entry', () => {
  const r = new NegotiationRegistry({ maxAgeMs: 1000 });
  r.put(neg('t1', 5000));
  assert.ok(r.get('t1', 6000), 'exactly maxAgeMs old is still valid');
  assert.equal(r.get('t1', 6001), undefined);
  assert.equal(r.size, 0, 'expired entry removed');
  // a put sweeps expired entries from the old end
  r.put(neg('a', 0));
  r.put(neg('b', 100));
  r.put(neg('c', 1000)); // a is exactly 1000 ms old: kept
  assert.equal(r.size, 3);
  r.put(neg('d', 1101)); // a (0) and b (100) are now older than 1000 ms
  assert.equal(r.size, 2);
  assert.equal(r.get('a', 0), undefined);
  // a non-finite `now` cannot judge age: the entry is returned
  assert.ok(r.get('c', NaN));
  // default: one hour
  const d = new NegotiationRegistry();
  d.put(neg('x', 0));
  assert.ok(d.get('x', 3_600_000));
  assert.equal(d.get('x', 3_600_001), undefined);
});

test('negotiations: caps hold under 100k puts, oldest dropped first', () => {
  const r = new NegotiationRegistry({ maxEntries: 1000 });
  for (let i = 0; i < 100_000; i++) {
    r.put(neg(`t${i}`, i));
    if (i % 3 === 0) r.put(neg(`t${i}`, i)); // replacements do not grow it
  }
  assert.equal(r.size, 1000);
  assert.equal(r.get('t98999', 100_000), undefined);
  assert.ok(r.get('t99000', 100_000));
  assert.ok(r.get('t99999', 100_000));
  // default cap 10 000
  const d = new NegotiationRegistry();
  for (let i = 0; i < 100_000; i++) d.put(neg(`t${i}`, i));
  assert.equal(d.size, 10_000);
  d.clear();
  assert.equal(d.size, 0);
});

test('NegotiationRegistry never throws on odd input', () => {
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error('boom');
      },
    },
  );
  for (const opts of [
    undefined,
    null,
    1,
    { maxEntries: -5, maxAgeMs: NaN },
    { maxAgeMs: -1 },
    hostile,
  ]) {
    const r = new NegotiationRegistry(opts as never);
    for (const n of [
      undefined,
      null,
      5,
      'x',
      {},
      { taskId: 5, createdAt: 1 },
      { taskId: 't', createdAt: NaN },
      { taskId: 't' },
      hostile,
    ]) {
      r.put(n as unknown as Negotiation);
    }
    assert.equal(r.size, 0, 'invalid negotiations are ignored');
    r.put(neg('ok', 1));
    for (const id of [undefined, null, 5, {}, hostile])
      assert.equal(r.get(id as unknown as string, 2), undefined);
    assert.ok(r.get('ok', undefined as unknown as number));
    assert.equal(r.size, 1);
  }
});

test('a sniffed card (odd path) speaks only for its own origin, under the folder it was served from', () => {
  const r = new CardRegistry();
  r.put('http://h/ra/agent/card', card(['http://other-host/a2a']), 'fpS', 1, {
    sameOriginOnly: true,
  });
  assert.equal(r.forRequestUrl('http://other-host/a2a'), undefined, 'no claim on another origin');
  assert.equal(r.forRequestUrl('http://h/ra')?.fingerprint, 'fpS');
  assert.equal(r.forRequestUrl('http://h/ra/tasks/1')?.fingerprint, 'fpS');
  assert.equal(r.forRequestUrl('http://h/elsewhere'), undefined);
  // a per-agent card on the same origin is preferred for its own agent's paths
  r.put('http://h/.well-known/a1/agent-card.json', card([]), 'fpA1', 2);
  r.put('http://h/agent.json', card([]), 'fpRoot', 3, { sameOriginOnly: true });
  assert.equal(r.forRequestUrl('http://h/a2a/a1')?.fingerprint, 'fpA1');
  assert.equal(
    r.forRequestUrl('http://h/ra')?.fingerprint,
    'fpS',
    'the narrower scope wins over the root one',
  );
  assert.equal(r.forRequestUrl('http://h/anything')?.fingerprint, 'fpRoot');
});
