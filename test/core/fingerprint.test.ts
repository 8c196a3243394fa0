import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  fingerprintMaterial,
  fingerprintPrefix,
  skillFingerprint,
} from '../../src/core/fingerprint';
import { SEED_SKILL_FINGERPRINT_PY } from '../helpers/seed-fingerprint';

const HEX64 = /^[0-9a-f]{64}$/;

// ---------------------------------------------------------------------------------------
// The seed's function, verbatim (../shared/seed/stale-agent-card.md), driven over stdin.

const PYTHON = String.raw`
import hashlib
import json
import sys
from typing import Any

${SEED_SKILL_FINGERPRINT_PY}
def material(card):
    # the same steps, returning the blob (for failure messages)
    skills = sorted(({"id": s.get("id", ""), "inputModes": sorted(s.get("inputModes", [])),
                      "outputModes": sorted(s.get("outputModes", []))} for s in card.get("skills", [])),
                    key=lambda s: s["id"])
    caps = card.get("capabilities", {})
    return json.dumps({"skills": skills, "streaming": bool(caps.get("streaming", False)),
                       "pushNotifications": bool(caps.get("pushNotifications", False))},
                      sort_keys=True, separators=(",", ":"))

out = []
for card in json.loads(sys.stdin.buffer.read().decode("utf-8")):
    try:
        out.append({"fp": skill_fingerprint(card), "blob": material(card)})
    except Exception as e:
        out.append({"error": type(e).__name__ + ": " + str(e)})
sys.stdout.write(json.dumps(out))
`;

type PyResult = { fp: string; blob: string } | { error: string };

