/**
 * The drift judgement: request + negotiation context + one response or stream event
 * → at most one drift event, or the reason it could not be judged. Pure and total.
 *
 * The rules are the field report's decision boundary, widened to every protocol version and to
 * what real implementations send (see evidence.ts and dialects/):
 * - a failed task whose status text (or, fasta2a, last agent message in history) matches
 *   the unknown-skill / unsupported-mode patterns → unknown_skill / unsupported_mode
 *   (StaleAgentCardError);
 * - a completed task or a Message whose status, answer, artifact or history text says the
 *   REQUESTED skill is missing (`Tool "x" not found`, ...) → unknown_skill;
 * - JSON-RPC -32005, or the reason CONTENT_TYPE_NOT_SUPPORTED (1.0 ErrorInfo; a2a-go's gRPC
 *   sentinel text, dialects/a2a-go.ts) → unsupported_mode; -32602, or INVALID_PARAMS /
 *   INVALID_ARGUMENT on HTTP+JSON and gRPC, on a request whose skill the card lists →
 *   invalid_params; any other error
 *   code (-32603, HTTP 400/500) whose text names the requested skill as missing →
 *   unknown_skill;
 * - a request naming a skill the card in use does not list → skill_not_in_card;
 * - an artifact part whose media type is outside the skill's output modes in the card
 *   used at negotiation → output_mode_mismatch (ArtifactSchemaDriftError).
 */
import { diffCards, type CardDiff } from './card-diff';
import type { DriftKind } from './drift-kinds';
import { ArtifactSchemaDriftError, StaleAgentCardError } from './errors';
import { fingerprintPrefix } from './fingerprint';
import { partMatchesModes, type ModeVerdict } from './media-type';
import { MAX_EVIDENCE_TEXT, absenceNearSkill, missingSkillLabel } from './evidence';
import { isRecord, own } from './json-path';
import { withoutQuery } from './url';
import type {
  DecodedCard,
  DecodedPart,
  DecodedResult,
  DecodedRequest,
  NegotiationContext,
  RpcError,
  Suspicion,
} from './model';

export type { NegotiationContext };
import { compilePatterns, firstMatch, type TextMatcher } from './patterns';

export { compilePatterns, type TextMatcher };

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
  /** Evidence `card`: the fingerprint of the newer card that settled it. */
  currentFingerprint?: string;
  /** card_changed: what changed (card-diff.ts), when the earlier card was still held. */
  diff?: CardDiff;
  /** card_changed: the card alternates between fingerprints already seen (a rolling deploy). */
  flapping?: boolean;
  expectedModes?: readonly string[];
  /**
   * output_mode_mismatch of a call that named no skill: `card` (the part's type is outside every
   * output mode of the card as a whole; no skill id). Undefined: the negotiated skill's modes.
   */
  scope?: 'card';
  /** output_mode_mismatch: the most telling mismatching part's media type. */
  actualMediaType?: string;
  /** output_mode_mismatch: every mismatching media type of the answer (distinct, capped). */
  actualMediaTypes?: readonly string[];
  matchedPattern?: string;
  rpcCode?: number;
  /**
   * What the evidence is: `protocol` (a failed task's status, an error code or text, the
   * request against the card, the media types of the answer) or `content` (the words of a
   * completed answer, artifact or message: written by a model, so a suspicion until the card
   * fetched again confirms it, see confirm.ts) or `card` (a card of the agent itself says the
   * skill is gone or changed: a newer card fetched to settle a suspicion, or an earlier card
   * that listed a skill the card in use does not). Local events only.
   */
  evidence?: 'protocol' | 'content' | 'card';
  /** Evidence `card`: what made the card be looked at (model.ts Suspicion). */
  suspicion?: Suspicion;
  /**
   * Whose evidence: `local` (this process saw the exchange) or `fleet` (an Alertmanager
   * alert raised by another instance; such events carry no fingerprint or task id).
   */
  source?: 'local' | 'fleet';
}

