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
 * held), never redirected, read through a cap, with tracing suppressed, never holding the process
 * (hooks/background-get.ts). An answer is a card only by the one rule of what a card is
 * (isAgentCard): anything else (an error status, a maintenance page's JSON) is `not_a_card` or
 * `failed`, never a changed card. A card fetched with the app's credentials, or whose URL carries
 * one, is never fetched again (`skipped_credentials`). A card found changed is remembered beside
 * the app's (CardRegistry.noteNewer).
 */
import { decodeCard, isAgentCard } from '../core/card';
import { urlCarriesCredentials } from '../core/credentials';
import { parseJsonSafe } from '../core/classify';
import type { DecodedCard, Suspicion } from '../core/model';
import { skillFingerprintBounded } from '../core/fingerprint';
import { logger } from '../diag-logger';
import { backgroundGet } from '../hooks/background-get';
import { runAsOwnRequest } from './own-requests';
import { sharedState } from './shared-state';

/** The largest Agent Card read (a re-fetch, a sniffed card). */
export const MAX_CARD_BYTES = 4 * 1024 * 1024;
/** A re-fetch for a drift trusts an "unchanged" (or failed) answer this long. */
const UNCHANGED_REFETCH_MEMO_MS = 1000;
/** A re-fetch in flight is shared this long at most (its own timeout is REFETCH_TIMEOUT_MS). */
const REFETCH_IN_FLIGHT_MS = 6000;
/** A re-fetch gets no answer after this long. */
const REFETCH_TIMEOUT_MS = 5000;

export interface RefetchSettings {
  maxInspectBytes: number;
  debounceMs: number;
  /** Each card request of the package's own, and each one skipped, with what it found. */
  onRequest?: (purpose: CardRequestPurpose, result: CardRequestResult) => void;
}

/** Why the package fetches a card on its own. */
export type CardRequestPurpose = 'confirmation' | 'revalidation';
/** What one of its card requests found (`skipped_credentials`: none was made). */
export type CardRequestResult = 'unchanged' | 'not_modified' | 'changed' | RefetchFailure['failed'];

/**
 * A card fetched again: its fingerprint and, when its body was read or held, the card;
 * `notModified`: the server answered 304 to the conditional request.
 */
export interface Refetched {
  fingerprint: string;
  card?: DecodedCard;
  notModified?: boolean;
}

/**
 * A card that could not be had: `failed` (no answer, an error status, a redirect, a body past the
 * cap), `not_a_card` (an answer that is no Agent Card: a maintenance page's JSON, an HTML page),
 * `skipped_credentials` (the card needs the app's credentials: never fetched again).
 */
export interface RefetchFailure {
  failed: 'failed' | 'not_a_card' | 'skipped_credentials';
}

export type RefetchResult = Refetched | RefetchFailure;

export function isRefetched(r: RefetchResult | undefined): r is Refetched {
  return r !== undefined && 'fingerprint' in r;
}

/** One re-fetch of a card, shared while in flight and reused after (see above for how long). */
interface RefetchMemo {
  startedAt: number;
  /** When the answer came, and whether it found the card changed. */
  settledAt?: number;
  changed?: boolean;
  result: Promise<RefetchResult>;
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
    return this.refetchCard(cardUrl, 'drift')?.then((r) =>
      isRefetched(r) ? r.fingerprint : undefined,
    );
  }

  /**
   * As refetch, with the card itself (decoded) when it could be read; `cause` is what made the
   * card be looked at, remembered with a newer card found.
   */
  refetchCard(cardUrl: string, cause: Suspicion | 'drift'): Promise<RefetchResult> | undefined {
    const now = Date.now();
    // The card this process holds for the URL now: its fingerprint keys the memo (an answer
    // about an earlier card says nothing about this one) and its validators make the request
    // conditional.
    const held = sharedState().cards.get(cardUrl);
    if (held?.extended === 'jsonrpc') return undefined;
    // (and its fetch time: a card the app fetched since is newer news than a memoised answer)
    const memoKey = `${cardUrl}\u0000${held?.fingerprint ?? ''}\u0000${held?.fetchedAt ?? ''}`;
    const { maxInspectBytes, debounceMs, onRequest } = this.settings();
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
    const purpose = cause === 'revalidation' ? 'revalidation' : 'confirmation';
    // Never with the app's credentials: a card fetched with them, or whose URL carries one, is
    // not fetched again (without them the answer is another card; with them, a replay).
    if (held?.credentials === true || urlCarriesCredentials(cardUrl)) {
      onRequest?.(purpose, 'skipped_credentials');
      return Promise.resolve({ failed: 'skipped_credentials' });
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (held?.etag !== undefined) headers['if-none-match'] = held.etag;
    if (held?.lastModified !== undefined) headers['if-modified-since'] = held.lastModified;
    const conditional =
      held !== undefined && (held.etag !== undefined || held.lastModified !== undefined);
    const result = runAsOwnRequest(async (): Promise<RefetchResult> => {
      // Never follow a redirect: the re-fetch may only ever reach the card URL the app fetched.
      const res = await backgroundGet(cardUrl, headers, {
        timeoutMs: REFETCH_TIMEOUT_MS,
        maxBytes: Math.min(MAX_CARD_BYTES, maxInspectBytes),
      });
      if (res.status === 304)
        return conditional
          ? { fingerprint: held.fingerprint, card: held.card, notModified: true }
          : { failed: 'failed' };
      // a non-2xx answer is never a card, whatever its body
      if (res.status < 200 || res.status >= 300 || res.body === undefined)
        return { failed: 'failed' };
      const parsed = parseJsonSafe(res.body);
      if (!parsed.ok) return { failed: 'not_a_card' };
      // the one rule of what a card is: a maintenance page's JSON is no card with no skills
      if (!isAgentCard(parsed.value)) return { failed: 'not_a_card' };
      const fingerprint = skillFingerprintBounded(parsed.value).fingerprint;
      return fingerprint === undefined
        ? { failed: 'failed' }
        : { fingerprint, card: decodeCard(parsed.value) };
    }).catch((err: unknown): RefetchResult => {
      logger.debug('card re-fetch failed', err);
      return { failed: 'failed' };
    });
    void result.then((r) =>
      onRequest?.(
        purpose,
        !isRefetched(r)
          ? r.failed
          : r.notModified === true
            ? 'not_modified'
            : held !== undefined && r.fingerprint === held.fingerprint
              ? 'unchanged'
              : 'changed',
      ),
    );
    const memo: RefetchMemo = { startedAt: now, result };
    this.memo.delete(memoKey); // re-inserted: the Map's order stays oldest first
    this.memo.set(memoKey, memo);
    void result.then((r) => {
      const at = Date.now();
      memo.settledAt = at;
      memo.changed = isRefetched(r) && held !== undefined && r.fingerprint !== held.fingerprint;
      if (isRefetched(r) && r.card !== undefined && held !== undefined)
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
