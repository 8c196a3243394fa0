/**
 * The drift judgement: request + negotiation context + one response or stream event
 * → at most one drift event, or the reason it could not be judged. Pure and total.
 *
 * The rules are the seed's decision boundary, widened to every protocol version:
 * - a failed task whose status text matches the unknown-skill / unsupported-mode
 *   patterns → unknown_skill / unsupported_mode (StaleAgentCardError);
 * - JSON-RPC -32005 → unsupported_mode; -32602 on a request whose skill the card
 *   lists → invalid_params (StaleAgentCardError);
 * - a request naming a skill the card in use does not list → skill_not_in_card;
 * - an artifact part whose media type is outside the skill's output modes in the card
 *   used at negotiation → output_mode_mismatch (ArtifactSchemaDriftError).
 */
import type { DriftKind } from './drift-kinds';
import { ArtifactSchemaDriftError, StaleAgentCardError } from './errors';
import { fingerprintPrefix } from './fingerprint';
import { partMatchesModes } from './media-type';
import type { DecodedResult, DecodedRequest } from './model';

/** A failure pattern, compiled. `label` is what is reported (never the matched text). */
export interface TextMatcher {
  label: string;
  test(text: string): boolean;
}

/** Strings match case-insensitively as substrings; regular expressions are made case-insensitive. */
export function compilePatterns(patterns: ReadonlyArray<string | RegExp>): TextMatcher[] {
  const out: TextMatcher[] = [];
  for (const p of patterns) {
    if (typeof p === 'string') {
      if (p.length === 0) continue;
      const needle = p.toLowerCase();
      out.push({ label: p, test: (text) => text.toLowerCase().includes(needle) });
    } else if (p instanceof RegExp) {
      const flags = p.flags.replace(/[gy]/g, '');
      const re = new RegExp(p.source, flags.includes('i') ? flags : flags + 'i');
      out.push({ label: String(p), test: (text) => re.test(text) });
    }
  }
  return out;
}

/** What the client negotiated with: the card in use for this task's skill, at negotiation time. */
export interface NegotiationContext {
  skillId?: string;
  /** Whether a card is known for the endpoint (false: nothing can be said about skills or modes). */
  cardKnown: boolean;
  cardUrl?: string;
  fingerprint?: string;
  agentName?: string;
  cardVersion?: string;
  /** Whether the card in use lists `skillId` (only meaningful when cardKnown and skillId). */
  skillInCard?: boolean;
  /** That skill's effective output modes in the card in use. */
  outputModes?: readonly string[];
}

export interface JudgeOptions {
  unknownSkillPatterns: readonly TextMatcher[];
  unsupportedModePatterns: readonly TextMatcher[];
  strictTextParts: boolean;
}

export interface DriftEvent {
  kind: DriftKind;
  error: StaleAgentCardError | ArtifactSchemaDriftError;
  skillId?: string;
  taskId?: string;
  cardUrl?: string;
  agentName?: string;
  fingerprint?: string;
  /** card_changed: the fingerprint before the re-fetch. */
  previousFingerprint?: string;
  expectedModes?: readonly string[];
  actualMediaType?: string;
  matchedPattern?: string;
  rpcCode?: number;
}

export interface Judgement {
  drift?: DriftEvent;
  /** Set when something that could have shown drift could not be judged. */
  unjudged?: string;
}

const NONE: Judgement = {};

/** Values the peer controls are cut to this many characters in error messages (they end up in span status and exception events). */
const MAX_MESSAGE_VALUE = 256;
const MAX_MESSAGE_MODES = 8;

function short(v: string): string {
  return v.length > MAX_MESSAGE_VALUE ? `${v.slice(0, MAX_MESSAGE_VALUE)}…` : v;
}

function modesText(modes: readonly string[]): string {
  const shown = modes.slice(0, MAX_MESSAGE_MODES).map((m) => short(String(m)));
  const more = modes.length > MAX_MESSAGE_MODES ? ` and ${modes.length - MAX_MESSAGE_MODES} more` : '';
  return `${JSON.stringify(shown)}${more}`;
}

