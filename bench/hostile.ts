/**
 * Hostile inputs for the two pure parts a peer can make expensive (issue 15, items 1 and
 * 12): the skill fingerprint of a card, and the JSON parse of a body for inspection.
 *
 *   node --import tsx bench/hostile.ts
 *   HOSTILE_BASELINE=/tmp/base node --import tsx bench/hostile.ts   (another copy of
 *       fingerprint.ts, json-path.ts and memo.ts, e.g. `git show HEAD~1:src/core/…`)
 *
 * Prints, per case, the median wall time of one call (HOSTILE_RUNS runs, default 7, and
 * at most ~HOSTILE_MAX_MS per case, default 4000) and what came out: a fingerprint prefix,
 * "ok", or the problem reported. Normal inputs are included to show they did not get
 * slower. It asserts nothing; the bounds themselves are tested in
 * test/hardening/hostile-input.test.ts.
 */
import { join, resolve } from 'node:path';
import { realisticCard, SEND_RESPONSE_BODY } from './fixtures';
import { median } from './stats';

type FingerprintModule = {
  skillFingerprint(card: unknown): string;
  skillFingerprintBounded?: (card: unknown) => { fingerprint?: string; problem?: string };
};
type JsonModule = {
  parseJsonSafe(text: string): { ok: true; value: unknown } | { ok: false; problem: string };
};

const RUNS = Number(process.env.HOSTILE_RUNS ?? 7) || 7;
const MAX_MS = Number(process.env.HOSTILE_MAX_MS ?? 4000) || 4000;

function nestedList(depth: number, leaf: number): string {
  return '['.repeat(depth) + String(leaf) + ']'.repeat(depth);
}

function cardText(skills: string): string {
  return `{"name":"hostile","url":"http://peer.example/a2a","version":"1","capabilities":{},"skills":${skills}}`;
}

/** The card: one skill whose inputModes are `copies` lists nested `depth` deep, differing at the bottom. */
function deepModesCard(depth: number, copies: number): string {
  const modes = Array.from({ length: copies }, (_, i) => nestedList(depth, i)).join(',');
  return cardText(`[{"id":"s","name":"s","inputModes":[${modes}]}]`);
}

function fingerprintCases(): [string, string][] {
  const bigString = 'x'.repeat(1 << 20);
  const prefix = '\u00e9'.repeat(2000);
  const asciiPrefix = 'x'.repeat(4000);
  return [
    ['normal card, 20 skills', JSON.stringify(realisticCard(20))],
    ['normal card, 2,000 skills', JSON.stringify(realisticCard(2000))],
    ['modes nested 900 deep x 50 (issue: 90 KB)', deepModesCard(900, 50)],
    ['modes nested 990 deep x 400 (0.7 MB)', deepModesCard(990, 400)],
    [
      'a mode given as one 1 MiB string',
      cardText(`[{"id":"s","inputModes":${JSON.stringify(bigString)}}]`),
    ],
    [
      '1,000 modes, 4 KB ASCII common prefix',
      cardText(
        `[{"id":"s","inputModes":${JSON.stringify(Array.from({ length: 1000 }, (_, i) => asciiPrefix + String(i)))}}]`,
      ),
    ],
    [
      '1,000 modes, 4 KB non-ASCII common prefix',
      cardText(
        `[{"id":"s","inputModes":${JSON.stringify(Array.from({ length: 1000 }, (_, i) => prefix + String(i)))}}]`,
      ),
    ],
    [
      '1,000 modes, 4 KB prefix with U+E000',
      cardText(
        `[{"id":"s","inputModes":${JSON.stringify(Array.from({ length: 1000 }, (_, i) => '\ue000'.repeat(1300) + String(i)))}}]`,
      ),
    ],
    [
      '1,000 one-string lists, 4 KB non-ASCII prefix',
      cardText(
        `[{"id":"s","inputModes":${JSON.stringify(Array.from({ length: 1000 }, (_, i) => [prefix + String(i)]))}}]`,
      ),
    ],
    [
      '5,000 dict modes of 20 keys',
      cardText(
        `[{"id":"s","inputModes":${JSON.stringify(Array.from({ length: 5000 }, (_, i) => Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`k${(k * 7 + i) % 20}`, i % 3]))))}}]`,
      ),
    ],
    [
      '100,000 skills with numeric ids',
      cardText(
        JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ id: (i * 7919) % 100_000 }))),
      ),
    ],
  ];
}

