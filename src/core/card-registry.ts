/**
 * The bounded, pure registry of the Agent Cards seen on the wire, with their fingerprint history
 * and the endpoints they declare (which card judges a call). The task negotiations are in
 * negotiation-registry.ts; the ordered map both are bounded with in linked-map.ts.
 *
 * Pure data structures: no timers, no I/O, no OpenTelemetry; time is passed in (`now`,
 * ms). Memory is bounded by the caps whatever the traffic: Maps keep insertion order and
 * the oldest (least recently put/used) entries are dropped first. Every method is total:
 * odd input is ignored or treated as documented, never thrown on.
 */
import { skillMap } from './card';
import { LinkedMap, intOption, readOption } from './linked-map';
import type { DecodedCard, SkillInfo, Suspicion } from './model';
import {
  agentScopeOf,
  cardKey,
  isUnder,
  operationRoutePrefix,
  pathHasSegment,
  sniffedPathScope,
} from './card-scope';
import { normaliseUrl, originOfNormalised, urlFacts, withoutQuery } from './url';
import { grpcTargetUrl, isGrpcBinding } from './protocol/grpc';

export interface CardEntry {
  /** The card URL as passed to `put`. */
  cardUrl: string;
  card: DecodedCard;
  fingerprint: string;
  version?: string;
  fetchedAt: number;
  suspect: boolean;
  /** Who implicated it: this process's own evidence (`local`) or a fleet alert (`fleet`). */
  suspectSource?: 'local' | 'fleet';
  /** The card response's validators, for a conditional re-fetch. */
  etag?: string;
  lastModified?: string;
  /** The card's skills by id (for duplicate ids the last one wins, as a Python dict would). */
  skills: Map<string, SkillInfo>;
  /** Normalised endpoint URL → the protocol versions the card offers there (as written). */
  endpointVersions: Map<string, Array<string | undefined>>;
  /**
   * The agent a per-agent card URL names (`/.well-known/{agentId}/agent-card.json`, Mastra and
   * VoltAgent): on a shared origin the card speaks only for request paths with that segment.
   */
  agentScope?: string;
  /**
   * A card found by sniffing an odd path (`/x/agent/card`, `/a2a/agent.json`) speaks, by
   * origin, only for requests under the path it was served from (`…/x`, `…/a2a`): the
   * normalised URL prefix.
   */
  pathScope?: string;
  /**
   * An authenticated extended card (what a client holds after GetExtendedAgentCard: the public
   * card's skills and more): answered by `GET …/extendedAgentCard` or `GET …/v1/card` (`rest`),
   * or inside a JSON-RPC GetExtendedAgentCard result (`jsonrpc`, held under the endpoint's URL;
   * it cannot be re-fetched with a GET). Among cards declaring an endpoint it speaks first. Like
   * any card it speaks for the endpoints on its own origin (the origin it was served from); on
   * other origins only for those its own origin's public card lists (held when it arrives): an
   * extended card cannot claim another host's agent.
   */
  extended?: 'rest' | 'jsonrpc';
  /** Fetched with the app's credentials (core/credentials.ts): never fetched again by the package. */
  credentials?: boolean;
  /**
   * The skills of the earlier cards held under this URL (newest first, at most
   * MAX_EARLIER_CARDS, each with its fingerprint): a skill the app still names that one of them
   * listed was dropped by a redeploy.
   */
  earlier?: EarlierCard[];
  /**
   * A newer card at this URL fetched by this package itself (to settle a suspicion, or to
   * revalidate) whose fingerprint differs from the card the app holds: the app keeps negotiating
   * with its own card (spans keep its fingerprint), and a skill the newer card dropped is
   * reported on every call that names it, until the app fetches the card again.
   */
  newer?: NewerCard;
}

/** An earlier card of an agent, as remembered: its fingerprint and skills. */
export interface EarlierCard {
  fingerprint: string;
  skills: Map<string, SkillInfo>;
}

/** A newer card seen by the package's own fetch (CardEntry.newer). */
export interface NewerCard {
  fingerprint: string;
  card: DecodedCard;
  skills: Map<string, SkillInfo>;
  fetchedAt: number;
  cause: Suspicion;
}

/**
 * Earlier cards remembered per held card URL. With at most maxCards held cards and each card's
 * skills capped by the decoder, the history is bounded at (1 + MAX_EARLIER_CARDS) skill maps per
 * held card (plus one newer card).
 */
export const MAX_EARLIER_CARDS = 3;