export interface Judgement {
  drift?: DriftEvent;
  /**
   * A reason to look at the card again, not a verdict: a call for a known skill failed, or its
   * answer names the skill with words of absence or failure. Only the card fetched again can
   * make it a drift (confirm.ts): until then no error, no count, no callback.
   */
  suspicion?: DriftEvent;
  /** Set when something that could have shown drift could not be judged. */
  unjudged?: string;
}

const NONE: Judgement = {};

/**
 * Values the peer controls are cut to this many characters in error messages (they end up in span
 * status and exception events).
 */
const MAX_MESSAGE_VALUE = 256;
const MAX_MESSAGE_MODES = 8;

function short(v: string): string {
  return v.length > MAX_MESSAGE_VALUE ? `${v.slice(0, MAX_MESSAGE_VALUE)}…` : v;
}

function modesText(modes: readonly string[]): string {
  const shown = modes.slice(0, MAX_MESSAGE_MODES).map((m) => short(String(m)));
  const more =
    modes.length > MAX_MESSAGE_MODES ? ` and ${modes.length - MAX_MESSAGE_MODES} more` : '';
  return `${JSON.stringify(shown)}${more}`;
}

function refetchAdvice(ctx: NegotiationContext): string {
  const fp = ctx.fingerprint
    ? ` (cached fingerprint ${fingerprintPrefix(ctx.fingerprint)}…, version ${JSON.stringify(short(ctx.cardVersion ?? ''))})`
    : '';
  const where = ctx.cardUrl ? ` from ${short(withoutQuery(ctx.cardUrl))}` : '';
  return `${fp}: re-fetch the Agent Card${where} before retrying`;
}

function skillLabel(skillId: string | undefined): string {
  return skillId === undefined
    ? 'a task with no known skill id'
    : `skillId=${JSON.stringify(short(skillId))}`;
}

/**
 * Evidence that the requested skill is missing: stale card if the card in use lists it, else the
 * client asked for something its card does not offer — unless an earlier card of the agent
 * listed it and the call failed (`failedCall`): the skill was removed under the client.
 */
function missingKind(ctx: NegotiationContext, failedCall: boolean): DriftKind {
  if (!ctx.cardKnown || ctx.skillInCard !== false) return 'unknown_skill';
  return failedCall && ctx.skillInEarlierCard === true ? 'unknown_skill' : 'skill_not_in_card';
}

/**
 * A drift verdict under `ctx`: the event (with the negotiation's skill, card and fingerprint)
 * and its error, a StaleAgentCardError unless `ErrorType` says otherwise.
 */
function drifted(
  kind: DriftKind,
  message: string,
  ctx: NegotiationContext,
  taskId: string | undefined,
  extra: Partial<DriftEvent> = {},
  ErrorType: typeof StaleAgentCardError | typeof ArtifactSchemaDriftError = StaleAgentCardError,
): Judgement {
  const details = {
    kind,
    skillId: ctx.skillId,
    taskId,
    cardUrl: ctx.cardUrl,
    fingerprint: ctx.fingerprint,
  };
  return {
    drift: {
      kind,
      source: 'local',
      evidence: 'protocol',
      error: new ErrorType(message, details),
      skillId: ctx.skillId,
      taskId,
      cardUrl: ctx.cardUrl,
      agentName: ctx.agentName,
      fingerprint: ctx.fingerprint,
      ...extra,
    },
  };
}

/** How telling a mismatching part of each kind is: a file the card never announced, most. */
const TELLING: Record<DecodedPart['kind'], number> = { file: 3, data: 2, text: 1, unknown: 0 };

/** The media type a part is judged as: its own, else its kind's. */
function partMediaType(part: DecodedPart): string {
  return (
    part.mediaType ??
    (part.kind === 'text' ? 'text/plain' : part.kind === 'data' ? 'application/json' : part.kind)
  );
}

/** Media types a JudgeMemo remembers per part kind at most (the peer chooses them). */
const MAX_MEMO_TYPES = 32;
/** A longer media type is judged, not remembered (no essence is longer). */
const MAX_MEMO_TYPE_LENGTH = 255;