function refetchAdvice(ctx: NegotiationContext): string {
  const fp = ctx.fingerprint ? ` (cached fingerprint ${fingerprintPrefix(ctx.fingerprint)}…, version ${JSON.stringify(short(ctx.cardVersion ?? ''))})` : '';
  const where = ctx.cardUrl ? ` from ${short(ctx.cardUrl)}` : '';
  return `${fp}: re-fetch the Agent Card${where} before retrying`;
}

function skillLabel(skillId: string | undefined): string {
  return skillId === undefined ? 'a task with no known skill id' : `skillId=${JSON.stringify(short(skillId))}`;
}

function stale(kind: DriftKind, message: string, ctx: NegotiationContext, taskId: string | undefined, extra: Partial<DriftEvent> = {}): Judgement {
  const details = { kind, skillId: ctx.skillId, taskId, cardUrl: ctx.cardUrl, fingerprint: ctx.fingerprint };
  return {
    drift: {
      kind,
      error: new StaleAgentCardError(message, details),
      skillId: ctx.skillId,
      taskId,
      cardUrl: ctx.cardUrl,
      agentName: ctx.agentName,
      fingerprint: ctx.fingerprint,
      ...extra,
    },
  };
}

function firstMatch(matchers: readonly TextMatcher[], text: string): TextMatcher | undefined {
  for (const m of matchers) {
    try {
      if (m.test(text)) return m;
    } catch {
      // a user pattern that throws matches nothing
    }
  }
  return undefined;
}

const FAILED_STATES = new Set(['TASK_STATE_FAILED', 'TASK_STATE_REJECTED']);
const NO_ARTIFACT_STATES = new Set(['TASK_STATE_FAILED', 'TASK_STATE_REJECTED', 'TASK_STATE_CANCELED']);

/**
 * Judge one response (or stream event) of `request`, negotiated under `ctx`.
 * `request` is the call being answered; for a poll (GetTask) the skill and card come
 * from `ctx`, which the caller fills from the SendMessage that created the task.
 */
export function judge(request: DecodedRequest | undefined, ctx: NegotiationContext, result: DecodedResult, opts: JudgeOptions): Judgement {
  try {
    return judgeExchange(request, ctx, result, opts);
  } catch {
    return { unjudged: 'internal error while judging' };
  }
}

/** Patterns are applied to at most this many characters of a status text (the decoders cap it too). */
const MAX_PATTERN_TEXT = 4096;