function jsonCases(): [string, string][] {
  const n = 4 * 1024 * 1024;
  const doc = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'task',
      id: 't',
      artifacts: Array.from({ length: 20_000 }, (_, i) => ({
        artifactId: `a${i}`,
        parts: [{ kind: 'text', text: `hello "world" \\ ${i} `.repeat(5) }],
      })),
    },
  };
  const deep = 1000;
  return [
    ['A2A response, 1 KB', SEND_RESPONSE_BODY],
    ['A2A response, 3.4 MB (20,000 artifacts)', JSON.stringify(doc)],
    ['same, pretty-printed', JSON.stringify(doc, null, 2)],
    ['arrays nested 2M deep (4 MiB)', '['.repeat(n / 2) + ']'.repeat(n / 2)],
    [
      '2,000 arrays nested 1,000 deep (4 MiB)',
      '[' +
        Array(Math.floor(n / (2 * deep + 1)))
          .fill(nestedList(deep, 0))
          .join(',') +
        ']',
    ],
    [
      '4 MiB object, 330,000 distinct keys',
      '{' + Array.from({ length: Math.floor(n / 13) }, (_, i) => `"k${i}":0`).join(',') + '}',
    ],
    [
      '4 MiB of empty objects',
      '[' +
        Array(Math.floor(n / 3))
          .fill('{}')
          .join(',') +
        ']',
    ],
    ['BOM-prefixed A2A response', '\uFEFF' + SEND_RESPONSE_BODY],
  ];
}

function time(fn: () => string): { ms: number; out: string; runs: number } {
  const times: number[] = [];
  let out = '';
  const started = Date.now();
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    out = fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (Date.now() - started > MAX_MS) break;
  }
  return { ms: median(times), out, runs: times.length };
}

function row(name: string, bytes: number, r: { ms: number; out: string; runs: number }): void {
  const size =
    bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
      : `${(bytes / 1024).toFixed(1)} KiB`;
  const ms = r.ms < 10 ? r.ms.toFixed(3) : r.ms.toFixed(1);
  console.log(
    `  ${name.padEnd(46)} ${size.padStart(9)} ${ms.padStart(9)} ms  (n=${r.runs})  ${r.out}`,
  );
}

async function main(): Promise<void> {
  const base = process.env.HOSTILE_BASELINE
    ? resolve(process.env.HOSTILE_BASELINE)
    : join(__dirname, '..', 'src', 'core');
  const fp = (await import(join(base, 'fingerprint.ts'))) as FingerprintModule;
  const js = (await import(join(base, 'json-path.ts'))) as JsonModule;
  console.log(`hostile inputs (${base}); median of up to ${RUNS} runs, Node ${process.version}`);

  console.log('skill fingerprint of a parsed card:');
  for (const [name, text] of fingerprintCases()) {
    const card = JSON.parse(text) as unknown;
    fp.skillFingerprint(card); // warm-up
    const r = time(() => {
      if (fp.skillFingerprintBounded) {
        const b = fp.skillFingerprintBounded(card);
        return b.fingerprint !== undefined
          ? `fp ${b.fingerprint.slice(0, 12)}`
          : `problem: ${b.problem}`;
      }
      return `fp ${fp.skillFingerprint(card).slice(0, 12)}`;
    });
    row(name, Buffer.byteLength(text), r);
  }

  console.log('parseJsonSafe of a body:');
  for (const [name, text] of jsonCases()) {
    js.parseJsonSafe(text); // warm-up
    const r = time(() => {
      const p = js.parseJsonSafe(text);
      return p.ok ? 'ok' : `problem: ${p.problem}`;
    });
    row(name, Buffer.byteLength(text), r);
  }
}

void main();
