/**
 * Row 6: fingerprinting and judging, per call (the pure core, imported from src/core).
 *
 *   node --import tsx bench/micro.ts          (prints; sends figures over IPC when forked)
 *
 * - skillFingerprint of a 20-skill Agent Card, both in the 0.3 wire shape (the card of
 *   bench/core-bench.ts) and in the 1.0 shape `@a2a-js/sdk` serves.
 * - decodeResponse + judge of a typical 1.0 JSON-RPC SendMessage response (as the SDK
 *   peer sends it: a COMPLETED task, one text/markdown artifact, the history), already
 *   parsed; and the same including JSON.parse of the body text, which is what the
 *   instrumentation does per response.
 * - For information: classifyRequest of that SendMessage request, and of non-A2A requests.
 */
import { resolveConfig } from '../src/config';
import { classifyRequest } from '../src/core/classify';
import { skillFingerprint } from '../src/core/fingerprint';
import { judge, type NegotiationContext } from '../src/core/judge';
import type { DecodedRequest } from '../src/core/model';
import { decodeResponse } from '../src/core/protocol/results';
import { measure, type MeasureResult } from './measure';
import { envNumber } from './stats';
import { realisticCard, sdkCard10, SEND_REQUEST_BODY, SEND_RESPONSE_BODY } from './fixtures';

export interface MicroResults {
  fingerprint20v03: MeasureResult;
  fingerprint20v10: MeasureResult;
  decodeJudge: MeasureResult;
  parseDecodeJudge: MeasureResult;
  classifySend: MeasureResult;
  classifyPlainGet: MeasureResult;
  classifyPlainPost: MeasureResult;
  judgeVerdict: string;
}

function main(): void {
  const rounds = envNumber('BENCH_MICRO_ROUNDS', 5, 3);
  const samples = envNumber('BENCH_MICRO_SAMPLES', 2000, 500);
  const opts = { rounds, samples, warmup: envNumber('BENCH_MICRO_WARMUP', 20_000, 5_000) };

  const card03 = realisticCard(20);
  const card10 = sdkCard10(20);
  const fingerprint20v03 = measure(
    'skillFingerprint (20-skill card, 0.3 shape)',
    () => skillFingerprint(card03),
    opts,
  );
  const fingerprint20v10 = measure(
    'skillFingerprint (20-skill card, 1.0 SDK shape)',
    () => skillFingerprint(card10),
    opts,
  );

  const cfg = resolveConfig({});
  const url = 'http://127.0.0.1:38473/a2a/jsonrpc';
  const cls = classifyRequest('POST', url, SEND_REQUEST_BODY, {
    skillIdPaths: cfg.skillIdPaths,
    a2aVersionHeader: '1.0',
    maxBodyBytes: cfg.maxRequestBodyBytes,
  });
  if (!cls || cls.type !== 'operation')
    throw new Error('the SendMessage request did not classify as an operation');
  const req: DecodedRequest = cls.request;
  const ctx: NegotiationContext = {
    skillId: 'summarize-v2',
    cardKnown: true,
    cardUrl: 'http://127.0.0.1:38473/.well-known/agent-card.json',
    fingerprint: skillFingerprint(card10),
    agentName: 'sdk-peer',
    cardVersion: '1.0',
    skillInCard: true,
    outputModes: ['text/markdown'],
  };
  const parsed = JSON.parse(SEND_RESPONSE_BODY) as unknown;
  const check = judge(req, ctx, decodeResponse(parsed, req, 200), cfg);
  const judgeVerdict = check.drift
    ? `drift ${check.drift.kind}`
    : check.unjudged
      ? `unjudged: ${check.unjudged}`
      : 'no drift (judged)';
  const decodeJudge = measure(
    'decodeResponse + judge (1.0 SendMessage, parsed)',
    () => judge(req, ctx, decodeResponse(parsed, req, 200), cfg),
    opts,
  );
  const parseDecodeJudge = measure(
    'JSON.parse + decodeResponse + judge',
    () => {
      const body = JSON.parse(SEND_RESPONSE_BODY) as unknown;
      return judge(req, ctx, decodeResponse(body, req, 200), cfg);
    },
    opts,
  );
  const classifySend = measure(
    'classifyRequest (SendMessage body)',
    () =>
      classifyRequest('POST', url, SEND_REQUEST_BODY, {
        skillIdPaths: cfg.skillIdPaths,
        a2aVersionHeader: '1.0',
        maxBodyBytes: cfg.maxRequestBodyBytes,
      }),
    opts,
  );
  const plainBody =
    '{"query":"wireless headphones","limit":10,"filters":{"priceMax":200,"brands":["acme","globex"],"inStock":true},"session":{"user":"u-1234","locale":"en-GB"}}';
  const classifyPlainGet = measure(
    'classifyRequest (non-A2A GET)',
    () =>
      classifyRequest('GET', 'http://127.0.0.1:33565/api/items/123', undefined, {
        skillIdPaths: cfg.skillIdPaths,
        maxBodyBytes: cfg.maxRequestBodyBytes,
      }),
    { ...opts, batch: 10 },
  );
  const classifyPlainPost = measure(
    'classifyRequest (non-A2A JSON POST)',
    () =>
      classifyRequest('POST', 'http://127.0.0.1:33565/api/search', plainBody, {
        skillIdPaths: cfg.skillIdPaths,
        maxBodyBytes: cfg.maxRequestBodyBytes,
      }),
    { ...opts, batch: 10 },
  );

  const results: MicroResults = {
    fingerprint20v03,
    fingerprint20v10,
    decodeJudge,
    parseDecodeJudge,
    classifySend,
    classifyPlainGet,
    classifyPlainPost,
    judgeVerdict,
  };
  console.log(`judge verdict on the typical response: ${judgeVerdict}`);
  if (process.send) process.send({ type: 'result', result: results }, () => process.exit(0));
}

if (require.main === module) main();
