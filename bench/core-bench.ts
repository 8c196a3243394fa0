/**
 * Core hot-path timings (prints figures, asserts nothing):
 *   cd /work/main && node --import tsx bench/core-bench.ts
 * Other benches add their lines with `measure()` from ./measure.
 */
import { skillFingerprint } from '../src/core/fingerprint';
import { CardRegistry } from '../src/core/card-registry';
import { NegotiationRegistry, type Negotiation } from '../src/core/negotiation-registry';
import type { DecodedCard } from '../src/core/model';
import { realisticCard } from './fixtures';
import { measure } from './measure';

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);

const card20 = realisticCard(20);
measure('skillFingerprint (20-skill card)', () => skillFingerprint(card20));
// As in production: each card is a fresh JSON.parse (no warm string hashes/shapes). The
// parse is timed separately so its cost can be subtracted.
const wire20 = JSON.stringify(card20);
const parse = measure('  JSON.parse of that card (reference)', () => JSON.parse(wire20));
const parsed = measure('  JSON.parse + skillFingerprint', () =>
  skillFingerprint(JSON.parse(wire20)),
);
console.log(
  `  => skillFingerprint on a freshly parsed card ≈ ${(parsed.medianUs - parse.medianUs).toFixed(3)} µs (median difference)`,
);
const card1 = realisticCard(1);
measure('skillFingerprint (1-skill card)', () => skillFingerprint(card1));

// NegotiationRegistry: steady state at its cap (10 000 entries), as under sustained load.
const negotiations = new NegotiationRegistry();
const N = 10_000;
const pool: Negotiation[] = Array.from({ length: 4 * N }, (_, i) => ({
  taskId: `task-${i.toString(36)}-0b6c4e1a-9f0d-4c4e-8d7e`,
  context: {
    cardKnown: true,
    skillId: 'skill-3-translate-v1',
    cardUrl: 'https://peer-a.example.com/.well-known/agent-card.json',
    fingerprint: skillFingerprint(card20),
    agentName: 'peer-a',
    cardVersion: '1.0',
    outputModes: ['text/plain'],
    skillInCard: true,
  },
  createdAt: 0,
}));
for (let i = 0; i < N; i++) negotiations.put(pool[i]);
let putI = N;
let t = 1;
measure(
  'NegotiationRegistry.put (at 10k cap)',
  () => {
    const n = pool[putI++ % pool.length];
    n.createdAt = t++;
    negotiations.put(n);
  },
  { batch: 10 },
);
let getI = 0;
measure(
  'NegotiationRegistry.get (hit or miss, 10k held)',
  () => negotiations.get(pool[getI++ % pool.length].taskId, t),
  { batch: 10 },
);

// CardRegistry.forRequestUrl: 1000 cards (the default cap), REST prefix match and origin fallback.
const cards = new CardRegistry();
const decoded = (i: number): DecodedCard => ({
  name: `peer-${i}`,
  version: '1.0',
  endpoints: [
    { url: `https://peer-${i}.example.com/a2a/v1` },
    { url: `https://peer-${i}.example.com/a2a/rest` },
  ],
  streaming: true,
  pushNotifications: false,
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});
for (let i = 0; i < 1000; i++)
  cards.put(`https://peer-${i}.example.com/.well-known/agent-card.json`, decoded(i), `fp${i}`, i);
let urlI = 0;
measure('CardRegistry.forRequestUrl (exact, 1000 cards)', () =>
  cards.forRequestUrl(`https://peer-${urlI++ % 1000}.example.com/a2a/v1`),
);
measure('CardRegistry.forRequestUrl (REST prefix)', () =>
  cards.forRequestUrl(`https://peer-${urlI++ % 1000}.example.com/a2a/rest/tasks/abc:cancel`),
);
measure('CardRegistry.forRequestUrl (origin fallback)', () =>
  cards.forRequestUrl(`https://peer-${urlI++ % 1000}.example.com/x/y/z`),
);
let putCardI = 0;
measure('CardRegistry.put (at 1000 cap, 2 endpoints)', () => {
  const i = 1000 + putCardI++;
  cards.put(`https://peer-${i}.example.com/.well-known/agent-card.json`, decoded(i), 'fp', i);
});
