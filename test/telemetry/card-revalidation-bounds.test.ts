/**
 * CardRevalidator's bounds (src/telemetry/card-revalidation.ts), whatever the number of cards in
 * use: at most MAX_STARTS_PER_TICK revalidations started per tick and MAX_IN_FLIGHT in flight,
 * MAX_CARDS_IN_USE cards remembered, none started for a card idle for an interval. The refetcher
 * here is a recorder whose fetches never answer: what is measured is the scheduler alone.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import type { CardRefetcher } from '../../src/telemetry/card-refetch';
import {
  CardRevalidator,
  MAX_CARDS_IN_USE,
  MAX_IN_FLIGHT,
  MAX_STARTS_PER_TICK,
} from '../../src/telemetry/card-revalidation';
import { sharedState } from '../../src/telemetry/shared-state';

const INTERVAL = 1000;

/** `fetchedAgo`: how long before `now` the app fetched the cards (due for revalidation past INTERVAL). */
function revalidatorWith(urls: string[], now: number, fetchedAgo = 2 * INTERVAL) {
  const requested: string[] = [];
  const refetcher = {
    refetchCard: (url: string) => {
      requested.push(url);
      return new Promise(() => {}); // never answers: every started one stays in flight
    },
  } as unknown as CardRefetcher;
  const r = new CardRevalidator(
    () => ({ intervalMs: INTERVAL }),
    refetcher,
    () => {},
  );
  const cards = sharedState().cards;
  cards.setMaxCards(urls.length);
  const card = decodeCard({ name: 'x', version: '1', url: 'http://h/a2a', skills: [] });
  for (const u of urls) cards.put(u, card, 'f', now - fetchedAgo);
  for (const u of urls) r.noteUse(u, now);
  return { r, requested };
}

afterEach(() => {
  sharedState().cards.clear();
  sharedState().cards.setMaxCards(1000);
});

test('10,000 cards in use: one tick starts at most MAX_IN_FLIGHT, never more while they are in flight', () => {
  const now = Date.now();
  const urls = Array.from({ length: 10_000 }, (_, i) => `http://h${i}/.well-known/agent-card.json`);
  const { r, requested } = revalidatorWith(urls, now);
  assert.equal(r.cardsInUse, Math.min(urls.length, MAX_CARDS_IN_USE));
  r.tick(now);
  assert.equal(requested.length, Math.min(MAX_IN_FLIGHT, MAX_STARTS_PER_TICK));
  for (let i = 0; i < 10; i++) r.tick(now + i);
  assert.equal(requested.length, MAX_IN_FLIGHT, 'none while MAX_IN_FLIGHT are in flight');
  r.stop();
});

test('a card not used for an interval is forgotten, and never revalidated', () => {
  const now = Date.now();
  // fetched just now: not due at the call (a card older than the interval is revalidated at it)
  const { r, requested } = revalidatorWith(['http://idle/.well-known/agent-card.json'], now, 0);
  r.tick(now + INTERVAL + 1);
  assert.equal(requested.length, 0);
  assert.equal(r.cardsInUse, 0);
  r.stop();
});

test('a card with credentials or an extended card is not taken in use', () => {
  const now = Date.now();
  const cards = sharedState().cards;
  const card = decodeCard({ name: 'x', version: '1', url: 'http://h/a2a', skills: [] });
  cards.put('http://c/.well-known/agent-card.json', card, 'f', now, { credentials: true });
  cards.put('http://e/v1/card', card, 'f', now, { extended: 'rest' });
  const r = new CardRevalidator(
    () => ({ intervalMs: INTERVAL }),
    {} as unknown as CardRefetcher,
    () => {},
  );
  r.noteUse('http://c/.well-known/agent-card.json', now);
  r.noteUse('http://e/v1/card', now);
  assert.equal(r.cardsInUse, 0);
  r.stop();
});
