/**
 * core/url.ts: urlFacts, the memoised per-request URL facts the telemetry layer uses
 * (matching key, server address and port).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseUrl, urlFacts, withoutQuery } from '../../src/core/url';

test('urlFacts: key is normaliseUrl, server address/port as the semantic conventions want them', () => {
  assert.deepEqual(urlFacts('https://Agent.EXAMPLE:443/a2a/?token=x#f'), {
    key: 'https://agent.example/a2a',
    parsed: true,
    host: 'agent.example',
    port: 443,
    cardKey: 'https://agent.example/a2a?token=x',
  });
  assert.deepEqual(urlFacts('http://127.0.0.1:8080/rpc'), {
    key: 'http://127.0.0.1:8080/rpc',
    parsed: true,
    host: '127.0.0.1',
    port: 8080,
    cardKey: 'http://127.0.0.1:8080/rpc',
  });
  assert.deepEqual(urlFacts('http://h/'), {
    key: 'http://h',
    parsed: true,
    host: 'h',
    port: 80,
    cardKey: 'http://h',
  });
  // IPv6: brackets dropped from server.address only.
  assert.deepEqual(urlFacts('http://[::1]:9/x'), {
    key: 'http://[::1]:9/x',
    parsed: true,
    host: '::1',
    port: 9,
    cardKey: 'http://[::1]:9/x',
  });
  assert.equal(urlFacts('https://a.example/p').key, normaliseUrl('https://a.example/p'));
});

test('urlFacts: an unparsable URL keeps its text up to the query and no server', () => {
  assert.deepEqual(urlFacts('not a url?secret=1'), {
    key: 'not a url',
    parsed: false,
    host: undefined,
    port: undefined,
    cardKey: 'not a url',
  });
});

test('urlFacts: a value that is not a string is no URL, and its toString is never called', () => {
  const hostile = {
    toString: () => {
      throw new Error('boom');
    },
  };
  assert.deepEqual(urlFacts(hostile as unknown as string), {
    key: '',
    parsed: false,
    host: undefined,
    port: undefined,
    cardKey: '',
  });
});

test('urlFacts: memoised answers are the same answers, past the memo size too', () => {
  const first = urlFacts('http://memo.example/a');
  assert.equal(urlFacts('http://memo.example/a'), first); // same object: from the memo
  for (let i = 0; i < 2000; i++)
    assert.equal(urlFacts(`http://h${i}.example/p`).host, `h${i}.example`);
  assert.deepEqual(urlFacts('http://memo.example/a'), first); // recomputed after the memo was cleared, equal
  const long = `http://long.example/${'x'.repeat(3000)}`;
  assert.equal(urlFacts(long).key, long); // not remembered, still answered
});

test('cardKey keeps the query (cards told apart by it, as LangGraph serves them); withoutQuery drops it for telemetry', () => {
  const a = urlFacts('http://lg.example/.well-known/agent-card.json?assistant_id=a');
  const b = urlFacts('http://lg.example/.well-known/agent-card.json?assistant_id=b');
  assert.equal(a.key, b.key);
  assert.notEqual(a.cardKey, b.cardKey);
  assert.equal(withoutQuery(a.cardKey), a.key);
  assert.equal(withoutQuery('http://h/p#f'), 'http://h/p');
  assert.equal(withoutQuery(42 as unknown as string), '');
});