/**
 * What one call's judgements can share: the verdict of a part against the call's output modes
 * depends only on the part's kind and media type, the modes and `strictTextParts`, and every
 * word of a streamed answer is a part of the same type. Owned by one call (its modes do not
 * change; the memo forgets everything if they do); optional: `judge` without one decides the same.
 */
export class JudgeMemo {
  private modes: readonly string[] | undefined = undefined;
  private strict = false;
  /** Verdicts per part kind, by media type (undefined: the part states none). */
  private text: Map<string | undefined, ModeVerdict> | undefined = undefined;
  private file: Map<string | undefined, ModeVerdict> | undefined = undefined;
  private data: Map<string | undefined, ModeVerdict> | undefined = undefined;

  /** The verdict of `part` against `modes` (partMatchesModes), remembered. */
  verdict(part: DecodedPart, modes: readonly string[], strictTextParts: boolean): ModeVerdict {
    if (modes !== this.modes || strictTextParts !== this.strict) {
      this.modes = modes;
      this.strict = strictTextParts;
      this.text = this.file = this.data = undefined;
    }
    const kind = part.kind;
    const mediaType = part.mediaType;
    const remembered =
      (mediaType === undefined || mediaType.length <= MAX_MEMO_TYPE_LENGTH) &&
      (kind === 'text' || kind === 'file' || kind === 'data');
    if (!remembered) return partMatchesModes(part, modes as string[], { strictTextParts });
    let known = kind === 'text' ? this.text : kind === 'file' ? this.file : this.data;
    const hit = known?.get(mediaType);
    if (hit !== undefined) return hit;
    const verdict = partMatchesModes(part, modes as string[], { strictTextParts });
    if (known === undefined) {
      known = new Map();
      if (kind === 'text') this.text = known;
      else if (kind === 'file') this.file = known;
      else this.data = known;
    }
    if (known.size < MAX_MEMO_TYPES) known.set(mediaType, verdict);
    return verdict;
  }
}

const FAILED_STATES = new Set(['TASK_STATE_FAILED', 'TASK_STATE_REJECTED']);
const NO_ARTIFACT_STATES = new Set([
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_CANCELED',
]);

/**
 * Judge one response (or stream event) of `request`, negotiated under `ctx`.
 * `request` is the call being answered; for a poll (GetTask) the skill and card come
 * from `ctx`, which the caller fills from the SendMessage that created the task.
 */
export function judge(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  memo?: JudgeMemo,
): Judgement {
  try {
    return judgeExchange(request, ctx, result, opts, memo);
  } catch {
    return { unjudged: 'internal error while judging' };
  }
}

/**
 * INVALID_PARAMS (1.0 ErrorInfo reason) or INVALID_ARGUMENT (google.rpc.Status of the HTTP+JSON
 * binding), or JSON-RPC -32602.
 */
function isInvalidParams(err: RpcError): boolean {
  return (
    err.code === -32602 || err.reason === 'INVALID_PARAMS' || err.reason === 'INVALID_ARGUMENT'
  );
}

/**
 * An error as a drift message names it: `JSON-RPC <jsonRpcCode>` when it is that code, else its
 * code (gRPC status, HTTP status) and reason: `3 CONTENT_TYPE_NOT_SUPPORTED error`.
 */
function errorName(err: RpcError, jsonRpcCode: number, reasonWords: string): string {
  return err.code === jsonRpcCode
    ? `JSON-RPC ${jsonRpcCode}`
    : `${err.code ?? 'an'} ${err.reason ?? reasonWords} error`;
}

/**
 * True when a part of the request's message is outside the skill's input modes in the card in use
 * (MIME rules, lax text).
 */
function requestBreaksInputModes(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
): boolean {
  const parts = request?.messageParts;
  const modes = ctx.inputModes;
  if (!parts || !modes || modes.length === 0) return false;
  for (const part of parts)
    if (partMatchesModes(part, modes as string[], { strictTextParts: false }) === 'mismatch')
      return true;
  return false;
}

