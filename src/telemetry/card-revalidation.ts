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
 * - Never with credentials: a card the app fetched with any header a card fetch does not need,
 *   or whose URL carries a secret (core/credentials.ts), and an extended card, are not
 *   revalidated.
 * - A card found changed is remembered beside the app's (CardRegistry.noteNewer: the app keeps
 *   negotiating with its own, spans keep its fingerprint), reported once as card_changed with
 *   what changed (onChanged: the counter and the drift callbacks), and every later call naming a
 *   skill it dropped is drift until the app fetches the card itself. A card alternating between
 *   fingerprints (a rolling deploy) is announced once per transition per debounce window, with
 *   `flapping` once it goes back to one already seen. A fetch that fails, or whose answer is no
 *   card, backs off (doubling, up to MAX_BACKOFF_MS); the backoff is kept per card URL past the
 *   card's use (bounded), so an agent called less often than once per interval keeps it.
 */
import { sameVersionCardChange, type DriftEvent } from '../core/judge';
import { logger } from '../diag-logger';
import { isRefetched, type CardRefetcher } from './card-refetch';
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

/** Card URLs whose failures and announced changes are remembered past their use, at most. */
export const MAX_CARDS_REMEMBERED = 10_000;
/** Transitions (and fingerprints seen) remembered per card URL, at most. */
const MAX_TRANSITIONS = 16;

interface InUse {
  lastUsed: number;
  /** When the card was last fetched (by the app, or by a revalidation). */
  lastChecked: number;
  /** The held card's fingerprint at the last check: the app fetching another resets the clock. */
  heldFingerprint: string;
  inFlight: boolean;
  /** The revalidation in flight: resolves once its answer is applied. */
  pending?: Promise<void>;
  /** What is remembered of the card URL past its use (the same object as in `remembered`). */
  memory: Remembered;
}

/**
 * What a card URL keeps when it is no longer in use, so an agent called less often than once per
 * interval keeps its backoff, and a card that flaps keeps its announced transitions.
 */
interface Remembered {
  failures: number;
  notBefore: number;
  /** The fingerprint the last revalidation found. */
  lastFound?: string;
  /** `from→to` transitions announced as card_changed, and when. */
  announced: Map<string, number>;
  /** Fingerprints revalidation found at this URL (a flap goes back to one of them). */
  seen: Set<string>;
}

export interface RevalidationSettings {
  intervalMs: number;
  /** A transition of a card is announced once per this window (driftCallbackDebounceMs). */
  debounceMs?: number;
}

export class CardRevalidator {
  private readonly inUse = new Map<string, InUse>();
  private readonly remembered = new Map<string, Remembered>();
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

  /**
   * A call uses the card at `cardUrl` (held in the registry): keep it fresh while that lasts. A
   * card not confirmed within the interval (the app was idle, or did not call this agent for
   * longer) is revalidated at once: the promise resolves once its answer is known (the newer card,
   * if any, remembered), so the verdict can land on this call's span. Undefined when this call
   * started no revalidation.
   */
  noteUse(cardUrl: string, now: number): Promise<void> | undefined {
    try {
      return this.use(cardUrl, now);
    } catch (err) {
      logger.debug('could not note a card in use', err);
      return undefined;
    }
  }

  private use(cardUrl: string, now: number): Promise<void> | undefined {
    const interval = this.settings().intervalMs;
    if (interval <= 0) return undefined;
    let u = this.inUse.get(cardUrl);
    if (u !== undefined) {
      u.lastUsed = now;
      // the interval may have been changed (setConfig): the timer follows it
      if (this.timer === undefined || this.interval !== interval) this.arm(interval);
    } else {
      const entry = sharedState().cards.get(cardUrl);
      if (entry === undefined || entry.credentials === true || entry.extended !== undefined)
        return undefined;
      u = {
        lastUsed: now,
        lastChecked: entry.fetchedAt,
        heldFingerprint: entry.fingerprint,
        inFlight: false,
        memory: this.memoryOf(cardUrl),
      };
      this.inUse.set(cardUrl, u);
      if (this.inUse.size > MAX_CARDS_IN_USE) {
        const oldest = this.inUse.keys().next().value;
        if (oldest !== undefined) this.inUse.delete(oldest);
      }
      this.arm(interval);
    }
    if (u.inFlight || now < u.memory.notBefore || this.inFlight >= MAX_IN_FLIGHT) return undefined;
    const entry = sharedState().cards.get(cardUrl);
    if (entry === undefined) return undefined;
    this.caughtUp(u, entry);
    if (now - u.lastChecked < interval) return undefined;
    // Only the call that found the card stale waits for it: while a card endpoint hangs, the
    // calls after it are not held (their verdict comes from the newer card once it is known).
    this.revalidate(cardUrl, u);
    return u.inFlight ? u.pending : undefined;
  }

