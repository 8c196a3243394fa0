/**
 * Issue 15, item 1 and part of item 12: work a peer can make the instrumentation do with
 * a card or a body, bounded by counting work (never by timing it; the figures are in
 * bench/hostile.ts).
 *
 * - The skill fingerprint of a card whose modes are lists nested hundreds deep cost
 *   O(depth²) per comparison (Python's `==` then `<` re-walked the subtree at every
 *   level): a 90 KB card took 1.4 s. Now a comparison reads each element at most once,
 *   every step of the general path is metered, and past the budget the card is "too
 *   complex to fingerprint" (`skillFingerprintBounded` says so; nothing throws). The
 *   fingerprint stays the seed's Python one (checked with python3 when installed).
 * - parseJsonSafe parsed any text up to the inspection cap, 4 MiB of nested brackets
 *   included (~1 s): now more than MAX_JSON_STRUCTURES arrays, objects and keys is a
 *   problem before JSON.parse runs; and a leading byte order mark is dropped as
 *   `Response.json()` drops it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fingerprintMaterial,
  lastFingerprintWork,
  MAX_FINGERPRINT_WORK,
  skillFingerprint,
  skillFingerprintBounded,
} from '../../src/core/fingerprint';
import { MAX_JSON_STRUCTURES, parseJsonSafe, structuresOver } from '../../src/core/json-path';

const EMPTY_FP = skillFingerprint({});

/** Lists nested `depth` deep around `leaf`; every list a Proxy that counts element reads in `reads`. */
function countedNest(depth: number, leaf: unknown, reads: { n: number }): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) {
    v = new Proxy([v], {
      get(target, key, receiver) {
        if (typeof key === 'string' && key !== 'length') reads.n++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  }
  return v;
}

function nest(depth: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** The card: one skill whose inputModes are `copies` lists nested `depth` deep, differing at the bottom. */
function deepModesCard(
  depth: number,
  copies: number,
  reads?: { n: number },
): Record<string, unknown> {
  const modes = Array.from({ length: copies }, (_, i) =>
    reads ? countedNest(depth, copies - i, reads) : nest(depth, copies - i),
  );
  return { name: 'hostile', skills: [{ id: 's', inputModes: modes }] };
}

// ---------------------------------------------------------------------------------------
// The seed's function (as in test/core/fingerprint.test.ts), for cross-checks.

const PYTHON = String.raw`
import hashlib, json, sys
def skill_fingerprint(card):
    skills = sorted(({"id": s.get("id", ""), "inputModes": sorted(s.get("inputModes", [])),
                      "outputModes": sorted(s.get("outputModes", []))} for s in card.get("skills", [])),
                    key=lambda s: s["id"])
    caps = card.get("capabilities", {})
    material = {"skills": skills, "streaming": bool(caps.get("streaming", False)),
                "pushNotifications": bool(caps.get("pushNotifications", False))}
    return hashlib.sha256(json.dumps(material, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
out = []
for card in json.loads(sys.stdin.buffer.read().decode("utf-8")):
    try:
        out.append(skill_fingerprint(card))
    except Exception as e:
        out.append("error " + type(e).__name__)
sys.stdout.write(json.dumps(out))
`;

function python(cards: unknown[]): string[] | undefined {
  const r = spawnSync('python3', ['-c', PYTHON], {
    input: JSON.stringify(cards),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  assert.equal(r.status, 0, `python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

// ---------------------------------------------------------------------------------------
// Item 1: the fingerprint

test('fingerprint: comparing modes nested deep reads each element once per comparison, not once per level (was O(depth²))', () => {
  const depth = 200;
  const copies = 8;
  const reads = { n: 0 };
  const counted = deepModesCard(depth, copies, reads);
  const fp = skillFingerprint(counted);
  // The same card without proxies gives the same fingerprint: the count changed nothing.
  assert.equal(fp, skillFingerprint(deepModesCard(depth, copies)));
  assert.notEqual(fp, EMPTY_FP);
  // Sorting 8 values makes at most ~25 comparisons; each may walk both values once (2 x 200
  // reads), and serialising reads each element once more: linear in the card. Before: ~40,000
  // reads per comparison (pyEq over the whole rest of the subtree at each of the 200 levels).
  const elements = depth * copies;
  assert.ok(
    reads.n <= 10 * elements,
    `${reads.n} element reads for a card of ${elements} nested lists`,
  );
});

test("fingerprint: the issue's card (modes nested 900 deep) costs steps linear in its size, and the same fingerprint", () => {
  const card = deepModesCard(900, 50);
  const r = skillFingerprintBounded(card);
  assert.equal(typeof r.fingerprint, 'string', r.problem);
  assert.equal(r.fingerprint, skillFingerprint(card));
  const nodes = 900 * 50;
  // 50 values need ~250 comparisons; each walks at most one value's 900 levels.
  assert.ok(
    lastFingerprintWork() <= 10 * nodes,
    `${lastFingerprintWork()} steps for ${nodes} nested lists`,
  );
});

test('fingerprint: past the work budget the card is "too complex to fingerprint"; the work stops there', () => {
  const reads = { n: 0 };
  const card = deepModesCard(300, 40, reads);
  const full = skillFingerprintBounded(card);
  assert.equal(typeof full.fingerprint, 'string', full.problem);
  const needed = lastFingerprintWork();
  assert.ok(needed > 2000);
  reads.n = 0;
  const r = skillFingerprintBounded(card, 1000);
  assert.equal(r.fingerprint, undefined);
  assert.match(r.problem ?? '', /too complex to fingerprint/);
  assert.ok(lastFingerprintWork() <= 1001, `${lastFingerprintWork()} steps under a budget of 1000`);
  assert.ok(reads.n <= 3 * 1000, `${reads.n} element reads under a budget of 1000 steps`);
  // skillFingerprint keeps its documented fallback: the fingerprint of {}
  assert.notEqual(skillFingerprint(card), EMPTY_FP); // within the default budget
});

test('fingerprint: hostile shapes are refused within the default budget, nothing throws', () => {
  const sparse: unknown[] = [];
  sparse.length = 2 ** 32 - 1; // claims 4 billion elements (JSON.parse never makes this; a JS caller can)
  const deepModes = (deepModesCard(990, 400).skills as { inputModes: unknown }[])[0].inputModes;
  const hostile: [string, unknown][] = [
    [
      'a mode given as one 4 MiB string',
      { skills: [{ id: 's', inputModes: 'x'.repeat(4 * 1024 * 1024) }] },
    ],
    ['a sparse mode list of 2^32 - 1 elements', { skills: [{ id: 's', outputModes: sparse }] }],
    [
      '200,000 skills with numeric ids',
      { skills: Array.from({ length: 200_000 }, (_, i) => ({ id: (i * 7919) % 200_000 })) },
    ],
    [
      'three skills of 400 mode lists nested 990 deep',
      { skills: [0, 1, 2].map((k) => ({ id: `s${k}`, inputModes: deepModes })) },
    ],
  ];
  for (const [name, card] of hostile) {
    const r = skillFingerprintBounded(card);
    assert.equal(r.fingerprint, undefined, name);
    assert.match(r.problem ?? '', /too complex to fingerprint \(over 1000000 steps\)/, name);
    assert.ok(lastFingerprintWork() <= MAX_FINGERPRINT_WORK + 1, name);
    assert.equal(skillFingerprint(card), EMPTY_FP, `${name}: skillFingerprint falls back to {}`);
  }
});

test('fingerprint: other unreadable cards say why; the fallback fingerprint of skillFingerprint is unchanged', () => {
  const cyclic: Record<string, unknown> = { skills: [] };
  (cyclic.skills as unknown[]).push({ id: 'x', inputModes: [cyclic, cyclic] });
  const throwing = Object.defineProperty({}, 'skills', {
    enumerable: true,
    get: () => {
      throw new Error('boom');
    },
  });
  const deep = { skills: [{ id: nest(5000, 'x') }] };
  assert.match(skillFingerprintBounded(cyclic).problem ?? '', /nested more than 1000 levels/);
  assert.match(skillFingerprintBounded(deep).problem ?? '', /nested more than 1000 levels/);
  assert.equal(skillFingerprintBounded(throwing).problem, 'card could not be read');
  for (const card of [cyclic, throwing, deep]) assert.equal(skillFingerprint(card), EMPTY_FP);
  // a bad budget is the default one
  assert.equal(
    skillFingerprintBounded({ skills: [{ id: 's', inputModes: [[1], [0]] }] }, Number.NaN)
      .fingerprint,
    skillFingerprint({ skills: [{ id: 's', inputModes: [[0], [1]] }] }),
  );
});

test('fingerprint: normal cards are not metered and give the same fingerprint through both functions', () => {
  const vectors = JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', 'fingerprint-vectors.json'), 'utf8'),
  ) as { card: unknown; fingerprint: string }[];
  for (const v of vectors) {
    assert.deepEqual(skillFingerprintBounded(v.card), { fingerprint: v.fingerprint });
    assert.equal(skillFingerprint(v.card), v.fingerprint);
  }
  // 20,000 skills with string ids and modes: the A2A shape costs no metered step, whatever its size
  const big = {
    capabilities: { streaming: true },
    skills: Array.from({ length: 20_000 }, (_, i) => ({
      id: `skill-${(i * 7919) % 20_000}-é`,
      inputModes: ['text/plain', 'application/json'],
      outputModes: ['text/markdown', `x/${i}`],
    })),
  };
  const r = skillFingerprintBounded(big);
  assert.equal(typeof r.fingerprint, 'string');
  assert.equal(lastFingerprintWork(), 0);
});

test('fingerprint: hostile-but-readable cards still match the seed in python3 byte for byte', (t) => {
  const prefix = '\u00e9'.repeat(300);
  const cards: unknown[] = [
    deepModesCard(300, 12),
    // equal deep prefixes, differing late; lists of different lengths
    {
      skills: [
        {
          id: 'a',
          inputModes: [nest(250, [1, 2]), nest(250, [1]), nest(250, [1, 2, 0]), nest(249, [[0]])],
        },
      ],
    },
    // long common prefixes, non-ASCII, U+E000..U+FFFF against astral and lone surrogates (code point order)
    {
      skills: [
        {
          id: 'a',
          inputModes: Array.from(
            { length: 60 },
            (_, i) =>
              prefix +
              ['\ue000', '\u{1F600}', '\uffff', '\ud83d', 'z', '\udc00', '\u00ff'][i % 7] +
              String(i % 5),
          ),
        },
      ],
    },
    {
      skills: Array.from({ length: 50 }, (_, i) => ({
        id:
          '\u{1F600}'.repeat(50) +
          ['\ue000', '\u{10000}', 'a', '\ud800', '\uffff'][i % 5] +
          String(i % 3),
        outputModes: [String(i)],
      })),
    },
    {
      skills: [
        {
          id: 'a',
          inputModes: Array.from({ length: 40 }, (_, i) => [
            prefix + ['\ue000', '\u{1F600}', 'a', '\ud83d'][i % 4],
            i % 3,
          ]),
        },
      ],
    },
    // dicts Python cannot order (fallback order), keys needing code point order
    {
      skills: [
        {
          id: 'a',
          outputModes: Array.from({ length: 30 }, (_, i) => ({
            ['\u{1F600}' + (i % 4)]: i,
            ['\ue000' + (i % 3)]: [i % 2],
            z: null,
          })),
        },
      ],
    },
    {
      skills: [
        { id: { '\ue000': 1, '\u{10000}': 2, a: { '\uffff': 3, '\ud800x': 4 } } },
        { id: 'b' },
      ],
    },
  ];
  const py = python(cards);
  if (py === undefined) {
    t.skip('python3 is not installed');
    return;
  }
  for (let i = 0; i < cards.length; i++) {
    const mine = skillFingerprintBounded(cards[i]);
    if (py[i].startsWith('error ')) {
      // Python raises (dicts are not orderable): ours is the documented fallback order, and a fingerprint
      assert.equal(typeof mine.fingerprint, 'string', `card #${i}`);
      continue;
    }
    assert.equal(
      mine.fingerprint,
      py[i],
      `card #${i}: ${fingerprintMaterial(cards[i]).slice(0, 300)}`,
    );
  }
});

// ---------------------------------------------------------------------------------------
// Item 12 (part): parseJsonSafe

test('parseJsonSafe: 4 MiB of nested arrays is refused before JSON.parse runs', () => {
  const half = 2 * 1024 * 1024;
  const deep = parseJsonSafe('['.repeat(half) + ']'.repeat(half));
  assert.equal(deep.ok, false);
  assert.match(
    deep.ok ? '' : deep.problem,
    /JSON too complex to inspect \(over 200000 arrays, objects and keys\)/,
  );
  const unit = '['.repeat(1000) + ']'.repeat(1000);
  const wide = parseJsonSafe('[' + Array(2000).fill(unit).join(',') + ']');
  assert.equal(wide.ok, false, '2,000 lists nested 1,000 deep');
  const keys = parseJsonSafe(
    '{' + Array.from({ length: MAX_JSON_STRUCTURES + 1 }, (_, i) => `"k${i}":0`).join(',') + '}',
  );
  assert.equal(keys.ok, false, 'an object with more keys than the bound');
});

test('parseJsonSafe: A2A-sized documents, and brackets or colons inside strings, are parsed as before', () => {
  const doc = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'task',
      id: 't',
      artifacts: Array.from({ length: 20_000 }, (_, i) => ({
        artifactId: `a${i}`,
        parts: [{ kind: 'text', text: `see http://x/{${i}}: [1, 2] "q" \\ ` }],
      })),
    },
  };
  for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2)]) {
    const r = parseJsonSafe(text);
    assert.equal(r.ok, true);
    assert.deepEqual(r.ok && r.value, doc);
  }
  // strings made of the counted characters, escaped quotes and backslashes: only real structure counts
  const strings = JSON.stringify(
    Array.from(
      { length: 1000 },
      (_, i) => '[{:'.repeat(300) + '\\"'.repeat(i % 3) + '\\'.repeat(i % 4),
    ),
  );
  assert.equal(parseJsonSafe(strings).ok, true);
  assert.equal(structuresOver(strings, 1), false, 'one array, 900,000 look-alikes inside strings');
  assert.equal(structuresOver(strings, 0), true);
  assert.equal(
    structuresOver('["a\\\\"' + ',[]'.repeat(10) + ']', 10),
    true,
    'an escaped backslash ends the string',
  );
  assert.equal(
    structuresOver('["a\\"' + ',[]'.repeat(10) + '"]', 1),
    false,
    'an escaped quote does not',
  );
  assert.equal(
    structuresOver('"' + '['.repeat(50), 10),
    false,
    'unterminated string: left to JSON.parse',
  );
  assert.equal(parseJsonSafe('"' + '['.repeat(MAX_JSON_STRUCTURES + 10)).ok, false);
  // invalid and deep-but-small texts keep their old answers
  assert.deepEqual(parseJsonSafe('{'), { ok: false, problem: 'invalid JSON' });
  assert.equal(parseJsonSafe('['.repeat(1000) + ']'.repeat(1000)).ok, true);
});

test('parseJsonSafe: one leading byte order mark is dropped, as Response.json() drops it', async () => {
  const body = '\uFEFF{"jsonrpc":"2.0","id":1,"result":{"kind":"message"}}';
  const viaFetch = (await new Response(new TextEncoder().encode(body)).json()) as unknown;
  const r = parseJsonSafe(body);
  assert.equal(r.ok, true);
  assert.deepEqual(r.ok && r.value, viaFetch);
  // from bytes decoded without dropping the BOM (Buffer#toString), as the body reader decodes
  const fromBuffer = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('{"a":1}'),
  ]).toString('utf8');
  assert.deepEqual(parseJsonSafe(fromBuffer), { ok: true, value: { a: 1 } });
  // Only one: every client drops one, and they disagree on a second (fetch drops two,
  // undici.request's body.json() one): such a body is "not JSON", i.e. unjudged, never drift.
  assert.equal(parseJsonSafe('\uFEFF\uFEFF{}').ok, false);
  assert.equal(parseJsonSafe(' \uFEFF{}').ok, false);
});