/**
 * The peer's error text (message, and `data` when it is a string or has a string `message` or
 * `error`: the Go SDK, a2a-go 0.3, puts the executor's wrapped error text in `data.error`); judge
 * only.
 */
function errorText(err: RpcError): string | undefined {
  const data = err.data;
  let extra: string | undefined;
  if (typeof data === 'string') extra = data;
  else if (isRecord(data)) {
    const texts = ['message', 'error']
      .map((k) => own(data, k))
      .filter((v): v is string => typeof v === 'string');
    if (texts.length > 0) extra = texts.join(' ');
  }
  if (err.message === undefined) return extra;
  return extra === undefined ? err.message : `${err.message} ${extra}`;
}

/** Evidence in `text` that the negotiated skill (by its id or other names) is missing. */
function missingIn(
  text: string | undefined,
  ctx: NegotiationContext,
  opts: JudgeOptions,
  failure: boolean,
): string | undefined {
  return missingSkillLabel(text, ctx.skillId, opts.unknownSkillPatterns, failure, ctx.skillAliases);
}

/**
 * The rules, in order; the first that gives a verdict (a drift or an unjudged reason) decides.
 * `undefined` from a rule: it has nothing to say about this exchange, ask the next one.
 */
type Rule = (
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  taskId: string | undefined,
  memo: JudgeMemo | undefined,
) => Judgement | undefined;

const RULES: readonly Rule[] = [
  protocolErrorRule,
  taskFailureRule,
  answerTextRule,
  newerCardRule,
  skillNotInCardRule,
  outputModesRule,
];

const SKILL_WORK = new Set<string>([
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'SubscribeToTask',
]);

/** A call that failed: an error answer, or a failed or rejected task. */
function failed(result: DecodedResult): boolean {
  return (
    result.error !== undefined || (result.state !== undefined && FAILED_STATES.has(result.state))
  );
}

/**
 * A suspicion about the negotiated skill (Judgement.suspicion), for the card to settle: only for
 * a skill the card in use lists (one it does not list is decided by skillNotInCardRule) and a
 * card that can be fetched again.
 */
function suspected(
  why: 'failure' | 'words',
  request: DecodedRequest | undefined,
  message: string,
  ctx: NegotiationContext,
  taskId: string | undefined,
  extra: Partial<DriftEvent> = {},
): Judgement | undefined {
  if (ctx.skillId === undefined || ctx.skillInCard !== true || ctx.cardUrl === undefined)
    return undefined;
  // The skill's work: a message sent, its task polled or followed (a push is judged as a poll).
  // A refused cancel or a push configuration error says nothing of the skill.
  if (request !== undefined && !SKILL_WORK.has(request.operation)) return undefined;
  const { drift } = drifted('unknown_skill', `${message}${refetchAdvice(ctx)}`, ctx, taskId, {
    evidence: 'card',
    suspicion: why,
    ...extra,
  });
  return { suspicion: drift };
}

/**
 * 2c. A newer card of the agent, fetched by this package to settle a suspicion or to revalidate,
 * no longer lists the negotiated skill: every call that still names it is drift, whatever its
 * answer (unknown_skill when it failed, skill_not_in_card otherwise), until the app fetches the
 * card itself. The rules before it keep their own evidence (a phrase says more than the card);
 * a suspicion they raise is settled by this card at once (judgeExchange).
 */
function newerCardRule(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  _opts: JudgeOptions,
  taskId: string | undefined,
): Judgement | undefined {
  return newerCardVerdict(request, ctx, result, taskId, false);
}

/**
 * newerCardRule's verdict; `suspected`: the call failed, or its answer named the skill with words
 * of absence (a suspicion the newer card settles): unknown_skill.
 */
