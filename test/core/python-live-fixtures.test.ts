/**
 * The wire RECORDED from live Python agents (issue 29; test/fixtures/{a2a-python-live,
 * google-adk-python-live,fasta2a-live,strands-live,...}, each with its README and record.mjs under
 * test/real-world/python/<impl>/) fed to the core decoders and the judge, so `npm test` checks
 * them without Python installed. Every exchange is replayed from its `<name>.meta.json` (the
 * request as sent) against the card the healthy server served (`card.json`): the verdict each
 * one should get is in EXPECTED; every exchange not named there must get none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCard } from '../../src/core/card';
import { decodeResponse, decodeStreamEvent } from '../../src/core/protocol/results';
import { decodeJsonRpcRequest } from '../../src/core/protocol/jsonrpc';
import { decodeHttpJsonRequest } from '../../src/core/protocol/http-json';
import { SseParser } from '../../src/core/sse';
import { judge, type JudgeOptions } from '../../src/core/judge';
import { resolveConfig } from '../../src/config';
import type { DecodedCard, DecodedRequest } from '../../src/core/model';
import { skillFingerprint } from '../../src/index';
import { skillAliases } from '../../src/core/skill-names';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = join(__dirname, '..', 'fixtures');
const defaults = resolveConfig({});
const opts: JudgeOptions = {
  unknownSkillPatterns: defaults.unknownSkillPatterns,
  unsupportedModePatterns: defaults.unsupportedModePatterns,
  strictTextParts: defaults.strictTextParts,
};

interface Exchange {
  name: string;
  file: string;
  method: string;
  path: string;
  status: number;
}

/** The drift kinds (deduplicated, in order) the judge gives the exchange's results. */
function verdicts(impl: string, card: DecodedCard, ex: Exchange): string[] {
  const meta = JSON.parse(readFileSync(join(FIXTURES, impl, `${ex.name}.meta.json`), 'utf8'));
  const body = meta.request.body as Json | null;
  let req: DecodedRequest | undefined;
  if (body && body.jsonrpc === '2.0') req = decodeJsonRpcRequest(body);
  else if (body) req = decodeHttpJsonRequest('POST', meta.request.path as string, body);
  if (!req) return [];
  const skillId = (body?.params?.metadata?.skillId ??
    body?.metadata?.skillId ??
    body?.params?.message?.metadata?.skillId) as string | undefined;
  // (GetTask and a request the SDK rejects before any skill: judged without a skill id)
  const skill = card.skills.find((s) => s.id === skillId);
  const ctx = {
    skillId,
    cardKnown: true,
    cardUrl: 'http://127.0.0.1/.well-known/agent-card.json',
    agentName: card.name,
    cardVersion: card.version,
    skillInCard: skillId === undefined ? undefined : skill !== undefined,
    outputModes: skill?.outputModes,
    // what negotiation adds: the skill's other names in the card (ADK: the tool)
    skillAliases:
      skillId === undefined
        ? undefined
        : skillAliases(card, new Map(card.skills.map((s) => [s.id, s])), skillId),
  };
  const text = readFileSync(join(FIXTURES, impl, ex.file), 'utf8');
  const results = [];
  if (ex.file.endsWith('.sse')) {
    const parser = new SseParser();
    const events = [...parser.push(text), ...parser.end()];
    for (const e of events) results.push(decodeStreamEvent(JSON.parse(e.data), req, e.event));
  } else {
    // a non-JSON body (a 404 page): decoded as the string it is
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    results.push(decodeResponse(body, req, ex.status));
  }
  const kinds: string[] = [];
  for (const r of results) {
    const k = judge(req, ctx, r, opts).drift?.kind;
    if (k !== undefined && !kinds.includes(k)) kinds.push(k);
  }
  return kinds;
}