export interface CardUpdate {
  entry: CardEntry;
  previousFingerprint?: string;
  previousVersion?: string;
  /** fingerprint differs from the last one recorded for this card URL while version is the same */
  changed: boolean;
  /** version differs from the last one recorded (fingerprint equal or not) */
  versionChanged: boolean;
  /** The card held under this URL before (when it still was: what changed can be said). */
  previousCard?: DecodedCard;
}

export interface CardRegistryOptions {
  /** Cards held (least recently put/used dropped first). Default 1000. */
  maxCards?: number;
  /** Fingerprint history entries, one per card URL, oldest dropped first. Default 10000. */
  maxHistory?: number;
}

/**
 * Endpoints of one card that are indexed (of at most 16x as many list items read); more are
 * ignored: bounds a hostile card.
 */
const MAX_ENDPOINTS_PER_CARD = 64;

interface HistoryRecord {
  fingerprint: string;
  version: string | undefined;
}

interface Indexed {
  endpoints: string[];
  origins: string[];
  /**
   * Origins of the endpoints the card declares (a card with endpoints on an origin speaks there
   * only for them).
   */
  endpointOrigins: string[];
  /** The card URL's own origin. */
  cardOrigin: string | undefined;
  /** An extended card (CardEntry.extended). */
  extended: boolean;
}

/** Cards sharing an origin looked at, newest first, when no endpoint matches. */
const MAX_ORIGIN_CANDIDATES = 64;
/** heldAt: at most this many of an origin's cards are looked at (newest first). */
const MAX_SCAN_AT_ORIGIN = 256;

/** Adds `key` as the most recent member of `index[k]`. */
function addToIndex(index: Map<string, LinkedMap<string, true>>, k: string, key: string): void {
  let members = index.get(k);
  if (!members) index.set(k, (members = new LinkedMap()));
  members.set(key, true);
}

function removeFromIndex(
  index: Map<string, LinkedMap<string, true>>,
  k: string,
  key: string,
): void {
  const members = index.get(k);
  if (!members) return;
  members.delete(key);
  if (members.size === 0) index.delete(k);
}

export class CardRegistry {
  private maxCards: number;
  private readonly maxHistory: number;
  /** card key → entry; least recently put/used first. */
  private readonly cards = new LinkedMap<string, CardEntry>();
  /** card key → what it put into the indexes (to remove exactly that). */
  private readonly indexed = new Map<string, Indexed>();
  /** normalised endpoint URL → card keys, most recently put newest. */
  private readonly byEndpoint = new Map<string, LinkedMap<string, true>>();
  /** origin → card keys, most recently put newest. */
  private readonly byOrigin = new Map<string, LinkedMap<string, true>>();
  /** card key → last fingerprint/version; outlives eviction; least recently put first. */
  private readonly history = new LinkedMap<string, HistoryRecord>();

  constructor(opts?: CardRegistryOptions) {
    this.maxCards = intOption(readOption(opts, 'maxCards'), 1000, 1);
    this.maxHistory = intOption(readOption(opts, 'maxHistory'), 10000, 1);
  }

  get size(): number {
    return this.cards.size;
  }

  /**
   * Change the cap (the registry is process-wide: the last instrumentation configured sets it);
   * drops the least recently used past it.
   */
  setMaxCards(maxCards: number): void {
    this.maxCards = intOption(maxCards, this.maxCards, 1);
    while (this.cards.size > this.maxCards) this.remove(this.cards.oldestKey() as string);
  }

