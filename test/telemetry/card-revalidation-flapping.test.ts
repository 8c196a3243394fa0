/**
 * Background revalidation under a rolling deploy and under failures, on a simulated clock:
 * - a card alternating between two fingerprints at one URL (each GET the other one) while the app
 *   holds an earlier one, revalidated every 200 ms for 10 s: card_changed once per transition per
 *   debounce window (3: A→B, B→C, C→B), the flip back said to flap (`flapping: true`); on main's
 *   code every flip was one (50 in 10 s);
 * - an agent called less often than once per interval keeps its failure backoff: 16 agents whose
 *   card requests all fail, each called every 300 ms for 4 s with a 200 ms interval, get the
 *   revalidations the backoff allows (4 each), not one per call (main: 13 each).
 * Prints both counts.
 *
 *   node --import tsx --test test/telemetry/card-revalidation-flapping.test.ts
 */
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { CardRevalidator } from '../../src/telemetry/card-revalidation';
import type { CardRefetcher } from '../../src/telemetry/card-refetch';
import { sharedState } from '../../src/telemetry/shared-state';
import { decodeCard } from '../../src/core/card';
import type { DriftEvent } from '../../src/index';

const INTERVAL = 200;
const realNow = Date.now;
let clock = 0;

beforeEach(() => {
  clock = realNow();
  Date.now = () => clock;
});
afterEach(() => {
  Date.now = realNow;
  sharedState().cards.clear();
});

const cardWith = (skills: string[]) =>
  decodeCard({
    name: 'rolling',
    version: '1',
    url: 'http://h/a2a',
    skills: skills.map((id) => ({ id, name: id })),
  });

/** Lets the refetcher's resolved promises run their continuations. */
const settle = () => new Promise((r) => setImmediate(r));

/** Drives `r` on the test clock for `ms`, a quarter interval a step, `use` first at each step; then stops it. */
async function drive(r: CardRevalidator, ms: number, use: () => void): Promise<void> {
  const end = clock + ms;
  while (clock < end) {
    use();
    r.tick(clock);
    await settle();
    clock += INTERVAL / 4;
  }
  r.stop();
}

/**
 * The card at `url` held as fingerprint A, in use at every step for `ms`, each revalidation
 * answering B (skills `b`), then C (skills `c`), then B...: how many revalidations, and the
 * card_changed events.
 */
async function flapping(
  url: string,
  [b, c]: [string[], string[]],
  debounceMs: number,
  ms: number,
): Promise<{ n: number; changed: DriftEvent[] }> {
  sharedState().cards.put(url, cardWith(['a']), 'A', clock);
  let n = 0;
  const refetcher = {
    refetchCard: () =>
      Promise.resolve(
        ++n % 2 === 1
          ? { fingerprint: 'B', card: cardWith(b) }
          : { fingerprint: 'C', card: cardWith(c) },
      ),
  } as unknown as CardRefetcher;
  const changed: DriftEvent[] = [];
  const r = new CardRevalidator(
    () => ({ intervalMs: INTERVAL, debounceMs }),
    refetcher,
    (e) => changed.push(e),
  );
  await drive(r, ms, () => r.noteUse(url, clock));
  return { n, changed };
}

test('a card flapping between two fingerprints: one card_changed per transition per window, flapping said', async () => {
  const { n, changed } = await flapping(
    'http://rolling/.well-known/agent-card.json',
    [
      ['a', 'b'],
      ['a', 'c'],
    ],
    10_000,
    10_000,
  );
  console.log(
    `# flapping deploy, revalidation every ${INTERVAL} ms for 10 s: ${n} revalidations, card_changed ${changed.length} times (${changed.filter((e) => e.flapping === true).length} with flapping)`,
  );
  assert.ok(n >= 40, `${n} revalidations`);
  assert.deepEqual(
    changed.map((e) => [e.previousFingerprint, e.fingerprint, e.flapping === true]),
    [
      ['A', 'B', false],
      ['A', 'C', false],
      ['A', 'B', true],
    ],
  );
});

test('the flapping transitions are announced again in the next debounce window, once each', async () => {
  const { changed } = await flapping(
    'http://rolling2/.well-known/agent-card.json',
    [['b'], ['c']],
    2_000,
    4_100,
  );
  // 3 in the first window, then each of the transitions B→C and C→B once per window
  assert.ok(changed.length >= 4 && changed.length <= 7, `${changed.length} card_changed`);
  assert.ok(changed.slice(2).every((e) => e.flapping === true));
});

test('backoff kept per card URL while the agent is called less often than once per interval', async () => {
  const urls = Array.from(
    { length: 16 },
    (_, i) => `http://endless${i}/.well-known/agent-card.json`,
  );
  for (const u of urls) sharedState().cards.put(u, cardWith(['a']), 'A', clock - 10 * INTERVAL);
  const requests = new Map<string, number>();
  const refetcher = {
    refetchCard: (u: string) => {
      requests.set(u, (requests.get(u) ?? 0) + 1);
      return Promise.resolve(undefined); // every one fails (an endless body, cut at the cap)
    },
  } as unknown as CardRefetcher;
  const r = new CardRevalidator(
    () => ({ intervalMs: INTERVAL, debounceMs: 10_000 }),
    refetcher,
    () => {},
  );
  let lastCall = -Infinity;
  await drive(r, 4_000, () => {
    if (clock - lastCall >= 300) {
      for (const u of urls) r.noteUse(u, clock);
      lastCall = clock;
    }
  });
  const each = [...requests.values()];
  const most = Math.max(...each);
  console.log(
    `# 16 agents failing, called every 300 ms for 4 s (interval ${INTERVAL} ms): ${each.reduce((a, b) => a + b, 0)} revalidations, at most ${most} per agent`,
  );
  // backoff 400, 800, 1600, 3200 ms after each failure: at most 4 in 4 s
  assert.ok(most <= 4, `${most} revalidations of one agent`);
  assert.equal(requests.size, 16);
});