function newerCardVerdict(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  taskId: string | undefined,
  suspected: boolean,
): Judgement | undefined {
  const newer = ctx.droppedByNewerCard;
  if (newer === undefined || ctx.skillId === undefined) return undefined;
  const didFail = suspected || failed(result);
  // A stream is decided by its failure or its end: a later event may say more (a phrase, a
  // failure) than its first ones.
  if (request?.streaming === true && !didFail && result.final !== true) return undefined;
  return drifted(
    didFail ? 'unknown_skill' : 'skill_not_in_card',
    `${skillLabel(ctx.skillId)} is no longer in the Agent Card${ctx.cardUrl ? ` at ${short(withoutQuery(ctx.cardUrl))}` : ''} (now fingerprint ${fingerprintPrefix(newer.fingerprint)}…)${didFail ? ' and the call failed or said so' : ''}, yet the client negotiated it${refetchAdvice(ctx)}`,
    ctx,
    taskId,
    { evidence: 'card', suspicion: newer.cause, currentFingerprint: newer.fingerprint },
  );
}

function judgeExchange(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  memo: JudgeMemo | undefined,
): Judgement {
  const taskId = result.taskId ?? request?.taskId;
  for (const rule of RULES) {
    const verdict = rule(request, ctx, result, opts, taskId, memo);
    if (verdict === undefined) continue;
    // A suspicion about a skill a newer card already dropped needs no other fetch.
    if (verdict.suspicion !== undefined && ctx.droppedByNewerCard !== undefined)
      return newerCardVerdict(request, ctx, result, taskId, true) ?? verdict;
    return verdict;
  }
  return NONE;
}

/**
 * 1. Errors at the protocol layer: -32005 / CONTENT_TYPE_NOT_SUPPORTED → unsupported_mode;
 * invalid params on a skill → invalid_params or skill_not_in_card; any other error whose text
 * names the requested skill as missing → unknown_skill. An error response decides: nothing
 * below judges it.
 */
function protocolErrorRule(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  taskId: string | undefined,
): Judgement | undefined {
  const err = result.error;
  if (!err) return undefined;
  if (err.code === -32005 || err.reason === 'CONTENT_TYPE_NOT_SUPPORTED') {
    return drifted(
      'unsupported_mode',
      `peer refused ${skillLabel(ctx.skillId)} with ${errorName(err, -32005, 'CONTENT_TYPE_NOT_SUPPORTED')} (content type not supported)${refetchAdvice(ctx)}`,
      ctx,
      taskId,
      { rpcCode: err.code ?? -32005 },
    );
  }
  // A skill an earlier card listed and the card in use does not: the history decides (rule 3).
  if (ctx.skillInEarlierCard === true && ctx.skillInCard === false) return undefined;
  if (isInvalidParams(err) && ctx.skillId !== undefined)
    return invalidParams(request, ctx, err, taskId);
  // Any other code (-32603, HTTP 400 / 500, ...) is generic: evidence only when its text names
  // the requested skill.
  const label = missingIn(errorText(err), ctx, opts, false);
  if (label !== undefined) {
    return drifted(
      missingKind(ctx, true),
      `peer rejected ${skillLabel(ctx.skillId)} with error ${err.code ?? '(no code)'} saying the skill is missing ("${label}")${refetchAdvice(ctx)}`,
      ctx,
      taskId,
      { matchedPattern: label, rpcCode: err.code },
    );
  }
  // A skill the card in use does not list is reported whatever the answer (rule 3).
  if (ctx.cardKnown && ctx.skillInCard === false) return undefined;
  return (
    suspected(
      'failure',
      request,
      `peer answered ${skillLabel(ctx.skillId)} with error ${err.code ?? '(no code)'}`,
      ctx,
      taskId,
      { rpcCode: err.code },
    ) ?? NONE
  );
}

