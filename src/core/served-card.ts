/**
 * The agent's side: the Agent Cards this process serves, which one judges an inbound request, and
 * whether the caller is stale (it asks for a skill the served card does not list, or it announced
 * the fingerprint of another card). Bounded state, no I/O, no clock.
 *
 * - A served card is known by the path it is served at (`/.well-known/agent-card.json`, the
 *   per-agent `/.well-known/{agentId}/agent-card.json` of Mastra and VoltAgent, …): the bytes the
 *   process actually sent for a GET of that path, or a card the app declares (API).
 * - The card that judges a request is the one whose declared endpoints' paths hold the request's
 *   path (the longest such path wins: each per-agent card judges its own agent's routes); a
 *   request under none of them is judged by the process's only card, else by its root card
 *   (served at `/.well-known/…` with no agent id), else by none.
 * - Skill ids in requests are chosen by whoever calls: as metric labels, ids the served card
 *   lists pass as they are, the first MAX_UNLISTED_SKILL_LABELS others too, and every later one
 *   is `OTHER_SKILL_LABEL`.
 */
import { skillMap } from './card';
import type { DecodedCard, DecodedRequest, SkillInfo } from './model';
import { skillOfRequest } from './skill-names';
import { pathOnly } from './protocol/http-json';

/** Cards served remembered at most (a multi-agent server serves one per agent). */
export const MAX_SERVED_CARDS = 64;
/** Distinct skill ids the served cards never listed that a metric label may carry. */
export const MAX_UNLISTED_SKILL_LABELS = 16;
/** The metric label of every further skill id the served cards never listed. */
export const OTHER_SKILL_LABEL = '_OTHER';
/** Card paths a process asks itself for, at most, to learn the card of one request's route. */
export const MAX_CARD_PATH_CANDIDATES = 4;

/** The drift kinds of a stale caller, as the agent's side sees them. */
export const CALLER_DRIFT_KINDS = ['caller_skill_not_in_card', 'caller_card_stale'] as const;
export type CallerDriftKind = (typeof CALLER_DRIFT_KINDS)[number];

export interface ServedCard {
  /**
   * The local port of the server that serves it (one process may run several agents on several
   * ports); undefined for a declared card, which speaks for every port.
   */
  port?: number;
  /** The path it is served at, no query (`/.well-known/agent-card.json`). */
  path: string;
  /** Where callers fetch it: the card's own origin and `path` (the Host header when it names none). */
  url: string;
  fingerprint: string;
  card: DecodedCard;
  /** `served`: the bytes this process sent; `declared`: the app said so (setServedAgentCard). */
  source: 'served' | 'declared';
}

interface Entry extends ServedCard {
  /** The paths of the endpoints the card declares, without a trailing slash. */
  endpointPaths: string[];
  skillIds: Set<string>;
}

const WELL_KNOWN = '/.well-known/';

function keyOf(port: number | undefined, path: string): string {
  return `${port ?? '*'} ${path}`;
}

/** The path of a URL or request target, without query or trailing slash (`/` stays `/`). */
export function routePath(urlOrTarget: string): string {
  let p = pathOnly(urlOrTarget);
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p === '' ? '/' : p;
}

/** `/.well-known/{x}` at the root, no agent id: the process's root card. */
function isRootCardPath(path: string): boolean {
  return path.startsWith(WELL_KNOWN) && path.indexOf('/', WELL_KNOWN.length) < 0;
}

export class ServedCards {
  private readonly byPath = new Map<string, Entry>();

  get size(): number {
    return this.byPath.size;
  }

  /** Remember a card served at `path` on `port`; a declared card is not replaced by a served one. */
  set(card: ServedCard): void {
    const path = routePath(card.path);
    const key = keyOf(card.port, path);
    const held = this.byPath.get(key) ?? this.byPath.get(keyOf(undefined, path));
    if (held?.source === 'declared' && card.source === 'served') return;
    const endpointPaths: string[] = [];
    for (const e of card.card.endpoints) {
      const p = routePath(e.url);
      if (p !== '/' && !endpointPaths.includes(p)) endpointPaths.push(p);
    }
    this.byPath.delete(key); // re-inserted: the oldest first
    this.byPath.set(key, {
      ...card,
      path,
      endpointPaths,
      skillIds: new Set(card.card.skills.map((s) => s.id)),
    });
    if (this.byPath.size > MAX_SERVED_CARDS) {
      const oldest = this.byPath.keys().next().value;
      if (oldest !== undefined) this.byPath.delete(oldest);
    }
  }

  /** The served card at `path` on `port`, if any. */
  at(port: number | undefined, path: string): ServedCard | undefined {
    const p = routePath(path);
    return this.byPath.get(keyOf(port, p)) ?? this.byPath.get(keyOf(undefined, p));
  }

  /**
   * The card that judges a request to `target` received on `port` (see the file's header), or
   * undefined. Only the cards served on that port, and the declared ones, are considered.
   */
  forRequest(port: number | undefined, target: string): ServedCard | undefined {
    if (this.byPath.size === 0) return undefined;
    const path = routePath(target);
    let best: Entry | undefined;
    let bestLength = -1;
    let root: Entry | undefined;
    let count = 0;
    let only: Entry | undefined;
    for (const e of this.byPath.values()) {
      if (e.port !== undefined && e.port !== port) continue;
      count++;
      only = e;
      for (const p of e.endpointPaths)
        if (
          p.length > bestLength &&
          (path === p || (path.startsWith(p) && path.charCodeAt(p.length) === 47)) /* / */
        ) {
          best = e;
          bestLength = p.length;
        }
      if (isRootCardPath(e.path)) root = e;
    }
    if (best !== undefined) return best;
    if (count === 1) return only;
    return root;
  }