/** Exchange name → the verdicts it must get; every other exchange: none. */
const EXPECTED: Record<string, Record<string, string[]>> = {
  'a2a-python-live': {
    'rest.message-send.invalid-params': ['invalid_params'],
    'rest.message-stream.invalid-params': ['invalid_params'],
    'jsonrpc.send-streaming-message.invalid-params': ['invalid_params'],
    'jsonrpc.send-message.invalid-params': ['invalid_params'],
    'rest.message-send.empty-parts': [], // the SDK's own validation, not the skill's (no skill id)
    'variant-a.jsonrpc.send-message.unknown-skill': ['unknown_skill'],
    'variant-a.jsonrpc-v0.3.message-send.unknown-skill': ['unknown_skill'],
    'variant-a.rest.message-stream.unknown-skill': ['unknown_skill'],
    'variant-a-raise.jsonrpc.send-message.unknown-skill': ['unknown_skill'],
    'variant-a-raise.jsonrpc-v0.3.message-send.unknown-skill': ['unknown_skill'],
    'variant-a-raise.jsonrpc.send-streaming-message.unknown-skill': ['unknown_skill'],
    // HTTP 500 "unknown exception": the text never reaches the client
    'variant-a-raise.rest.message-send.unknown-skill': [],
    'variant-b.jsonrpc.send-message.image': ['output_mode_mismatch'],
    'variant-b.jsonrpc-v0.3.message-send.image': ['output_mode_mismatch'],
  },
  // The task completes; the model repeats the framework's tool error: content evidence (the
  // telemetry layer confirms it by fetching the card again, see test/real-world/python-*.test.ts).
  'google-adk-python-live': {
    'variant-a.jsonrpc.send-message.translate': ['unknown_skill'],
    'variant-a.jsonrpc.send-streaming-message.translate': ['unknown_skill'],
    'variant-a.jsonrpc-v0.3.message-send.translate': ['unknown_skill'],
  },
  'fasta2a-live': { 'variant-a.jsonrpc.send-streaming-message.translate': ['unknown_skill'] },
  // Strands: the tool result "Unknown tool: translate", repeated by the model (the generic rule)
  'strands-live': {
    'variant-a.jsonrpc-v0.3.message-send.translate': ['unknown_skill'],
    'variant-a.jsonrpc-v0.3.message-stream.translate': ['unknown_skill'],
  },
};
/** Known gaps: none now (ADK-Py and fasta2a's variant A were, until their phrasings). */
const KNOWN_GAPS: Record<string, string[]> = {};

for (const impl of Object.keys(EXPECTED)) {
  const index = JSON.parse(readFileSync(join(FIXTURES, impl, 'index.json'), 'utf8')) as {
    recordedWith: Record<string, string>;
    exchanges: Exchange[];
  };
  const rawCard = readFileSync(join(FIXTURES, impl, 'card.json'), 'utf8');
  const card = decodeCard(JSON.parse(rawCard));

  test(`${impl} (${JSON.stringify(index.recordedWith)}): the recorded card decodes; fingerprint = the seed's in python3`, (t) => {
    assert.equal(card.problem, undefined);
    assert.ok(card.skills.length >= 2);
    const fp = skillFingerprint(JSON.parse(rawCard) as never);
    try {
      assert.equal(pythonSeedFingerprint(rawCard), fp);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') t.skip('python3 is not installed');
      else throw e;
    }
  });

  for (const ex of index.exchanges) {
    if (ex.method !== 'POST') continue;
    const gap = KNOWN_GAPS[impl]?.includes(ex.name);
    const expected = gap ? ['unknown_skill'] : (EXPECTED[impl][ex.name] ?? []);
    test(
      `${impl} ${ex.name} → ${expected.length ? expected.join(', ') : 'no drift'}`,
      gap
        ? {
            todo: 'missed variant A: the framework tells the model, the task completes (see the live test)',
          }
        : {},
      () => {
        const got = verdicts(impl, card, ex);
        assert.deepEqual(got, expected);
      },
    );
  }
}