  /**
   * Records a freshly fetched card (it replaces any card held under the same URL and is
   * no longer suspect), indexes its endpoints (resolved against the card URL; with
   * `sameOriginOnly`, only those on the card URL's origin) and its origins (the card URL's
   * and its endpoints'), and compares it with the last fingerprint/version recorded for the
   * URL, even if that card was evicted since.
   */
  put(
    cardUrl: string,
    card: DecodedCard,
    fingerprint: string,
    now: number,
    opts?: {
      sameOriginOnly?: boolean;
      etag?: string;
      lastModified?: string;
      extended?: 'rest' | 'jsonrpc';
      credentials?: boolean;
    },
  ): CardUpdate {
    const key = cardKey(cardUrl);
    const fp = typeof fingerprint === 'string' ? fingerprint : '';
    const c = (typeof card === 'object' && card !== null ? card : {}) as Partial<DecodedCard>;
    const version = safe(() => (typeof c.version === 'string' ? c.version : undefined), undefined);
    const entry: CardEntry = {
      cardUrl: typeof cardUrl === 'string' ? cardUrl : '',
      card,
      fingerprint: fp,
      version,
      fetchedAt: typeof now === 'number' && Number.isFinite(now) ? now : 0,
      suspect: false,
      skills: skillMap(c),
      endpointVersions: new Map(),
    };
    if (typeof opts?.etag === 'string') entry.etag = opts.etag;
    if (typeof opts?.lastModified === 'string') entry.lastModified = opts.lastModified;
    if (opts?.extended === 'rest' || opts?.extended === 'jsonrpc') entry.extended = opts.extended;
    if (opts?.credentials === true) entry.credentials = true;
    const scope = safe(() => agentScopeOf(entry.cardUrl), undefined);
    if (scope !== undefined) entry.agentScope = scope;
    if (opts?.sameOriginOnly === true) {
      const pathScope = safe(() => sniffedPathScope(entry.cardUrl), undefined);
      if (pathScope !== undefined) entry.pathScope = pathScope;
    }

    const before = this.cards.get(key);
    if (before !== undefined) {
      const older = before.earlier ?? [];
      entry.earlier =
        before.fingerprint === fp
          ? older
          : [{ fingerprint: before.fingerprint, skills: before.skills }, ...older].slice(
              0,
              MAX_EARLIER_CARDS,
            );
    }
    this.remove(key);
    this.cards.set(key, entry);
    this.index(key, entry, c, opts?.sameOriginOnly === true);
    while (this.cards.size > this.maxCards) this.remove(this.cards.oldestKey() as string);

    const prev = this.history.get(key);
    this.history.set(key, { fingerprint: fp, version });
    while (this.history.size > this.maxHistory)
      this.history.delete(this.history.oldestKey() as string);

    const update: CardUpdate = {
      entry,
      changed: prev !== undefined && prev.fingerprint !== fp && prev.version === version,
      versionChanged: prev !== undefined && prev.version !== version,
    };
    if (before !== undefined) update.previousCard = before.card;
    if (prev !== undefined) {
      update.previousFingerprint = prev.fingerprint;
      if (prev.version !== undefined) update.previousVersion = prev.version;
    }
    return update;
  }

  /**
   * The cards held for a card URL as telemetry names it (without a query, as a fleet alert's
   * `a2a_agent_card_url` label does): the card held under that URL itself, else those held
   * under it with a query (the LangGraph server's `?assistant_id=…`: one URL in telemetry,
   * one card per assistant here), newest first, at most `max`. Never throws.
   */
  heldAt(cardUrl: string, max = 16): CardEntry[] {
    try {
      const exact = this.get(cardUrl);
      if (exact) return [exact];
      const n = normaliseUrl(cardUrl);
      const origin = n === undefined ? undefined : originOfNormalised(n);
      const keys = origin === undefined ? undefined : this.byOrigin.get(origin);
      if (n === undefined || keys === undefined) return [];
      const out: CardEntry[] = [];
      for (const key of keys.keysNewestFirst(MAX_SCAN_AT_ORIGIN)) {
        const e = this.cards.get(key);
        if (e === undefined || e.cardUrl.indexOf('?') < 0) continue;
        if (normaliseUrl(withoutQuery(e.cardUrl)) !== n) continue;
        out.push(e);
        if (out.length >= max) break;
      }
      return out;
    } catch {
      return [];
    }
  }

  /** The card held for this card URL (marks it recently used). */
  get(cardUrl: string): CardEntry | undefined {
    const key = cardKey(cardUrl);
    const entry = this.cards.get(key);
    if (entry) this.cards.touch(key);
    return entry;
  }

  /**
   * The card that leads to this request URL: an endpoint equal to it (after
   * normalisation: no query, fragment, userinfo, trailing slash), else the endpoint that
   * is its longest prefix at a path-segment boundary (`/a2a` matches `/a2a/message:send`
   * but not `/a2ab`; an endpoint at the origin's root is a prefix of every path), else, by
   * origin, the most recently put card with the request's origin that may speak for the
   * path: one that declares no endpoint on that origin (its endpoints elsewhere, or none)
   * and, for a per-agent card URL (`/.well-known/{agentId}/agent-card.json`), only when the
   * path has the `{agentId}` segment. Several agents on one origin are thus never judged
   * against each other's card. Among cards sharing an endpoint the most recently put wins.
   * Marks the card recently used.
   */
  forRequestUrl(url: string): CardEntry | undefined {
    const facts = urlFacts(url); // memoised: request URLs repeat
    return facts.parsed ? this.forNormalisedUrl(facts.key) : undefined;
  }