function judgeExchange(request: DecodedRequest | undefined, ctx: NegotiationContext, result: DecodedResult, opts: JudgeOptions): Judgement {
  const taskId = result.taskId ?? request?.taskId;
  const skill = skillLabel(ctx.skillId);

  // 1. Errors at the protocol layer.
  const err = result.error;
  if (err) {
    if (err.code === -32005) {
      return stale('unsupported_mode', `peer refused ${skill} with JSON-RPC -32005 (content type not supported)${refetchAdvice(ctx)}`, ctx, taskId, { rpcCode: -32005 });
    }
    if (err.code === -32602 && ctx.skillId !== undefined) {
      if (!ctx.cardKnown) return { unjudged: 'invalid params on a skill id, but no Agent Card known for this endpoint' };
      if (ctx.skillInCard) {
        return stale('invalid_params', `peer rejected ${skill} with JSON-RPC -32602 although the cached card lists that skill${refetchAdvice(ctx)}`, ctx, taskId, { rpcCode: -32602 });
      }
      return stale('skill_not_in_card', `peer rejected ${skill}, which the card in use does not list${refetchAdvice(ctx)}`, ctx, taskId, { rpcCode: -32602 });
    }
    return NONE;
  }

  // 2. A failure inside the task lifecycle (the seed's variant A).
  if (result.state !== undefined && FAILED_STATES.has(result.state) && typeof result.statusText === 'string' && result.statusText.length > 0) {
    const text = result.statusText.length > MAX_PATTERN_TEXT ? result.statusText.slice(0, MAX_PATTERN_TEXT) : result.statusText;
    const unknown = firstMatch(opts.unknownSkillPatterns, text);
    if (unknown) {
      return stale('unknown_skill', `peer failed task ${short(taskId ?? '(unknown id)')} for ${skill} after accepting it ("${unknown.label}")${refetchAdvice(ctx)}`, ctx, taskId, { matchedPattern: unknown.label });
    }
    const mode = firstMatch(opts.unsupportedModePatterns, text);
    if (mode) {
      return stale('unsupported_mode', `peer failed task ${short(taskId ?? '(unknown id)')} for ${skill} after accepting it ("${mode.label}")${refetchAdvice(ctx)}`, ctx, taskId, { matchedPattern: mode.label });
    }
  }

  // 3. The client negotiated a skill the card in use does not list.
  if (ctx.skillId !== undefined && ctx.cardKnown && ctx.skillInCard === false) {
    return stale('skill_not_in_card', `${skill} is not in the Agent Card in use, yet the client negotiated it${refetchAdvice(ctx)}`, ctx, taskId);
  }

  // 4. Artifacts against the negotiated output modes (the seed's variant B).
  if (result.artifacts.length === 0 || (result.state !== undefined && NO_ARTIFACT_STATES.has(result.state))) return NONE;
  if (ctx.skillId === undefined) return { unjudged: 'no skill id for this task' };
  if (!ctx.cardKnown) return { unjudged: 'no Agent Card known for this endpoint' };
  const modes = ctx.outputModes;
  if (!modes || modes.length === 0) return { unjudged: 'the skill advertises no output modes' };
  let unjudged: string | undefined;
  for (const artifact of result.artifacts) {
    for (const part of artifact.parts) {
      const verdict = partMatchesModes(part, modes as string[], { strictTextParts: opts.strictTextParts });
      if (verdict === 'mismatch') {
        const actual = part.mediaType ?? (part.kind === 'text' ? 'text/plain' : part.kind === 'data' ? 'application/json' : part.kind);
        const error = new ArtifactSchemaDriftError(
          `${skill} returned a part of type ${JSON.stringify(short(actual))} outside the output modes ${modesText(modes)} advertised by the card used at negotiation: the peer may have reused the skill id for a different capability${refetchAdvice(ctx)}`,
          { kind: 'output_mode_mismatch', skillId: ctx.skillId, taskId, cardUrl: ctx.cardUrl, fingerprint: ctx.fingerprint },
        );
        return {
          drift: {
            kind: 'output_mode_mismatch',
            error,
            skillId: ctx.skillId,
            taskId,
            cardUrl: ctx.cardUrl,
            agentName: ctx.agentName,
            fingerprint: ctx.fingerprint,
            expectedModes: modes,
            actualMediaType: actual,
          },
        };
      }
      if (verdict === 'unjudgeable') unjudged = 'an artifact part has no media type to judge';
    }
  }
  return unjudged ? { unjudged } : NONE;
}

/** card_changed: a card fetched again has another fingerprint under the same version. */
export function judgeCardChange(
  cardUrl: string,
  agentName: string | undefined,
  version: string | undefined,
  previousFingerprint: string,
  fingerprint: string,
): DriftEvent {
  const message =
    `Agent Card at ${short(cardUrl)} changed its skills or capabilities (fingerprint ${fingerprintPrefix(previousFingerprint)}… → ${fingerprintPrefix(fingerprint)}…) ` +
    `without a version change (version ${JSON.stringify(short(version ?? ''))}): clients holding the earlier card must re-fetch it`;
  return {
    kind: 'card_changed',
    error: new StaleAgentCardError(message, { kind: 'card_changed', cardUrl, fingerprint }),
    cardUrl,
    agentName,
    fingerprint,
    previousFingerprint,
  };
}
