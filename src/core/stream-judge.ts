/**
 * The judgement of one call's results, stream events included: what one call's events share.
 *
 * - A streamed answer comes in artifact updates: word-sized deltas (`append: true`, Mastra) or
 *   whole snapshots (VoltAgent). The judge sees each delta together with the last
 *   STREAM_OVERLAP characters before it, so a phrase split across chunks is whole in one
 *   window, and each character of a long stream is looked at a bounded number of times
 *   (judging the whole answer so far at every event would be quadratic). The window is put on
 *   the event for the judge and its own text put back after: no copy of the event per event.
 * - The verdict of a part against the call's output modes is remembered per media type
 *   (JudgeMemo): every word of a text stream is a part of the same type.
 *
 * The verdicts are exactly judge()'s on the event with the window as its text. Pure of
 * OpenTelemetry; one per call.
 */
import { JudgeMemo, judge, type JudgeOptions, type Judgement } from './judge';
import type { DecodedRequest, DecodedResult, NegotiationContext } from './model';

/**
 * Characters of a streamed answer kept before each delta (phrases naming a skill are far shorter).
 */
export const STREAM_OVERLAP = 384;

export class StreamJudge {
  /** The end of the streamed answer so far (judge only, never exported). */
  private tail: string | undefined = undefined;
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
    const window = this.window(delta, result.append === true);
    if (window === delta) return judge(request, ctx, result, opts, this.memo);
    result.artifactText = window;
    try {
      return judge(request, ctx, result, opts, this.memo);
    } finally {
      result.artifactText = delta;
    }
  }

  /** The delta with the end of the answer before it (when it appends), and the new end kept. */
  private window(delta: string, append: boolean): string {
    const window = append && this.tail !== undefined ? this.tail + delta : delta;
    this.tail =
      window.length > STREAM_OVERLAP ? window.slice(window.length - STREAM_OVERLAP) : window;
    return window;
  }
}
