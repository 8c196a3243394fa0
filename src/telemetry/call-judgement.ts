/**
 * The judgement of one A2A call: what the call is and what it is judged against (the negotiation
 * settled at its start: card, skill, modes), each of its results put to the core's judgement, and
 * the waits a verdict may need before it stands: the card fetched again to confirm a suspicion, the
 * revalidation of a card older than the interval, a card fingerprint the agent announced. It
 * decides and holds what it decided (the drift, the last result); the call (a2a-call.ts) records
 * it: every outcome is handed to its `CallRecord`, which owns the span, the counter and the
 * callbacks. Nothing here knows OpenTelemetry.
 */
import { logger } from '../diag-logger';
import { confirmSuspicion, confirmedDrift, droppedByNewerCard } from '../core/confirm';
import {
  judge,
  sameVersionCardChange,
  type DriftEvent,
  type NegotiationContext,
} from '../core/judge';
import { isFingerprint } from '../core/served-card';
import { StreamJudge } from '../core/stream-judge';
import type { DecodedRequest, DecodedResult, Suspicion } from '../core/model';
import type { ResolvedConfig } from '../config';
import {
  isRefetched,
  type Refetched,
  type RefetchFailure,
  type RefetchResult,
} from './card-refetch';
import { sharedState } from './shared-state';

/**
 * `sniffed`: a card recognised by its content at a path that only hinted at one: it may speak only
 * for its own origin.
 */
export type CallTarget =
  /** `credentials`: fetched with the app's credentials (never revalidated in the background). */
  | { type: 'card'; sniffed?: boolean; extended?: boolean; credentials?: boolean }
  /**
   * `push`: a task update the agent pushed to the app's webhook (deliverPush); `request` is the
   * lifecycle request it stands for (its task id, the registering call's binding and version).
   */
  | { type: 'operation'; request: DecodedRequest; push?: boolean };

/** What the judgement of a call needs from the instrumentation. */
export interface JudgementDeps {
  config: ResolvedConfig;
  /**
   * Fetch the card again to confirm a content-level suspicion (always on): resolves to the card
   * now, or undefined; no promise when the card cannot be re-fetched.
   */
  confirmCard?: (cardUrl: string, cause: Suspicion) => Promise<RefetchResult> | undefined;
  /**
   * A call uses the card at this URL (CardRevalidator.noteUse): a promise when the card, not
   * confirmed within the revalidation interval, is being fetched again for this call.
   */
  cardInUse?: (cardUrl: string) => Promise<void> | undefined;
  /**
   * A card change found because an agent announced another fingerprint: true the first time this
   * newer fingerprint of the card is reported (every caller of a busy agent reads it).
   */
  firstAnnouncedChange?: (cardUrl: string, fingerprint: string) => boolean;
}

/** What the call records of its judgement's outcomes (a2a-call.ts: its span, counter, callbacks). */
export interface CallRecord {
  /** The call's span has ended: a wait that answers later has nothing more to say on it. */
  readonly isFinished: boolean;
  /** A drift that stands; `confirmedBy`: the card fetched again that confirmed it. */
  drift(event: DriftEvent, confirmedBy?: Refetched): void;
  /** A card change found because the agent announced another card's fingerprint. */
  announcedChange(event: DriftEvent): void;
  /** A suspicion the card fetched again did not confirm. */
  unconfirmed(
    event: Pick<DriftEvent, 'kind' | 'suspicion'>,
    refetch: 'unchanged' | RefetchFailure['failed'],
  ): void;
  /** Why (part of) the call could not be judged. */
  unjudged(reason: string): void;
}

/** How long a span is held open for the card fetched again to confirm a suspicion. */
const CONFIRM_WAIT_MS = 2000;

/**
 * `then` runs with what `pending` resolved to, or undefined when it failed or took longer than
 * `ms` (a timer unref'd unless `holdProcess`, cleared once settled).
 */
export function afterBoundedWait<T>(
  pending: Promise<T>,
  ms: number,
  then: (got: T | undefined) => void,
  holdProcess = false,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    if (!holdProcess) timer.unref?.();
  });
  return Promise.race([pending.catch(() => undefined), timeout]).then((got) => {
    if (timer) clearTimeout(timer);
    then(got);
  });
}

export class CallJudgement {
  private context: NegotiationContext;
  private driftFound: DriftEvent | undefined;
  private suspicion: DriftEvent | undefined;
  /** A suspicion (or a revalidation) waiting for the card fetched again (confirm.ts). */
  private confirmation: Promise<void> | undefined;
  /** The agent announced another card's fingerprint: the card fetched again decides. */
  private announcement: Promise<void> | undefined;
  private last: DecodedResult | undefined;
  /**
   * Judges this call's results from its first artifact update on: the streamed answer's window,
   * the verdicts per part media type (core/stream-judge.ts).
   */
  private streamJudge: StreamJudge | undefined;

