/**
 * Bounded staleness: the cards the application keeps using are fetched again in the background,
 * so a redeploy that drops or changes a skill shows before any call fails, even for an agent that
 * never says so on the wire (its model apologises and the task completes).
 *
 * - A card is in use while calls to its agent are made: each call notes its card (a Map set, on
 *   the call's start; nothing else on the app's path). A card not used for one interval is
 *   forgotten: an idle app, or an agent no longer called, costs nothing.
 * - One unref'd timer, running only while cards are in use, fetches a card again once its last
 *   fetch (the app's, or this one) is one interval old: at most one fetch per card per interval,
 *   one in flight per card, MAX_IN_FLIGHT at once and MAX_STARTS_PER_TICK per tick whatever the
 *   number of cards, the rest waiting for the next tick. Every fetch is conditional (the held
 *   card's ETag, weakly compared by the server, and Last-Modified): an unchanged card costs a
 *   304. `Cache-Control: max-age` is not obeyed: the interval bounds the staleness whatever it
 *   says (@a2a-js/sdk serves max-age=3600 on every card).
 * - Never with credentials: a card the app fetched with an Authorization, Cookie or API-key
 *   header, and an extended card, are not revalidated.
 * - A card found changed is remembered beside the app's (CardRegistry.noteNewer: the app keeps
 *   negotiating with its own, spans keep its fingerprint), reported once as card_changed with
 *   what changed (onChanged: the counter and the drift callbacks), and every later call naming a
 *   skill it dropped is drift until the app fetches the card itself. A fetch that fails backs off
 *   (doubling, up to MAX_BACKOFF_MS).
 */
import { diffCards } from '../core/card-diff';
import { judgeCardChange, type DriftEvent } from '../core/judge';
import { logger } from '../diag-logger';
import type { CardRefetcher } from './card-refetch';
import { sharedState } from './shared-state';

/** Cards in use remembered at most (the least recently used forgotten first). */
export const MAX_CARDS_IN_USE = 10_000;
/** Revalidations in flight at once, at most. */
export const MAX_IN_FLIGHT = 8;
/** Revalidations started per tick, at most. */
export const MAX_STARTS_PER_TICK = 16;
/** The longest wait after failed revalidations. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** The timer's period: a quarter of the interval, within these bounds. */
const MIN_TICK_MS = 25;
const MAX_TICK_MS = 30_000;

interface InUse {
  lastUsed: number;
  /** When the card was last fetched (by the app, or by a revalidation). */
  lastChecked: number;
  /** The held card's fingerprint at the last check: the app fetching another resets the clock. */
  heldFingerprint: string;
  failures: number;
  notBefore: number;
  inFlight: boolean;
  /** The newer fingerprint already announced as card_changed. */
  announced?: string;
}

export interface RevalidationSettings {
  intervalMs: number;
}

export class CardRevalidator {
  private readonly inUse = new Map<string, InUse>();
  private timer: NodeJS.Timeout | undefined;
  private tickMs = 0;
  /** The interval the timer was armed for. */
  private interval = 0;
  private inFlight = 0;
  /** Revalidations made, by result (for tests and benchmarks). */
  readonly counts = { started: 0, unchanged: 0, changed: 0, failed: 0 };

  constructor(
    private readonly settings: () => RevalidationSettings,
    private readonly refetcher: CardRefetcher,
    private readonly onChanged: (event: DriftEvent) => void,
  ) {}

  /** A call uses the card at `cardUrl` (held in the registry): keep it fresh while that lasts. */
  noteUse(cardUrl: string, now: number): void {
    try {
      this.use(cardUrl, now);
    } catch (err) {
      logger.debug('could not note a card in use', err);
    }
  }

