/**
 * Replays one exchange recorded from a live server (test/fixtures/<impl>/<name>.meta.json + its
 * body file, written by test/real-world/record-lib.mjs) through the core decoders and the judge,
 * against the card the healthy server served: the drift kinds it gets. Used by
 * test/core/go-live-fixtures.test.ts and test/core/python-live-fixtures.test.ts.
 * A `.txt` body (a server that answered JSON as text/plain) is parsed as JSON, as the
 * instrumentation does (core/body-reader `bodyModeOf`); a body that is not JSON (a 404 page) is
 * decoded as the string it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeResponse, decodeStreamEvent } from '../../src/core/protocol/results';
import { decodeJsonRpcRequest } from '../../src/core/protocol/jsonrpc';
import { decodeHttpJsonRequest } from '../../src/core/protocol/http-json';
import { SseParser } from '../../src/core/sse';
import { judge, type JudgeOptions, type Judgement } from '../../src/core/judge';
import { resolveConfig } from '../../src/config';
import type { DecodedCard, DecodedRequest } from '../../src/core/model';
import { skillAliases } from '../../src/core/skill-names';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RecordedExchange {
  name: string;
  file: string;
  method: string;
  path: string;
  status: number;
}

const defaults = resolveConfig({});
const opts: JudgeOptions = {
  unknownSkillPatterns: defaults.unknownSkillPatterns,
  unsupportedModePatterns: defaults.unsupportedModePatterns,
  strictTextParts: defaults.strictTextParts,
};

/** The drift kinds (deduplicated, in order) the judge gives the exchange's results. */
export function replayVerdicts(dir: string, card: DecodedCard, ex: RecordedExchange): string[] {
  const kinds: string[] = [];
  for (const j of replayJudgements(dir, card, ex)) {
    const k = j.drift?.kind;
    if (k !== undefined && !kinds.includes(k)) kinds.push(k);
  }
  return kinds;
}

/**
 * What raised a suspicion in a recorded exchange (`failure`, `words`), distinct, in order: offline
 * there is no card to fetch again, so a suspicion is where the replay stops.
 */
export function replaySuspicions(dir: string, card: DecodedCard, ex: RecordedExchange): string[] {
  const out: string[] = [];
  for (const j of replayJudgements(dir, card, ex)) {
    const why = j.suspicion?.suspicion;
    if (why !== undefined && !out.includes(why)) out.push(why);
  }
  return out;
}

function replayJudgements(dir: string, card: DecodedCard, ex: RecordedExchange): Judgement[] {
  const meta = JSON.parse(readFileSync(join(dir, `${ex.name}.meta.json`), 'utf8'));
  const body = meta.request.body as Json | null;
  let req: DecodedRequest | undefined;
  if (body && body.jsonrpc === '2.0') req = decodeJsonRpcRequest(body);
  else if (body) req = decodeHttpJsonRequest('POST', meta.request.path as string, body);
  if (!req) return [];
  const skillId = (body?.params?.metadata?.skillId ??
    body?.metadata?.skillId ??
    body?.params?.message?.metadata?.skillId ??
    body?.params?.message?.metadata?.skill_id) as string | undefined;
  // (GetTask and a request rejected before any skill: judged without a skill id)
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
  const text = readFileSync(join(dir, ex.file), 'utf8');
  const results = [];
  if (ex.file.endsWith('.sse')) {
    const parser = new SseParser();
    const events = [...parser.push(text), ...parser.end()];
    for (const e of events) results.push(decodeStreamEvent(JSON.parse(e.data), req, e.event));
  } else {
    let doc: unknown = text;
    try {
      doc = JSON.parse(text);
    } catch {
      // not JSON (net/http's 404 page, an HTML error): decoded as the string it is
    }
    results.push(decodeResponse(doc, req, ex.status));
  }
  return results.map((r) => judge(req, ctx, r, opts));
}
