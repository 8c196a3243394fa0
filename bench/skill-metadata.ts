/**
 * What reading skill ids from metadata costs on a request whose metadata has many keys: the
 * JSON parse of the body (which the package does anyway) beside the decode of the parsed body
 * plus skillOfRequest (src/core/protocol/common.ts, src/core/skill-names.ts). The rule tests at
 * most 64 keys per metadata object; enumerating the first keys of an object of thousands costs
 * the engine time proportional to its size (V8 collects the keys of a dictionary-mode object),
 * which this shows against the parse.
 *
 *   node --import tsx bench/skill-metadata.ts
 *
 * Prints the median µs per request of each, per key count. It asserts nothing; the bound is
 * tested in test/core/skill-of-request.test.ts.
 */
import { decodeJsonRpcRequest } from '../src/core/protocol/jsonrpc';
import { skillOfRequest } from '../src/core/skill-names';
import type { SkillInfo } from '../src/core/model';
import { median } from './stats';

const skills = new Map<string, SkillInfo>([
  ['translate', { id: 'translate', inputModes: [], outputModes: ['text/plain'] }],
  ['summarize', { id: 'summarize', inputModes: [], outputModes: ['text/markdown'] }],
]);

function bodyText(keys: number): string {
  const metadata: Record<string, unknown> = {};
  for (let i = 0; i < keys; i++) metadata[`k${i}`] = i;
  metadata['a2a.skillId'] = 'translate';
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }], metadata } },
  });
}

function timeUs(n: number, fn: () => void): number {
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    runs.push(Number(process.hrtime.bigint() - t) / n / 1000);
  }
  return median(runs);
}

for (const keys of [1, 60, 1_000, 5_000, 50_000]) {
  const text = bodyText(keys);
  const body = JSON.parse(text) as unknown;
  const n = keys >= 5_000 ? 20 : 2_000;
  const parse = timeUs(n, () => JSON.parse(text));
  const read = timeUs(n, () => {
    const req = decodeJsonRpcRequest(body);
    if (req !== undefined) skillOfRequest(req, { skills });
  });
  const found = skillOfRequest(decodeJsonRpcRequest(body)!, { skills })?.source ?? 'none';
  console.log(
    `metadata keys ${String(keys).padStart(6)}: JSON.parse ${parse.toFixed(1).padStart(9)} µs, decode + skillOfRequest ${read.toFixed(1).padStart(9)} µs (skill: ${found})`,
  );
}