  /** forRequestUrl for a URL already normalised by normaliseUrl (no second parse). */
  forNormalisedUrl(n: string): CardEntry | undefined {
    const origin = originOfNormalised(n);
    let key = this.claimant(n, origin);
    if (key === undefined && origin !== undefined) {
      let p = n;
      while (key === undefined && p.length > origin.length) {
        const i = p.lastIndexOf('/');
        if (i < origin.length) break;
        p = p.slice(0, i);
        key = this.claimant(p, origin);
      }
      if (key === undefined && n.length > origin.length) key = this.claimant(origin, origin);
      if (key === undefined) key = this.byOriginFor(origin, n);
    }
    if (key === undefined) return undefined;
    const entry = this.cards.get(key);
    if (entry) this.cards.touch(key);
    return entry;
  }

  /**
   * The card that speaks for endpoint `e`: among the cards declaring it, the newest one
   * served from the endpoint's own origin, else the newest one (a discovery host's card). A
   * card from another host cannot take over an agent whose own card is known. On the same
   * terms an extended card goes before a public one: a client that fetched it negotiates the
   * skills it adds, and judging those against the public card would call them drift.
   */
  private claimant(e: string, origin: string | undefined): string | undefined {
    const members = this.byEndpoint.get(e);
    if (!members) return undefined;
    const newest = members.newestKey();
    if (members.size === 1) return newest;
    let best = newest;
    let bestRank = -1;
    members.findNewestFirst(MAX_ORIGIN_CANDIDATES, (k) => {
      const ix = this.indexed.get(k);
      const rank =
        (origin !== undefined && ix?.cardOrigin === origin ? 2 : 0) + (ix?.extended ? 1 : 0);
      if (rank <= bestRank) return false;
      best = k;
      bestRank = rank;
      return rank === 3; // its own origin and extended: none ranks higher
    });
    return best;
  }

  /**
   * The newest card on `origin` that may speak for the request `n` (see forRequestUrl):
   * cards scoped to the request's agent or path first, then unscoped ones.
   */
  private byOriginFor(origin: string, n: string): string | undefined {
    const members = this.byOrigin.get(origin);
    if (!members) return undefined;
    let unscoped: string | undefined;
    const scoped = members.findNewestFirst(MAX_ORIGIN_CANDIDATES, (k) => {
      const ix = this.indexed.get(k);
      if (ix && ix.endpointOrigins.includes(origin)) return false; // its agent lives at its endpoints on this origin
      const entry = this.cards.get(k);
      if (entry === undefined) return false;
      if (entry.agentScope !== undefined) return pathHasSegment(n, origin, entry.agentScope);
      if (entry.pathScope !== undefined) {
        if (isUnder(n, entry.pathScope) && entry.pathScope !== origin) return true;
        if (!isUnder(n, entry.pathScope)) return false;
      }
      unscoped ??= k;
      return false;
    });
    return scoped ?? unscoped;
  }

  /**
   * A card this package fetched itself at `cardUrl` (CardEntry.newer): remembered beside the card
   * the app holds when that is still the one with `heldFingerprint` and the new one differs;
   * forgotten when the new one is the app's again. Never replaces the app's card.
   */
  noteNewer(
    cardUrl: string,
    heldFingerprint: string,
    fingerprint: string,
    card: DecodedCard,
    now: number,
    cause: Suspicion,
  ): void {
    safe(() => {
      const entry = this.cards.get(cardKey(cardUrl));
      if (entry === undefined || entry.fingerprint !== heldFingerprint) return;
      if (fingerprint === heldFingerprint) {
        delete entry.newer;
        return;
      }
      if (entry.newer?.fingerprint === fingerprint) return;
      entry.newer = { fingerprint, card, skills: skillMap(card), fetchedAt: now, cause };
    }, undefined);
  }

  /**
   * Marks the card held for this URL as implicated in a drift (until it is fetched again). Returns
   * whether one was held.
   */
  markSuspect(cardUrl: string, source: 'local' | 'fleet' = 'local'): boolean {
    const entry = this.cards.get(cardKey(cardUrl));
    if (!entry) return false;
    entry.suspect = true;
    entry.suspectSource = source;
    return true;
  }

  /** Drops the card (its endpoints stop resolving to it); its fingerprint history stays. */
  evict(cardUrl: string): void {
    this.remove(cardKey(cardUrl));
  }

