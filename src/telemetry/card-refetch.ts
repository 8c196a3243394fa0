/**
 * The card of an agent fetched again: to settle a suspicion (a failed call, an answer's words),
 * and for refetchCardOnDrift, to tell "the card changed" (the eviction confirmed) from "the peer
 * misbehaves under the same card". One re-fetch in flight per card URL and card held. Its answer
 * is reused:
 * - by a suspicion, for the debounce window (`driftCallbackDebounceMs`) whatever it found: a busy
 *   agent that keeps failing, or keeps naming its skill near words of failure, under an unchanged
 *   card is asked for its card at most once per window;
 * - by a drift already found (refetchCardOnDrift), for the window when it found the card changed,
 *   UNCHANGED_REFETCH_MEMO_MS otherwise (a redeploy right after an "unchanged" is seen: drifts are
 *   rare, suspicions are not).
 * A card the app fetches itself starts afresh. Conditional (ETag / Last-Modified of the card
 * held), never redirected, read through a cap, with tracing suppressed. A card found changed is
 * remembered beside the app's (CardRegistry.noteNewer).
 */
import { decodeCard } from '../core/card';
import { parseJsonSafe } from '../core/classify';
import type { DecodedCard, Suspicion } from '../core/model';
import { skillFingerprintBounded } from '../core/fingerprint';
import { logger } from '../diag-logger';
import type { FetchFn } from '../hooks/fetch';
import { runAsOwnRequest } from './own-requests';
import { sharedState } from './shared-state';

/** The largest Agent Card read (a re-fetch, a sniffed card). */
export const MAX_CARD_BYTES = 4 * 1024 * 1024;
/** A re-fetch for a drift trusts an "unchanged" (or failed) answer this long. */
const UNCHANGED_REFETCH_MEMO_MS = 1000;
/** A re-fetch in flight is shared this long at most (its own timeout is 5 s). */
const REFETCH_IN_FLIGHT_MS = 6000;

export interface RefetchSettings {
  /** The fetch to use: the original, not the app-visible wrapper. */
  fetch: FetchFn;
  maxInspectBytes: number;
  debounceMs: number;
}

/** A card fetched again: its fingerprint and, when its body was read or held, the card. */
export interface Refetched {
  fingerprint: string;
  card?: DecodedCard;
}

/** One re-fetch of a card, shared while in flight and reused after (see above for how long). */
interface RefetchMemo {
  startedAt: number;
  /** When the answer came, and whether it found the card changed. */
  settledAt?: number;
  changed?: boolean;
  result: Promise<Refetched | undefined>;
}

export class CardRefetcher {
  private readonly memo = new Map<string, RefetchMemo>();

  constructor(private readonly settings: () => RefetchSettings) {}

  /**
   * The fingerprint of the card at `cardUrl` now, or undefined when it cannot be known; no
   * promise at all when the card cannot be re-fetched: one that came in a JSON-RPC
   * GetExtendedAgentCard result is held under its endpoint's URL, where a GET is no card fetch
   * (and the extended card needs the application's credentials).
   */
  refetch(cardUrl: string): Promise<string | undefined> | undefined {
    return this.refetchCard(cardUrl, 'drift')?.then((r) => r?.fingerprint);
  }

  /**
   * As refetch, with the card itself (decoded) when it could be read; `cause` is what made the
   * card be looked at, remembered with a newer card found.
   */
  refetchCard(
    cardUrl: string,
    cause: Suspicion | 'drift',
  ): Promise<Refetched | undefined> | undefined {
    const now = Date.now();
    // The card this process holds for the URL now: its fingerprint keys the memo (an answer
    // about an earlier card says nothing about this one) and its validators make the request
    // conditional.
    const held = sharedState().cards.get(cardUrl);
    if (held?.extended === 'jsonrpc') return undefined;
    // (and its fetch time: a card the app fetched since is newer news than a memoised answer)
    const memoKey = `${cardUrl}\u0000${held?.fingerprint ?? ''}\u0000${held?.fetchedAt ?? ''}`;
    const { fetch: doFetch, maxInspectBytes, debounceMs } = this.settings();
    const last = this.memo.get(memoKey);
    if (last !== undefined) {
      // a revalidation shares a fetch in flight, never an answer: it is due because the last
      // answer is one interval old
      const fresh =
        last.settledAt === undefined
          ? now < last.startedAt + REFETCH_IN_FLIGHT_MS
          : cause !== 'revalidation' &&
            now <
              last.settledAt +
                (cause !== 'drift' || last.changed === true
                  ? Math.max(UNCHANGED_REFETCH_MEMO_MS, debounceMs)
                  : UNCHANGED_REFETCH_MEMO_MS);
      if (fresh) return last.result;
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (held?.etag !== undefined) headers['if-none-match'] = held.etag;
    if (held?.lastModified !== undefined) headers['if-modified-since'] = held.lastModified;
    const conditional =
      held !== undefined && (held.etag !== undefined || held.lastModified !== undefined);
    const result = runAsOwnRequest(async (): Promise<Refetched | undefined> => {
      // Never follow a redirect: the re-fetch may only ever reach the card URL the app fetched.
      const res = await doFetch(cardUrl, {
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
      });
      if (res.status === 304) {
        await res.body?.cancel().catch(() => {});
        return conditional ? { fingerprint: held.fingerprint, card: held.card } : undefined;
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel().catch(() => {});
        return undefined;
      }
      const max = Math.min(MAX_CARD_BYTES, maxInspectBytes);
      const length = Number(res.headers.get('content-length') ?? '0');
      if (length > max) {
        await res.body.cancel().catch(() => {});
        return undefined;
      }
      // Read (decoded) bytes up to the cap, never more: a chunked or compressed card cannot grow
      // memory.
      const text = await readCapped(res.body, max);
      if (text === undefined) return undefined;
      const parsed = parseJsonSafe(text);
      if (!parsed.ok) return undefined;
      const fingerprint = skillFingerprintBounded(parsed.value).fingerprint;
      return fingerprint === undefined
        ? undefined
        : { fingerprint, card: decodeCard(parsed.value) };
    }).catch((err: unknown) => {
      logger.debug('card re-fetch failed', err);
      return undefined;
    });
    const memo: RefetchMemo = { startedAt: now, result };
    this.memo.delete(memoKey); // re-inserted: the Map's order stays oldest first
    this.memo.set(memoKey, memo);
    void result.then((r) => {
      const at = Date.now();
      memo.settledAt = at;
      memo.changed = r !== undefined && held !== undefined && r.fingerprint !== held.fingerprint;
      if (r?.card !== undefined && held !== undefined)
        sharedState().cards.noteNewer(
          cardUrl,
          held.fingerprint,
          r.fingerprint,
          r.card,
          at,
          cause === 'drift' ? 'failure' : cause,
        );
    });
    if (this.memo.size > 1000) {
      const oldest = this.memo.keys().next().value;
      if (oldest !== undefined) this.memo.delete(oldest);
    }
    return result;
  }
}

/** The body as UTF-8 text, or undefined (and the stream cancelled) once it passes `max` bytes. */
async function readCapped(
  body: ReadableStream<Uint8Array>,
  max: number,
): Promise<string | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