  /** `ctx`: what the call is judged against, settled at its start (negotiation.ts). */
  constructor(
    private readonly deps: JudgementDeps,
    readonly target: CallTarget,
    ctx: NegotiationContext,
    private readonly record: CallRecord,
  ) {
    this.context = ctx;
    const push = target.type === 'operation' && target.push === true;
    const revalidation =
      ctx.cardUrl !== undefined && !push ? deps.cardInUse?.(ctx.cardUrl) : undefined;
    if (revalidation !== undefined) this.awaitRevalidation(revalidation);
  }

  /** What the call is judged against (a newer card that dropped its skill included). */
  get ctx(): NegotiationContext {
    return this.context;
  }

  /** The drift this call showed, if any: once one stands, nothing more is judged. */
  get drift(): DriftEvent | undefined {
    return this.driftFound;
  }

  get lastResult(): DecodedResult | undefined {
    return this.last;
  }

  /** A suspicion or a revalidation being waited for: the span is held (bounded) until it answers. */
  get pendingConfirmation(): Promise<void> | undefined {
    return this.confirmation;
  }

  /** An announced card fingerprint being settled by the card fetched again. */
  get pendingAnnouncement(): Promise<void> | undefined {
    return this.announcement;
  }

  /**
   * The stale-card drift this exchange showed, if any: what enforce mode rejects with. Not
   * card_changed (a card answer that refreshes the cache, e.g. an extended card in a JSON-RPC
   * result, did its job).
   */
  get enforceableDrift(): DriftEvent | undefined {
    return this.driftFound?.kind === 'card_changed' ? undefined : this.driftFound;
  }

  /** The card fingerprint this call sends to the agent: the one of the card it negotiated with. */
  get announcedFingerprint(): string | undefined {
    return this.target.type === 'operation' && this.deps.config.cardFingerprintHeaders
      ? this.context.fingerprint
      : undefined;
  }

  /** A result arrived: the last one is what the call ends with (and what a late card rejudges). */
  see(result: DecodedResult): void {
    this.last = result;
  }

  /** Judge a result (seen first): a drift, a suspicion to confirm, or why it was not judged. */
  judgeResult(result: DecodedResult): void {
    if (this.driftFound) return;
    const req = this.target.type === 'operation' ? this.target.request : undefined;
    const verdict =
      result.kind === 'artifact-update' || this.streamJudge !== undefined
        ? (this.streamJudge ??= new StreamJudge()).judge(
            req,
            this.context,
            result,
            this.deps.config,
          )
        : judge(req, this.context, result, this.deps.config);
    if (verdict.drift) this.recordDrift(verdict.drift);
    else if (verdict.suspicion) this.suspect(verdict.suspicion);
    else if (verdict.unjudged) this.record.unjudged(verdict.unjudged);
  }

  /**
   * An HTTP 4xx/5xx answer whose body gave no result (an HTML error page, an empty body, a body
   * past the cap): judged as the bare error it is, so a call for a known skill that failed so is
   * still a suspicion and a skill the card does not list is still reported.
   */
  judgeBodilessHttpError(code: number | undefined): void {
    if (code === undefined || code < 400 || this.last !== undefined) return;
    if (this.driftFound || this.target.type !== 'operation') return;
    const req = this.target.request;
    const verdict = judge(
      req,
      this.context,
      { kind: 'error', error: { code }, artifacts: [] },
      this.deps.config,
    );
    if (verdict.drift) this.recordDrift(verdict.drift);
    else if (verdict.suspicion) this.suspect(verdict.suspicion);
  }

  /**
   * The last result ends the exchange: a JSON-RPC / HTTP error, or a stream event that is final
   * (0.x `final`, a terminal or interrupted state). Nothing the peer sends can follow it.
   */
  terminalSeen(): boolean {
    const last = this.last;
    return last !== undefined && (last.error !== undefined || last.final === true);
  }

  /**
   * A drift the core found (or a card answer's `card_changed`): it stands and is recorded, unless
   * it rests on an answer's words alone, which the card must confirm first.
   */
  recordDrift(event: DriftEvent, confirmedBy?: Refetched): void {
    if (this.driftFound) return;
    if (event.evidence === 'content' && confirmedBy === undefined) {
      // a newer card of the agent, fetched by this package, already dropped the skill: it
      // confirms the answer's words without another fetch
      const newer = this.context.droppedByNewerCard;
      if (newer !== undefined) confirmedBy = { fingerprint: newer.fingerprint };
      else {
        this.suspect(event);
        return;
      }
    }
    this.driftFound = event;
    this.record.drift(event, confirmedBy);
  }