  /** Forgets everything, history included. */
  clear(): void {
    this.cards.clear();
    this.indexed.clear();
    this.byEndpoint.clear();
    this.byOrigin.clear();
    this.history.clear();
  }

  private remove(key: string): void {
    if (!this.cards.delete(key)) return;
    const ix = this.indexed.get(key);
    if (!ix) return;
    this.indexed.delete(key);
    for (const e of ix.endpoints) removeFromIndex(this.byEndpoint, e, key);
    for (const o of ix.origins) removeFromIndex(this.byOrigin, o, key);
  }

  /**
   * `sameOriginOnly`: endpoints on other origins than the card URL's are not indexed (cards found
   * by sniffing an odd path cannot claim another host's agent).
   */
  private index(
    key: string,
    entry: CardEntry,
    card: Partial<DecodedCard>,
    sameOriginOnly: boolean,
  ): void {
    const cardUrl = entry.cardUrl;
    const endpoints: string[] = [];
    const origins: string[] = [];
    const endpointOrigins: string[] = [];
    const normalisedCardUrl = normaliseUrl(cardUrl);
    const cardOrigin =
      normalisedCardUrl !== undefined ? originOfNormalised(normalisedCardUrl) : undefined;
    const base = normalisedCardUrl !== undefined ? cardUrl : undefined;
    const addOrigin = (n: string, list: string[]): void => {
      const o = originOfNormalised(n);
      if (o !== undefined && !list.includes(o)) list.push(o);
    };
    if (normalisedCardUrl !== undefined) addOrigin(normalisedCardUrl, origins);
    try {
      const list: unknown = card.endpoints;
      const topLevel = typeof card.protocolVersion === 'string' ? card.protocolVersion : undefined;
      if (Array.isArray(list)) {
        const scan = Math.min(list.length, 16 * MAX_ENDPOINTS_PER_CARD);
        for (let i = 0; i < scan && endpoints.length < MAX_ENDPOINTS_PER_CARD; i++) {
          const ep: unknown = list[i];
          if (typeof ep !== 'object' || ep === null) continue;
          const url = (ep as { url?: unknown }).url;
          if (typeof url !== 'string') continue;
          // a GRPC interface's url is a channel target (`host:port`), matched as grpc://host:port
          const n = isGrpcBinding((ep as { binding?: unknown }).binding)
            ? grpcTargetUrl(url)
            : normaliseUrl(url, base);
          if (n === undefined) continue;
          const foreign =
            normalisedCardUrl === undefined ||
            originOfNormalised(n) !== originOfNormalised(normalisedCardUrl);
          if (foreign && sameOriginOnly) continue;
          // An extended card speaks, off its own origin, only for what that origin's public
          // card lists (it arrived from that origin's endpoint, however it arrived).
          if (foreign && entry.extended !== undefined && !this.publicCardLists(n, cardOrigin))
            continue;
          const pv = (ep as { protocolVersion?: unknown }).protocolVersion;
          const version = typeof pv === 'string' ? pv : topLevel;
          // An endpoint that names one operation route (`…/v1/message:stream`) speaks for its
          // sibling routes under the same prefix (`…/v1/message:send`, `…/v1/tasks/{id}`).
          const prefix = operationRoutePrefix(n);
          for (const e of prefix === undefined ? [n] : [n, prefix]) {
            const versions = entry.endpointVersions.get(e);
            if (versions === undefined) entry.endpointVersions.set(e, [version]);
            else if (versions.length < 8 && !versions.includes(version)) versions.push(version);
            if (endpoints.includes(e)) continue;
            endpoints.push(e);
            addOrigin(e, origins);
            addOrigin(e, endpointOrigins);
          }
        }
      }
    } catch {
      // a hostile endpoints list: keep what was read
    }
    for (const e of endpoints) addToIndex(this.byEndpoint, e, key);
    for (const o of origins) addToIndex(this.byOrigin, o, key);
    this.indexed.set(key, {
      endpoints,
      origins,
      endpointOrigins,
      cardOrigin,
      extended: entry.extended !== undefined,
    });
  }

  /** Whether a public (not extended) card served from `origin` declares the endpoint `n`. */
  private publicCardLists(n: string, origin: string | undefined): boolean {
    if (origin === undefined) return false;
    const members = this.byEndpoint.get(n);
    if (!members) return false;
    const listed = members.findNewestFirst(MAX_ORIGIN_CANDIDATES, (k) => {
      const ix = this.indexed.get(k);
      return ix !== undefined && !ix.extended && ix.cardOrigin === origin;
    });
    return listed !== undefined;
  }
}

function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}