  private use(cardUrl: string, now: number): void {
    const interval = this.settings().intervalMs;
    if (interval <= 0) return;
    const u = this.inUse.get(cardUrl);
    if (u !== undefined) {
      u.lastUsed = now;
      // the interval may have been changed (setConfig): the timer follows it
      if (this.timer === undefined || this.interval !== interval) this.arm(interval);
      return;
    }
    const entry = sharedState().cards.get(cardUrl);
    if (entry === undefined || entry.credentials === true || entry.extended !== undefined) return;
    this.inUse.set(cardUrl, {
      lastUsed: now,
      lastChecked: entry.fetchedAt,
      heldFingerprint: entry.fingerprint,
      failures: 0,
      notBefore: 0,
      inFlight: false,
    });
    if (this.inUse.size > MAX_CARDS_IN_USE) {
      const oldest = this.inUse.keys().next().value;
      if (oldest !== undefined) this.inUse.delete(oldest);
    }
    this.arm(interval);
  }

  /** Stop: no timer, nothing remembered. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.inUse.clear();
  }

  get cardsInUse(): number {
    return this.inUse.size;
  }

  private arm(interval: number): void {
    this.interval = interval;
    const tick = Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, Math.floor(interval / 4)));
    if (this.timer !== undefined && tick === this.tickMs) return;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.tickMs = tick;
    this.timer = setInterval(() => this.tick(), tick);
    this.timer.unref?.();
  }

  /** One pass over the cards in use: forget the idle ones, revalidate the due ones. */
  tick(now = Date.now()): void {
    try {
      const interval = this.settings().intervalMs;
      if (interval <= 0) {
        this.stop();
        return;
      }
      let started = 0;
      for (const [cardUrl, u] of this.inUse) {
        if (now - u.lastUsed > interval) {
          if (!u.inFlight) this.inUse.delete(cardUrl);
          continue;
        }
        if (u.inFlight || now < u.notBefore) continue;
        const entry = sharedState().cards.get(cardUrl);
        if (entry === undefined) {
          this.inUse.delete(cardUrl);
          continue;
        }
        if (entry.fingerprint !== u.heldFingerprint || entry.fetchedAt > u.lastChecked) {
          // the app fetched the card itself since: that is the freshest fetch
          u.heldFingerprint = entry.fingerprint;
          u.lastChecked = Math.max(u.lastChecked, entry.fetchedAt);
          delete u.announced;
        }
        if (now - u.lastChecked < interval) continue;
        if (this.inFlight >= MAX_IN_FLIGHT || started >= MAX_STARTS_PER_TICK) break;
        started++;
        this.revalidate(cardUrl, u);
      }
      if (this.inUse.size === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    } catch (err) {
      logger.debug('card revalidation tick failed', err);
    }
  }

  private revalidate(cardUrl: string, u: InUse): void {
    const entry = sharedState().cards.get(cardUrl);
    const pending = this.refetcher.refetchCard(cardUrl, 'revalidation');
    if (entry === undefined || pending === undefined) {
      this.inUse.delete(cardUrl);
      return;
    }
    u.inFlight = true;
    this.inFlight++;
    this.counts.started++;
    const held = { card: entry.card, fingerprint: entry.fingerprint, version: entry.version };
    void pending
      .then((r) => {
        u.lastChecked = Date.now();
        if (r === undefined) {
          this.counts.failed++;
          u.failures++;
          u.notBefore =
            u.lastChecked + Math.min(MAX_BACKOFF_MS, this.settings().intervalMs * 2 ** u.failures);
          return;
        }
        u.failures = 0;
        u.notBefore = 0;
        if (r.fingerprint === held.fingerprint) {
          this.counts.unchanged++;
          return;
        }
        this.counts.changed++;
        if (u.announced === r.fingerprint) return;
        u.announced = r.fingerprint;
        const version = r.card?.version ?? held.version;
        // a change of version is news the app asked for; the same version is the field report's
        if (version !== held.version) return;
        this.onChanged(
          judgeCardChange(
            cardUrl,
            r.card?.name ?? held.card.name,
            version,
            held.fingerprint,
            r.fingerprint,
            diffCards(held.card, r.card),
          ),
        );
      })
      .catch((err: unknown) => logger.debug('card revalidation failed', err))
      .finally(() => {
        u.inFlight = false;
        this.inFlight--;
      });
  }
}
