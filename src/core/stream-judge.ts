/**
 * The judgement of one call's results, stream events included: what one call's events share.
 *
 * - A streamed answer comes in artifact updates: word-sized deltas (`append: true`, Mastra) or
 *   whole snapshots (VoltAgent). The judge sees each delta together with the last
 *   STREAM_OVERLAP characters before it (its window), so a phrase split across chunks is whole
 *   in one window, and each character of a long stream is looked at a bounded number of times
 *   (judging the whole answer so far at every event would be quadratic).
 * - Every phrase that makes an answer evidence names the skill (evidence.ts): a window holding
 *   none of the skill's names says nothing, whatever else it holds. So the window is built only
 *   when the answer since its last snapshot may hold a name: known from the end of the answer
 *   before the delta (as long as the longest name, less one character) and the delta, searched
 *   together. Otherwise the answer's text is judged as absent (what it would give: no verdict
 *   from its words, without searching it for the names again) and the rest of the event as it
 *   came: no window string per event. The text the judge reads is put on the event for it and
 *   the delta put back after: no copy of the event.
 * - The verdict of a part against the call's output modes is remembered per media type
 *   (JudgeMemo): every word of a text stream is a part of the same type.
 *
 * The verdicts are exactly judge()'s on the event with its window as its text. Pure of
 * OpenTelemetry; one per call.
 */
import { holdsSkillName, longestSkillName } from './evidence';
import { JudgeMemo, judge, type JudgeOptions, type Judgement } from './judge';
import type { DecodedRequest, DecodedResult, NegotiationContext } from './model';

/**
 * Characters of a streamed answer kept before each delta (phrases naming a skill are far shorter).
 */
export const STREAM_OVERLAP = 384;

/** The answer kept grows to this many characters, then is cut to its last STREAM_OVERLAP. */
const KEEP_AT_MOST = 4 * STREAM_OVERLAP;

export class StreamJudge {
  /**
   * The answer since its last snapshot (a delta not appended): all of it, or (once cut) at least
   * its last STREAM_OVERLAP characters. Judge only, never exported.
   */
  private answer: string | undefined = undefined;
  /** `answer` holds none of the skill's names (false: it may). */
  private clean = false;
  /** The last `edgeLength` characters of `answer` (a name may begin there and end in the delta). */
  private edge = '';
  /** The context the names were taken from, and the longest name's length less one. */
  private namesOf: NegotiationContext | undefined = undefined;
  private edgeLength = 0;
  private readonly memo = new JudgeMemo();

  /** judge() of `result`, an artifact update with its streamed-answer window as its text. */
  judge(
    request: DecodedRequest | undefined,
    ctx: NegotiationContext,
    result: DecodedResult,
    opts: JudgeOptions,
  ): Judgement {
    const delta = result.kind === 'artifact-update' ? result.artifactText : undefined;
    if (delta === undefined) return judge(request, ctx, result, opts, this.memo);
    if (ctx !== this.namesOf) this.takeNames(ctx);
    const before = result.append === true ? this.answer : undefined;
    let window: string | undefined;
    if (before === undefined) {
      // A snapshot, or the first delta: its window is itself.
      const clean = !holdsSkillName(delta, ctx.skillId, ctx.skillAliases);
      this.keep(delta, clean, delta);
      window = clean ? undefined : delta;
    } else {
      // A name in the window lies in the answer before, in the delta, or across the two.
      const probe = this.edgeLength > 0 ? this.edge + delta : delta;
      const clean = this.clean && !holdsSkillName(probe, ctx.skillId, ctx.skillAliases);
      this.keep(before + delta, clean, probe);
      window = clean
        ? undefined
        : (before.length > STREAM_OVERLAP ? before.slice(before.length - STREAM_OVERLAP) : before) +
          delta;
    }
    if (window === delta) return judge(request, ctx, result, opts, this.memo);
    // No name in the window: the answer's text says nothing (missingSkillLabel would search it
    // for the names again to find none), judged as no text.
    result.artifactText = window;
    try {
      return judge(request, ctx, result, opts, this.memo);
    } finally {
      result.artifactText = delta;
    }
  }

  /** The answer so far (`clean`: holding no name), its end taken from `end` (which ends it). */
  private keep(answer: string, clean: boolean, end: string): void {
    const n = this.edgeLength;
    this.edge = n === 0 ? '' : end.length > n ? end.slice(end.length - n) : end;
    if (answer.length > KEEP_AT_MOST) {
      answer = answer.slice(answer.length - STREAM_OVERLAP);
      if (!clean)
        clean = !holdsSkillName(answer, this.namesOf?.skillId, this.namesOf?.skillAliases);
    }
    this.answer = answer;
    this.clean = clean;
  }

  /** The names to look for are `ctx`'s: what was known of the answer is known no more. */
  private takeNames(ctx: NegotiationContext): void {
    this.namesOf = ctx;
    const longest = longestSkillName(ctx.skillId, ctx.skillAliases);
    this.edgeLength = longest > 1 ? longest - 1 : 0;
    this.clean = false;
    const a = this.answer;
    const n = this.edgeLength;
    this.edge = a === undefined || n === 0 ? '' : a.length > n ? a.slice(a.length - n) : a;
  }
}