  /** The app fetched the card itself since the last check: that is the freshest fetch. */
  private caughtUp(u: InUse, entry: { fingerprint: string; fetchedAt: number }): void {
    if (entry.fingerprint !== u.heldFingerprint || entry.fetchedAt > u.lastChecked) {
      u.heldFingerprint = entry.fingerprint;
      u.lastChecked = Math.max(u.lastChecked, entry.fetchedAt);
      delete u.memory.lastFound;
    }
  }

  /** Stop: no timer, nothing remembered. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.inUse.clear();
    this.remembered.clear();
  }

  /** What is remembered of `cardUrl` (made if new; the least recently used forgotten first). */
  private memoryOf(cardUrl: string): Remembered {
    let m = this.remembered.get(cardUrl);
    if (m !== undefined) {
      this.remembered.delete(cardUrl); // re-inserted: the Map's order stays oldest first
    } else {
      m = { failures: 0, notBefore: 0, announced: new Map(), seen: new Set() };
    }
    this.remembered.set(cardUrl, m);
    if (this.remembered.size > MAX_CARDS_REMEMBERED) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
    return m;
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
        if (u.inFlight || now < u.memory.notBefore) continue;
        const entry = sharedState().cards.get(cardUrl);
        if (entry === undefined) {
          this.inUse.delete(cardUrl);
          continue;
        }
        this.caughtUp(u, entry);
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
    const m = u.memory;
    u.pending = pending
      .then((r) => {
        u.lastChecked = Date.now();
        if (!isRefetched(r)) {
          // no answer, an error status, no card (a maintenance page's JSON): backoff, no drift
          this.counts.failed++;
          m.failures++;
          m.notBefore =
            u.lastChecked + Math.min(MAX_BACKOFF_MS, this.settings().intervalMs * 2 ** m.failures);
          return;
        }
        m.failures = 0;
        m.notBefore = 0;
        const from = m.lastFound ?? held.fingerprint;
        m.lastFound = r.fingerprint;
        if (r.fingerprint === held.fingerprint) {
          this.counts.unchanged++;
          return;
        }
        this.counts.changed++;
        if (from === r.fingerprint) return; // announced when it was first found
        // Once per transition per debounce window: a rolling deploy alternating two cards at one
        // URL is one change each way, said to flap, not one change per revalidation.
        const transition = `${from}\u0000${r.fingerprint}`;
        const at = m.announced.get(transition);
        const window = Math.max(this.settings().debounceMs ?? 0, this.settings().intervalMs);
        if (at !== undefined && u.lastChecked - at < window) return;
        const flapping = m.seen.has(r.fingerprint);
        remember(m.announced, transition, u.lastChecked);
        m.seen.add(r.fingerprint);
        if (m.seen.size > MAX_TRANSITIONS) m.seen.delete(m.seen.values().next().value as string);
        const event = sameVersionCardChange(cardUrl, held, r);
        if (event === undefined) return;
        this.onChanged(flapping ? { ...event, flapping: true } : event);
      })
      .catch((err: unknown) => logger.debug('card revalidation failed', err))
      .finally(() => {
        u.inFlight = false;
        this.inFlight--;
      });
  }
}

/** Sets `key` as the newest entry of a map bounded to MAX_TRANSITIONS. */
function remember(map: Map<string, number>, key: string, at: number): void {
  map.delete(key);
  map.set(key, at);
  if (map.size > MAX_TRANSITIONS) map.delete(map.keys().next().value as string);
}