/** Invalid params on a request naming a skill: what the card in use says of that skill. */
function invalidParams(
  request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  err: RpcError,
  taskId: string | undefined,
): Judgement {
  const code = err.code ?? -32602;
  const what = errorName(err, -32602, 'invalid params');
  if (!ctx.cardKnown)
    return {
      unjudged: 'invalid params on a skill id, but no Agent Card known for this endpoint',
    };
  if (ctx.skillInCard === undefined)
    return {
      unjudged: 'invalid params on a skill id the card in use may list among the skills not read',
    };
  if (ctx.skillInCard && requestBreaksInputModes(request, ctx)) {
    // The card in use already rules the request's parts out (VoltAgent: data parts to a
    // text-only agent): the client's mistake, not a stale card.
    return {
      unjudged: 'invalid params: the request does not fit the input modes of the card in use',
    };
  }
  if (ctx.skillInCard) {
    return drifted(
      'invalid_params',
      `peer rejected ${skillLabel(ctx.skillId)} with ${what} although the cached card lists that skill${refetchAdvice(ctx)}`,
      ctx,
      taskId,
      { rpcCode: code },
    );
  }
  return drifted(
    'skill_not_in_card',
    `peer rejected ${skillLabel(ctx.skillId)}, which the card in use does not list${refetchAdvice(ctx)}`,
    ctx,
    taskId,
    { rpcCode: code },
  );
}

/**
 * 2. A failure inside the task lifecycle (the field report's variant A): a failed task's status text,
 * or (fasta2a) the last agent message of its history, matching the unknown-skill or
 * unsupported-mode patterns.
 */
function taskFailureRule(
  _request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  taskId: string | undefined,
): Judgement | undefined {
  if (result.state === undefined || !FAILED_STATES.has(result.state)) return undefined;
  for (const text of [result.statusText, result.historyText]) {
    if (text === undefined || text.length === 0) continue;
    const unknown = missingIn(text, ctx, opts, true);
    if (unknown !== undefined) {
      return drifted(
        missingKind(ctx, true),
        `peer failed task ${short(taskId ?? '(unknown id)')} for ${skillLabel(ctx.skillId)} after accepting it ("${unknown}")${refetchAdvice(ctx)}`,
        ctx,
        taskId,
        { matchedPattern: unknown },
      );
    }
    const mode = firstMatch(
      opts.unsupportedModePatterns,
      text.length > MAX_EVIDENCE_TEXT ? text.slice(0, MAX_EVIDENCE_TEXT) : text,
    );
    if (mode) {
      return drifted(
        'unsupported_mode',
        `peer failed task ${short(taskId ?? '(unknown id)')} for ${skillLabel(ctx.skillId)} after accepting it ("${mode.label}")${refetchAdvice(ctx)}`,
        ctx,
        taskId,
        { matchedPattern: mode.label },
      );
    }
  }
  return suspected(
    'failure',
    _request,
    `peer failed task ${short(taskId ?? '(unknown id)')} for ${skillLabel(ctx.skillId)}`,
    ctx,
    taskId,
  );
}

/**
 * 2b. A task that did not fail, or a Message: LLM-backed agents (Mastra, VoltAgent) COMPLETE the
 * task and say in their answer that the tool behind the skill is gone. Evidence (of `content`)
 * only when the text names the requested skill.
 */
function answerTextRule(
  _request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  taskId: string | undefined,
): Judgement | undefined {
  if (ctx.skillId === undefined) return undefined;
  if (result.state !== undefined && FAILED_STATES.has(result.state)) return undefined; // rule 2's
  // The texts in this order, without an array of them per event.
  const label =
    missingIn(result.statusText, ctx, opts, false) ??
    missingIn(result.messageText, ctx, opts, false) ??
    missingIn(result.artifactText, ctx, opts, false) ??
    missingIn(result.historyText, ctx, opts, false);
  if (label === undefined) {
    // No phrase known, but the answer may say it in words of its own: the card will tell.
    const words =
      absenceNearSkill(result.statusText, ctx.skillId, ctx.skillAliases) ??
      absenceNearSkill(result.messageText, ctx.skillId, ctx.skillAliases) ??
      absenceNearSkill(result.artifactText, ctx.skillId, ctx.skillAliases);
    if (words === undefined) return undefined;
    return suspected(
      'words',
      _request,
      `peer answered ${skillLabel(ctx.skillId)} (task ${short(taskId ?? '(unknown id)')}) naming the skill with "${words}"`,
      ctx,
      taskId,
      { matchedPattern: words },
    );
  }
  return drifted(
    missingKind(ctx, false),
    `peer answered ${skillLabel(ctx.skillId)} (task ${short(taskId ?? '(unknown id)')}) saying the skill is missing ("${label}")${refetchAdvice(ctx)}`,
    ctx,
    taskId,
    { matchedPattern: label, evidence: 'content' },
  );
}