  /**
   * A suspicion: an answer's words say the skill is missing (content evidence), a call for the
   * skill failed, or its answer names it with words of absence (Judgement.suspicion). Fetch the
   * card again and make it drift only if the card no longer lists the skill (or changed its
   * modes). Until then the span is held open (at most CONFIRM_WAIT_MS) and nothing is counted or
   * called back; a card that answers later settles the next call instead (CardEntry.newer).
   */
  private suspect(event: DriftEvent): void {
    if (this.suspicion !== undefined) return;
    this.suspicion = event;
    const cause: Suspicion = event.suspicion ?? 'words';
    const pending = event.cardUrl ? this.deps.confirmCard?.(event.cardUrl, cause) : undefined;
    if (pending === undefined) {
      this.unconfirmed(event, 'failed');
      return;
    }
    const held = { inputModes: this.context.inputModes, outputModes: this.context.outputModes };
    this.confirmation = afterBoundedWait(pending, CONFIRM_WAIT_MS, (got) => {
      try {
        const r = isRefetched(got) ? got : undefined;
        const verdict = confirmSuspicion(event.skillId, held, r?.card);
        if (verdict === 'confirmed' && r !== undefined && !this.driftFound) {
          // content evidence keeps its own kind and evidence; a failure or an answer's own
          // words become what the card says (confirm.ts)
          const drift = event.evidence === 'card' ? confirmedDrift(event, held, r) : event;
          if (drift !== undefined) this.recordDrift(drift, r);
        } else if (verdict !== 'confirmed')
          this.unconfirmed(
            event,
            verdict === 'refuted'
              ? 'unchanged'
              : got !== undefined && 'failed' in got
                ? got.failed
                : 'failed',
          );
      } catch (err) {
        logger.debug('could not confirm a suspicion', err);
      }
    });
  }

  /** A suspicion the card fetched again did not confirm: said on the span, nothing else. */
  private unconfirmed(event: DriftEvent, refetch: 'unchanged' | RefetchFailure['failed']): void {
    if (this.driftFound || this.record.isFinished) return;
    this.record.unconfirmed(event, refetch);
  }

  /**
   * The card of this call was older than the revalidation interval and is being fetched again:
   * hold the span (and, in enforce mode, the answer) as for a confirming fetch, at most
   * CONFIRM_WAIT_MS; a newer card that dropped the call's skill then decides this call
   * (evidence `card`, suspicion `revalidation`), not only the next one.
   */
  private awaitRevalidation(pending: Promise<void>): void {
    this.confirmation = afterBoundedWait(pending, CONFIRM_WAIT_MS, () => {
      try {
        this.revalidated();
      } catch (err) {
        logger.debug('could not judge a call against its revalidated card', err);
      }
    });
  }

  /** The revalidation this call waited for has answered: judge it against a newer card. */
  private revalidated(): void {
    if (this.driftFound || this.record.isFinished || this.target.type !== 'operation') return;
    const ctx = droppedByNewerCard(this.context, (cardUrl) => sharedState().cards.get(cardUrl));
    if (ctx === undefined) return;
    this.context = ctx;
    const last = this.last;
    if (last === undefined) return; // the answer to come is judged with it
    const verdict = judge(this.target.request, ctx, last, this.deps.config);
    if (verdict.drift) this.recordDrift(verdict.drift);
  }

  /**
   * The agent announced the fingerprint of another card than the one this call negotiated with: a
   * suspicion (the header may be forged or flap), so the card decides. It is fetched again through
   * the same conditional, debounced fetch as any suspicion (one per card per debounce window
   * whatever the announcements); a card that changed under the same version is card_changed on
   * this span with what changed, once per newer card; an unchanged one is said on the span,
   * nothing else. Nothing is fetched when the app already holds the announced card, or this
   * package already found it newer; never a card fetched with credentials or an extended one.
   */
  onAnnounced(announced: string): void {
    try {
      const cardUrl = this.context.cardUrl;
      const negotiated = this.announcedFingerprint;
      if (cardUrl === undefined || negotiated === undefined || announced === negotiated) return;
      if (!isFingerprint(announced) || this.announcement !== undefined) return;
      const entry = sharedState().cards.get(cardUrl);
      if (entry === undefined || entry.credentials === true || entry.extended !== undefined) return;
      if (entry.fingerprint === announced || entry.newer?.fingerprint === announced) return;
      const pending = this.deps.confirmCard?.(cardUrl, 'announced');
      if (pending === undefined) return;
      const held = { card: entry.card, fingerprint: entry.fingerprint, version: entry.version };
      const suspicion = { kind: 'card_changed', suspicion: 'announced' } as const;
      this.announcement = afterBoundedWait(pending, CONFIRM_WAIT_MS, (got) => {
        try {
          if (this.record.isFinished) return;
          const r = isRefetched(got) ? got : undefined;
          if (r === undefined || r.fingerprint === held.fingerprint) {
            this.record.unconfirmed(
              suspicion,
              r !== undefined
                ? 'unchanged'
                : got !== undefined && 'failed' in got
                  ? got.failed
                  : 'failed',
            );
            return;
          }
          const change = sameVersionCardChange(cardUrl, held, r);
          if (change === undefined) return;
          if (this.deps.firstAnnouncedChange?.(cardUrl, r.fingerprint) === false) return;
          this.record.announcedChange({ ...change, suspicion: 'announced' });
        } catch (err) {
          logger.debug('could not settle an announced card fingerprint', err);
        }
      });
    } catch (err) {
      logger.debug('could not follow an announced card fingerprint', err);
    }
  }
}