  /** Whether a card served on `port` (or declared) declares an endpoint holding `target`'s path. */
  declaresRoute(port: number | undefined, target: string): boolean {
    if (this.byPath.size === 0) return false;
    const path = routePath(target);
    for (const e of this.byPath.values())
      if (e.port === undefined || e.port === port)
        for (const p of e.endpointPaths)
          if (path === p || (path.startsWith(p) && path.charCodeAt(p.length) === 47)) return true;
    return false;
  }

  /** Whether any served card lists `skillId`. */
  listsAnywhere(skillId: string): boolean {
    for (const e of this.byPath.values()) if (e.skillIds.has(skillId)) return true;
    return false;
  }

  clear(): void {
    this.byPath.clear();
  }
}

/**
 * The card paths a process asks itself for to learn the card judging a request to `target`, in
 * order: the root's `/.well-known/agent-card.json` (most agents serve one card), the per-agent
 * card named by the route's last segment (`/a2a/{agentId}` → `/.well-known/{agentId}/agent-card.json`:
 * Mastra, VoltAgent), then `/.well-known/agent-card.json` under the route's prefixes, longest
 * first (a base path such as `/v03`). At most MAX_CARD_PATH_CANDIDATES.
 */
export function cardPathCandidates(target: string): string[] {
  const path = routePath(target);
  const segments = path.split('/').filter((s) => s.length > 0 && s.length <= 128);
  const out: string[] = [`${WELL_KNOWN}agent-card.json`];
  const last = segments[segments.length - 1];
  if (last !== undefined && /^[A-Za-z0-9._~-]+$/.test(last) && !last.startsWith('.'))
    out.push(`${WELL_KNOWN}${last}/agent-card.json`);
  for (let n = segments.length - 1; n >= 1 && out.length < MAX_CARD_PATH_CANDIDATES; n--)
    out.push(`/${segments.slice(0, n).join('/')}${WELL_KNOWN}agent-card.json`);
  return [...new Set(out)].slice(0, MAX_CARD_PATH_CANDIDATES);
}

/** A fingerprint as this package writes it: SHA-256, lowercase hex. */
export function isFingerprint(v: unknown): v is string {
  return typeof v === 'string' && v.length === 64 && /^[0-9a-f]{64}$/.test(v);
}

/** What the agent's side says of one inbound request. */
export interface CallerVerdict {
  /** The skill the request names, if any. */
  skillId?: string;
  /** Where the skill id was found. */
  skillIdSource?: string;
  /** The served card lists the skill (undefined: no skill named, or no card to judge by). */
  skillListed?: boolean;
  /** The fingerprint the caller announced (a well-formed one only). */
  callerFingerprint?: string;
  /** The stale caller's kind, if it is one. */
  drift?: CallerDriftKind;
  /** Why the request could not be judged, when it could not. */
  unjudged?: string;
}

/**
 * Judges one inbound request against the served card: a skill the card does not list first (the
 * call is for something the agent no longer does), else an announced fingerprint that is not the
 * served card's. A skill is named by the request's skill-id paths, or by a data part naming a
 * skill the card lists (a candidate the card does not list is no claim). Total.
 */
export function judgeCaller(
  served: ServedCard | undefined,
  req: DecodedRequest,
  announced: string | undefined,
): CallerVerdict {
  const verdict: CallerVerdict = {};
  if (isFingerprint(announced)) verdict.callerFingerprint = announced;
  // the same reading of a call's skill as the caller's side (a configured path, a metadata key or
  // a data part naming a skill the served card lists, the card's only skill for a send)
  const named =
    served === undefined
      ? req.skillId === undefined
        ? undefined
        : { skillId: req.skillId, source: req.skillIdSource ?? 'request' }
      : skillOfRequest(
          req,
          { skills: skillsOf(served.card), truncated: served.card.skillsTruncated === true },
          undefined,
          req.operation === 'SendMessage' || req.operation === 'SendStreamingMessage',
        );
  const skillId = named?.skillId;
  if (named !== undefined) {
    verdict.skillId = named.skillId;
    verdict.skillIdSource = named.source;
  }
  if (served === undefined) {
    verdict.unjudged = 'the card this agent serves is not known';
    return verdict;
  }
  if (skillId !== undefined) {
    const listed = skillsOf(served.card).has(skillId);
    if (listed) verdict.skillListed = true;
    else if (served.card.skillsTruncated === true)
      verdict.unjudged = 'the served card lists more skills than were read';
    else {
      verdict.skillListed = false;
      verdict.drift = 'caller_skill_not_in_card';
      return verdict;
    }
  }
  if (verdict.callerFingerprint !== undefined && verdict.callerFingerprint !== served.fingerprint)
    verdict.drift = 'caller_card_stale';
  return verdict;
}

/**
 * The skill-id metric label: ids a served card lists as they are; the first
 * MAX_UNLISTED_SKILL_LABELS others as they are; every later one OTHER_SKILL_LABEL.
 */
export class SkillLabels {
  private readonly unlisted = new Set<string>();

  label(skillId: string, listed: boolean): string {
    if (listed || this.unlisted.has(skillId)) return skillId;
    if (this.unlisted.size >= MAX_UNLISTED_SKILL_LABELS) return OTHER_SKILL_LABEL;
    this.unlisted.add(skillId);
    return skillId;
  }
}

const skillMaps = new WeakMap<DecodedCard, ReadonlyMap<string, SkillInfo>>();

/** The served card's skills by id, made once per card (every request reads them). */
function skillsOf(card: DecodedCard): ReadonlyMap<string, SkillInfo> {
  let map = skillMaps.get(card);
  if (map === undefined) skillMaps.set(card, (map = skillMap(card)));
  return map;
}