/**
 * 3. The client negotiated a skill the card in use does not list, whatever the answer. When an
 * earlier card of the same agent listed it, the card's own history is the evidence: a failed call
 * is then unknown_skill (the skill was removed under the client), any other skill_not_in_card.
 */
function skillNotInCardRule(
  _request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  _opts: JudgeOptions,
  taskId: string | undefined,
): Judgement | undefined {
  if (ctx.skillId === undefined || !ctx.cardKnown || ctx.skillInCard !== false) return undefined;
  if (ctx.skillInEarlierCard === true) {
    const didFail = failed(result);
    return drifted(
      didFail ? 'unknown_skill' : 'skill_not_in_card',
      `${skillLabel(ctx.skillId)} was in an earlier Agent Card of this agent and is not in the card in use${didFail ? ', and the call failed' : ''}, yet the client negotiated it${refetchAdvice(ctx)}`,
      ctx,
      taskId,
      { evidence: 'card', suspicion: 'history', rpcCode: result.error?.code },
    );
  }
  return drifted(
    'skill_not_in_card',
    `${skillLabel(ctx.skillId)} is not in the Agent Card in use, yet the client negotiated it${refetchAdvice(ctx)}`,
    ctx,
    taskId,
    result.error?.code !== undefined ? { rpcCode: result.error.code } : {},
  );
}

/**
 * 4. Artifacts against the negotiated output modes (the field report's variant B). Always decides: the
 * last rule.
 */
function outputModesRule(
  _request: DecodedRequest | undefined,
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  taskId: string | undefined,
  memo: JudgeMemo | undefined,
): Judgement {
  if (
    result.artifacts.length === 0 ||
    (result.state !== undefined && NO_ARTIFACT_STATES.has(result.state))
  )
    return NONE;
  if (ctx.skillId === undefined) return cardWideVerdict(ctx, result, opts, taskId, memo);
  if (!ctx.cardKnown) return { unjudged: 'no Agent Card known for this endpoint' };
  if (ctx.skillInCard === undefined)
    return {
      unjudged: 'the skill is not among the skills read from the card in use (more than the cap)',
    };
  const modes = ctx.outputModes;
  if (!modes || modes.length === 0) return { unjudged: 'the skill advertises no output modes' };
  const found = mismatchingParts(result, modes, opts, memo);
  if (found === undefined) return NONE; // every part matches (most events)
  const { worst, actualTypes, unjudged } = found;
  if (worst !== undefined) {
    const actual = partMediaType(worst);
    return drifted(
      'output_mode_mismatch',
      `${skillLabel(ctx.skillId)} returned a part of type ${JSON.stringify(short(actual))} outside the output modes ${modesText(modes)} advertised by the card used at negotiation: the peer may have reused the skill id for a different capability${refetchAdvice(ctx)}`,
      ctx,
      taskId,
      { expectedModes: modes, actualMediaType: actual, actualMediaTypes: actualTypes },
      ArtifactSchemaDriftError,
    );
  }
  return unjudged ? { unjudged } : NONE;
}

/**
 * 4b. Variant B of a call that names no skill (and whose card lists more than one): a part whose
 * type no skill of the card lists, nor its defaultOutputModes, is a format the card never
 * promised, whatever skill handled the call. A type some skill lists cannot be judged without
 * knowing which: the reason says so.
 */