/** Runs the seed on `json.loads(JSON.stringify(card))` for each card; undefined if python3 is absent. */
function runPython(cards: unknown[]): PyResult[] | undefined {
  const r = spawnSync('python3', ['-c', PYTHON], {
    input: JSON.stringify(cards),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  assert.equal(r.status, 0, `python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as PyResult[];
}

// ---------------------------------------------------------------------------------------
// Generators of cards Python's skill_fingerprint accepts

const unit = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('a', 'b', 'c', '/', '-', '.', '+', ' ', 'text/plain', 'x'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"',
      '\\',
      '\n',
      '\r',
      '\t',
      '\b',
      '\f',
      '\x00',
      '\x1f',
      '\x7f',
      '~',
      '/',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom('\u0080', 'é', 'ß', '\u2028', '\u4e2d', '\ud7ff') },
  // astral (surrogate pairs) vs U+E000–U+FFFF: code point and UTF-16 orders disagree here
  {
    weight: 3,
    arbitrary: fc.constantFrom('\u{1F600}', '\u{1F601}', '\u{10000}', '\u{10FFFF}', '\u{20000}'),
  },
  { weight: 3, arbitrary: fc.constantFrom('\ue000', '\uffff', '\ufffd', '\uf8ff', '\uff01') },
  // lone surrogates (Python's json.loads accepts them as escapes)
  { weight: 1, arbitrary: fc.constantFrom('\ud83d', '\ude00', '\udbff', '\udc00') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const str = fc.array(unit, { maxLength: 5 }).map((a) => a.join(''));
/** Short strings from a tiny alphabet: duplicates and shared prefixes are frequent. */
const tinyStr = fc
  .array(fc.constantFrom('a', 'b', '\u{1F600}', '\ue000', '\ud83d'), { maxLength: 3 })
  .map((a) => a.join(''));
const anyStr = fc.oneof(str, tinyStr);
const mediaType = fc.constantFrom(
  'text/plain',
  'text/markdown',
  'application/json',
  'image/png',
  'TEXT/plain',
  'text/plain ',
);

const floats = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
  fc.constantFrom(
    0.5,
    1e-5,
    1.5e-7,
    5e-324,
    1e21,
    1.5e300,
    1e16 + 2,
    123.456,
    -0,
    0.1 + 0.2,
    2 ** 53,
    2 ** 60,
  ),
);
const ints = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.maxSafeInteger(),
  fc.constantFrom(0, -1, 2 ** 53 - 1),
);

/** A mode list Python can sort. */
const modeValue = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.oneof(mediaType, anyStr), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.array(ints, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(ints, floats, fc.boolean()), { maxLength: 3 }) },
  { weight: 1, arbitrary: anyStr }, // Python iterates a str: sorted characters
  {
    weight: 1,
    arbitrary: fc.dictionary(anyStr, fc.oneof(fc.integer(), fc.constant(null), anyStr), {
      maxKeys: 3,
    }),
  }, // sorted keys
  { weight: 1, arbitrary: fc.array(fc.array(anyStr, { maxLength: 2 }), { maxLength: 3 }) }, // lists compare lexicographically
  { weight: 1, arbitrary: fc.tuple(fc.jsonValue({ maxDepth: 2 })).map((t) => t) }, // one element: never compared
);

const optionalModes = fc.option(modeValue, { nil: undefined, freq: 4 });

type IdKind = 'str' | 'int' | 'float' | 'num' | 'list' | 'single-any';
const idArb = (kind: IdKind): fc.Arbitrary<unknown> => {
  switch (kind) {
    case 'str':
      return fc.oneof(anyStr, mediaType, fc.constantFrom('summarize-v2', 'translate-v1'));
    case 'int':
      return ints;
    case 'float':
      return floats;
    case 'num':
      return fc.oneof(ints, floats, fc.boolean());
    case 'list':
      return fc.array(anyStr, { maxLength: 3 });
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
};

const skillArb = (kind: IdKind): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record(
      {
        // a missing id is "" (a str): only where the ids are strings
        id: kind === 'str' ? fc.option(idArb(kind), { nil: undefined, freq: 6 }) : idArb(kind),
        inputModes: optionalModes,
        outputModes: optionalModes,
        name: fc.option(anyStr, { nil: undefined }),
        tags: fc.option(fc.array(anyStr, { maxLength: 2 }), { nil: undefined }),
      },
      // a missing id is "": with non-str ids Python could not order it, so then id is required
      { requiredKeys: kind === 'str' ? [] : ['id'] },
    )
    .map((s) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s)) if (v !== undefined) o[k] = v; // absent, not undefined
      return o;
    });

const capValue = fc.oneof(
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.double(), // NaN/Infinity reach Python as null (JSON data model)
  fc.constantFrom('', 'false', 'no', '0', 0, -0, null, [], {}, [0], { a: 0 }),
  anyStr,
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 2 }),
);

const cardArb: fc.Arbitrary<Record<string, unknown>> = fc
  .constantFrom<IdKind>('str', 'str', 'str', 'int', 'float', 'num', 'list', 'single-any')
  .chain((kind) =>
    fc.record(
      {
        name: anyStr,
        version: fc.constantFrom('1.0', '2.0', ''),
        url: fc.constant('https://peer-a/a2a'),
        capabilities: fc.record(
          {
            streaming: capValue,
            pushNotifications: capValue,
            stateTransitionHistory: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        skills: fc.oneof(
          {
            weight: 8,
            arbitrary: fc.array(skillArb(kind), { maxLength: kind === 'single-any' ? 1 : 8 }),
          },
          { weight: 1, arbitrary: fc.constantFrom<unknown>('', {}) }, // Python iterates these as empty
        ),
        defaultInputModes: fc.constant(['text/plain']),
      },
      { requiredKeys: [] },
    ),
  );

// ---------------------------------------------------------------------------------------

const vectors = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'fingerprint-vectors.json'), 'utf8'),
) as {
  card: unknown;
  fingerprint: string;
}[];

test('every vector in fingerprint-vectors.json matches', () => {
  assert.ok(vectors.length >= 6);
  for (const [i, v] of vectors.entries()) {
    assert.equal(
      skillFingerprint(v.card),
      v.fingerprint,
      `vector ${i}: ${fingerprintMaterial(v.card)}`,
    );
  }
});

test('fingerprintPrefix is the first 12 hex digits', () => {
  const fp = skillFingerprint({});
  assert.equal(fp, 'b6a8ffa903a88ed5998845823fb69818b5e6426d811ea177df202bcd252a944e');
  assert.equal(fingerprintPrefix(fp), 'b6a8ffa903a8');
  assert.equal(fingerprintPrefix(undefined as unknown as string), '');
});

/** Cards the generator might miss: each probes one rule of Python's json.dumps / sorted. */
const handCards: unknown[] = [
  {
    skills: [
      { id: '\ue000' },
      { id: '\u{1F600}' },
      { id: '\uffff' },
      { id: '\ud83d' },
      { id: 'z' },
    ],
  },
  {
    skills: [
      {
        id: 'x',
        inputModes: ['\u{1F600}', '\ue000', '\uffff', 'a', '\ud7ff', '\ud83d', '\ud83dz'],
      },
    ],
  },
  { skills: [{ id: 'ctl', outputModes: ['\x00\x01\x1f\x7f\x80"\\/\b\f\n\r\t'] }] },
  { skills: [{ id: 'é' }, { id: 'e' }, { id: 'É' }] },
  {
    skills: [
      { id: 'dup', inputModes: ['1'] },
      { id: 'dup', inputModes: ['2'] },
      { id: 'a' },
      { id: 'dup', inputModes: ['0'] },
    ],
  },
  { skills: [{ inputModes: ['b'] }, { id: '' }, { id: 'a' }] },
  {
    skills: [
      { id: 2 },
      { id: 1.5 },
      { id: true },
      { id: 1 },
      { id: -0.25 },
      { id: 1e21 },
      { id: 1e-7 },
    ],
  },
  {
    skills: [
      {
        id: 'x',
        inputModes: 'text/plain',
        outputModes: { b: 1, a: null, '\u{1F600}': 0, '\ue000': 2 },
      },
    ],
  },
  { skills: [{ id: [['a'], 'b'] }] },
  { skills: [{ id: { z: 1, a: [1, { y: 'é', b: null }] } }] },
  { skills: [{ id: ['b', 'a'] }, { id: ['b'] }, { id: ['a', 'z'] }] },
  { skills: [{ id: null }] },
  { skills: [{ id: 'a', inputModes: [null] }] },
  {
    skills: [
      {
        id: 'a',
        inputModes: [
          [1, null],
          [0, null],
          [null, 1],
        ].slice(0, 2),
      },
    ],
  },
  {
    skills: [
      {
        id: 'a',
        inputModes: [
          [null, 1],
          [null, 0],
        ],
      },
    ],
  },
  { capabilities: { streaming: 'false', pushNotifications: 0.0 } },
  { capabilities: { streaming: [], pushNotifications: { a: 1 } } },
  { capabilities: { streaming: {}, pushNotifications: [0] } },
  { skills: '', capabilities: {} },
  { skills: {} },
  { skills: [] },
  // more than 32 skills / modes: the Array#sort branches
  {
    skills: Array.from({ length: 40 }, (_, i) => ({
      id: `s-${(i * 17) % 40}`,
      inputModes: Array.from({ length: 40 }, (_, j) => `m/${(j * 13) % 40}`),
      outputModes: i % 2 ? ['a\u00e9', 'a'] : ['b', 'a'],
    })),
  },
  {
    skills: Array.from({ length: 40 }, (_, i) => ({
      id: i % 3 ? `\u00e9-${i % 7}` : `\u{1F600}${i % 5}`,
      inputModes: [String(i)],
    })),
  },
];

test('matches the seed in python3 on ~320 generated and hand-written cards', (t) => {
  const seed = Number(process.env.FC_SEED ?? 20261113);
  const generated = fc.sample(cardArb, { numRuns: 300, seed });
  const cards: unknown[] = [...handCards, ...generated];
  const py = runPython(cards);
  if (py === undefined) {
    t.skip('python3 is not installed: cross-check against the seed not run');
    return;
  }
  assert.equal(py.length, cards.length);
  let compared = 0;
  for (let i = 0; i < cards.length; i++) {
    const r: PyResult = py[i];
    const card = cards[i];
    assert.ok(
      !('error' in r),
      `generator produced a card Python rejects (fix the generator): ${'error' in r ? r.error : ''} ${JSON.stringify(card)}`,
    );
    const mine = fingerprintMaterial(card);
    assert.equal(mine, r.blob, `card #${i} (seed ${seed}): ${JSON.stringify(card)}`);
    assert.equal(skillFingerprint(card), r.fp, `card #${i} (seed ${seed})`);
    compared++;
  }
  assert.equal(compared, cards.length);
  t.diagnostic(`cross-checked ${compared} cards against python3 (fast-check seed ${seed})`);
});

test('Python-specific escaping and ordering (explicit expectations)', () => {
  // 0x7f is escaped by Python's ensure_ascii (only ' '..'~' pass), '/' is not
  assert.equal(
    fingerprintMaterial({ skills: [{ id: '\x7f/\x01\u00e9\u{1F600}"\\\n' }] }),
    '{"pushNotifications":false,"skills":[{"id":"\\u007f/\\u0001\\u00e9\\ud83d\\ude00\\"\\\\\\n","inputModes":[],"outputModes":[]}],"streaming":false}',
  );
  // code point order: U+E000 < U+FFFF < U+1F600, although in UTF-16 0xD83D < 0xE000
  assert.equal(
    fingerprintMaterial({ skills: [{ id: '\u{1F600}' }, { id: '\uffff' }, { id: '\ue000' }] }),
    '{"pushNotifications":false,"skills":[{"id":"\\ue000","inputModes":[],"outputModes":[]},{"id":"\\uffff","inputModes":[],"outputModes":[]},{"id":"\\ud83d\\ude00","inputModes":[],"outputModes":[]}],"streaming":false}',
  );
  // numbers: ints in full, floats as Python repr
  assert.match(fingerprintMaterial({ skills: [{ id: 1e-5 }] }), /"id":1e-05,/);
  assert.match(fingerprintMaterial({ skills: [{ id: 1e21 }] }), /"id":1e\+21,/);
  assert.match(fingerprintMaterial({ skills: [{ id: 1e16 }] }), /"id":10000000000000000,/);
  assert.match(fingerprintMaterial({ skills: [{ id: 12n }] }), /"id":12,/);
  // stable: equal ids keep card order
  assert.match(
    fingerprintMaterial({
      skills: [
        { id: 'd', inputModes: ['2'] },
        { id: 'd', inputModes: ['1'] },
      ],
    }),
    /"inputModes":\["2"\].*"inputModes":\["1"\]/,
  );
});

test('documented fallbacks where Python would raise', () => {
  const empty = skillFingerprint({});
  for (const card of [null, undefined, [], 'card', 42, true, () => 1, Symbol('x'), 10n]) {
    assert.equal(skillFingerprint(card), empty, `card ${String(card)}`);
  }
  const base = { capabilities: { streaming: true }, skills: [{ id: 'a', inputModes: ['x'] }] };
  const fpBase = skillFingerprint(base);
  // capabilities not a dict: both false
  for (const caps of [null, [true], 'yes', 1]) {
    assert.equal(
      skillFingerprint({ capabilities: caps }),
      empty,
      `capabilities ${JSON.stringify(caps)}`,
    );
  }
  // skills not a list: []
  for (const skills of [null, 'abc', { a: 1 }, 5]) {
    assert.equal(
      skillFingerprint({ capabilities: { streaming: true }, skills }),
      skillFingerprint({ capabilities: { streaming: true } }),
    );
  }
  // a skill that is not a dict is skipped
  assert.equal(
    skillFingerprint({ ...base, skills: [null, 'x', 3, [], ...base.skills, undefined] }),
    fpBase,
  );
  // modes None / number / bool: []
  for (const m of [null, 3, false]) {
    assert.equal(
      skillFingerprint({ ...base, skills: [{ id: 'a', inputModes: ['x'], outputModes: m }] }),
      fpBase,
      `outputModes ${String(m)}`,
    );
  }
  // mixed types Python cannot order: None < numbers < strings < lists < dicts, stable
  const mixed = JSON.parse(
    fingerprintMaterial({
      skills: [
        { id: 'b' },
        { id: { k: 1 } },
        { id: 2 },
        { id: null },
        { id: ['a'] },
        { id: true },
        { id: null },
      ],
    }),
  ) as { skills: { id: unknown }[] };
  assert.deepEqual(
    mixed.skills.map((s) => JSON.stringify(s.id)),
    ['null', 'null', 'true', '2', '"b"', '["a"]', '{"k":1}'],
  );
  assert.match(
    fingerprintMaterial({
      skills: [{ id: 'a', inputModes: ['b', 1, null, 'a', [0], { z: 0 }, { a: 0 }] }],
    }),
    /"inputModes":\[null,1,"a","b",\[0\],\{"a":0\},\{"z":0\}\]/,
  );
  // lists whose first unequal items are dicts (Python: `==` False, then `<` raises): the
  // fallback order, dicts by their canonical JSON; equal dicts let the next items decide
  assert.match(
    fingerprintMaterial({
      skills: [{ id: 'a', inputModes: [[{ a: 1 }, 0], [{ a: 1 }], [{ a: 1, b: 2 }]] }],
    }),
    // '{"a":1,"b":2}' < '{"a":1}' as text (',' < '}')
    /"inputModes":\[\[\{"a":1,"b":2\}\],\[\{"a":1\}\],\[\{"a":1\},0\]\]/,
  );
  assert.match(
    fingerprintMaterial({
      skills: [
        {
          id: 'a',
          inputModes: [
            [{ a: 1 }, 2],
            [{ a: 1 }, 1],
          ],
        },
      ],
    }),
    /"inputModes":\[\[\{"a":1\},1\],\[\{"a":1\},2\]\]/,
  );
  // the JSON data model: undefined/function properties absent, NaN/Infinity null, -0 is 0
  assert.equal(
    skillFingerprint({
      capabilities: { streaming: NaN, pushNotifications: undefined },
      skills: [{ id: undefined, inputModes: [undefined, NaN] }],
    }),
    skillFingerprint({ capabilities: { streaming: null }, skills: [{ inputModes: [null, null] }] }),
  );
  assert.equal(
    skillFingerprint({ skills: [{ id: -0 }] }),
    skillFingerprint({ skills: [{ id: 0 }] }),
  );
});

test('does not mutate the card', () => {
  const card = {
    skills: [
      { id: 'b', inputModes: ['z', 'a'] },
      { id: 'a', outputModes: ['y', 'x', 'w'] },
    ],
  };
  const before = JSON.stringify(card);
  skillFingerprint(card);
  assert.equal(JSON.stringify(card), before);
});

test('bad inputs never throw and give a deterministic 64-hex fingerprint', () => {
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error('get');
      },
      getPrototypeOf() {
        throw new Error('proto');
      },
      ownKeys() {
        throw new Error('keys');
      },
    },
  );
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  let deep: unknown = 'x';
  for (let i = 0; i < 5000; i++) deep = [deep];
  const getterThrows = {
    get skills(): unknown {
      throw new Error('nope');
    },
  };
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const odd: unknown[] = [
    throwing,
    { skills: throwing },
    { skills: [throwing] },
    { skills: [{ id: throwing }, { id: 'a' }] },
    { skills: [{ id: cyclic }] },
    { skills: [{ id: [cyclic] }, { id: [cyclic] }] },
    { skills: [{ id: deep }] },
    { skills: [{ id: 'a', inputModes: [deep, deep] }] },
    getterThrows,
    revocable.proxy,
    { skills: [revocable.proxy] },
    { capabilities: throwing },
    {
      skills: [
        { id: Symbol('s') },
        { id: () => 1 },
        { id: 3n },
        { id: new Date(0) },
        { id: new Map() },
      ],
    },
    { skills: [{ id: 'a', inputModes: [Symbol('s'), 1n, 2] }] },
    { skills: new Array(3) },
    { skills: [{ id: 'a', inputModes: new Array(2) }] },
    Object.create({ skills: [{ id: 'inherited' }] }),
    Object.create(null),
  ];
  for (const card of odd) {
    const a = skillFingerprint(card);
    assert.match(a, HEX64);
    assert.equal(skillFingerprint(card), a, 'deterministic');
  }
  // inherited properties are not the card's (JSON data model)
  assert.equal(
    skillFingerprint(Object.create({ skills: [{ id: 'inherited' }] })),
    skillFingerprint({}),
  );
  // a throwing or too deep card is read as {}
  assert.equal(skillFingerprint(throwing), skillFingerprint({}));
  assert.equal(skillFingerprint({ skills: [{ id: deep }] }), skillFingerprint({}));

  fc.assert(
    fc.property(
      fc.anything({
        withBigInt: true,
        withBoxedValues: true,
        withDate: true,
        withMap: true,
        withSet: true,
        withNullPrototype: true,
        withObjectString: true,
        withSparseArray: true,
        withTypedArray: true,
        maxDepth: 4,
      }),
      fc.anything({
        withBigInt: true,
        withNullPrototype: true,
        withSparseArray: true,
        maxDepth: 3,
      }),
      (junk, junk2) => {
        for (const card of [
          junk,
          { skills: junk },
          { skills: [junk, junk2] },
          { skills: [{ id: junk }, { id: junk2 }] },
          { skills: [{ id: 'a', inputModes: junk, outputModes: [junk, junk2] }] },
          { capabilities: junk },
        ]) {
          const fp = skillFingerprint(card);
          assert.match(fp, HEX64);
          assert.equal(skillFingerprint(card), fp);
        }
      },
    ),
    { numRuns: 500, seed: 7 },
  );
});