function cardWideVerdict(
  ctx: NegotiationContext,
  result: DecodedResult,
  opts: JudgeOptions,
  taskId: string | undefined,
  memo: JudgeMemo | undefined,
): Judgement {
  const modes = ctx.cardOutputModes;
  if (!ctx.cardKnown || modes === undefined)
    return { unjudged: ctx.cardModesUnjudged ?? 'no skill id for this task' };
  const found = mismatchingParts(result, modes, opts, memo);
  if (found?.worst === undefined)
    return {
      unjudged:
        found?.unjudged ??
        'no skill id for this task (its answer is of types the card lists for some skill)',
    };
  const actual = partMediaType(found.worst);
  return drifted(
    'output_mode_mismatch',
    `a task with no known skill id returned a part of type ${JSON.stringify(short(actual))} that no skill of the Agent Card lists in its output modes, nor its defaultOutputModes (${modesText(modes)}): the peer now answers in a format its card does not promise${refetchAdvice(ctx)}`,
    ctx,
    taskId,
    {
      scope: 'card',
      expectedModes: modes,
      actualMediaType: actual,
      actualMediaTypes: found.actualTypes,
    },
    ArtifactSchemaDriftError,
  );
}

/**
 * The artifact parts outside `modes`: only the parts that are the skill's answer, not those
 * marked as intermediate work (output-parts.ts). Of the mismatching ones, the most telling
 * (a file beats a data part beats a text part) and every mismatching media type (distinct,
 * capped); `unjudged` when a part had no media type to judge.
 */
function mismatchingParts(
  result: DecodedResult,
  modes: readonly string[],
  opts: JudgeOptions,
  memo: JudgeMemo | undefined,
): { worst?: DecodedPart; actualTypes?: string[]; unjudged?: string } | undefined {
  let unjudged: string | undefined;
  let worst: DecodedPart | undefined;
  let actualTypes: string[] | undefined;
  const strictTextParts = opts.strictTextParts;
  for (const artifact of result.artifacts) {
    for (const part of artifact.parts) {
      if (part.intermediate !== undefined) continue;
      const verdict =
        memo !== undefined
          ? memo.verdict(part, modes, strictTextParts)
          : partMatchesModes(part, modes as string[], { strictTextParts });
      if (verdict === 'mismatch') {
        const actual = partMediaType(part);
        if (actualTypes === undefined) actualTypes = [actual];
        else if (actualTypes.length < MAX_MESSAGE_MODES && !actualTypes.includes(actual))
          actualTypes.push(actual);
        if (worst === undefined || TELLING[part.kind] > TELLING[worst.kind]) worst = part;
      } else if (verdict === 'unjudgeable')
        unjudged = 'an artifact part has no media type to judge';
    }
  }
  if (worst === undefined && unjudged === undefined) return undefined;
  return { worst, actualTypes, unjudged };
}

/** card_changed: a card fetched again has another fingerprint under the same version. */
export function judgeCardChange(
  cardUrl: string,
  agentName: string | undefined,
  version: string | undefined,
  previousFingerprint: string,
  fingerprint: string,
  diff?: CardDiff,
): DriftEvent {
  const message =
    `Agent Card at ${short(withoutQuery(cardUrl))} changed its skills or capabilities (fingerprint ${fingerprintPrefix(previousFingerprint)}… → ${fingerprintPrefix(fingerprint)}…) ` +
    `without a version change (version ${JSON.stringify(short(version ?? ''))}): clients holding the earlier card must re-fetch it`;
  return {
    kind: 'card_changed',
    source: 'local',
    error: new StaleAgentCardError(message, { kind: 'card_changed', cardUrl, fingerprint }),
    cardUrl,
    agentName,
    fingerprint,
    previousFingerprint,
    ...(diff !== undefined ? { diff } : {}),
  };
}

/**
 * A card fetched again and found with another fingerprint: `card_changed` with what changed, when
 * its version is the one held (the field report's case); undefined when the version changed too,
 * which is news the app asked for. One reading for every way the package finds a newer card.
 */
export function sameVersionCardChange(
  cardUrl: string,
  held: { card: DecodedCard; fingerprint: string; version: string | undefined },
  found: { fingerprint: string; card?: DecodedCard },
): DriftEvent | undefined {
  const version = found.card?.version ?? held.version;
  if (version !== held.version) return undefined;
  return judgeCardChange(
    cardUrl,
    found.card?.name ?? held.card.name,
    version,
    held.fingerprint,
    found.fingerprint,
    diffCards(held.card, found.card),
  );
}
