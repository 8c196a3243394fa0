/**
 * Agent Card decoding (every version) and URL normalisation for matching request URLs to
 * card endpoints. Pure, total, bounded.
 *
 * Endpoints:
 * - 0.1–0.3: top-level `url` with `preferredTransport` (0.2.4+; the spec's default is
 *   `JSONRPC`, and before 0.2.4 JSON-RPC was the only binding, so a `url` without it is
 *   reported as `JSONRPC`), `additionalInterfaces: [{url, transport}]` (0.2.4+), with the
 *   card's top-level `protocolVersion` (0.2.5+) as their version;
 * - 1.0: `supportedInterfaces: [{url, protocolBinding, tenant?, protocolVersion}]`.
 * Duplicates (same url, binding and version) are listed once, first occurrence wins.
 *
 * Skills carry EFFECTIVE modes: a skill whose `inputModes` / `outputModes` is absent, not an
 * array, or empty after dropping non-string entries inherits the card's defaults (proto3
 * JSON cannot tell an empty list from an absent one, and a skill accepting no mode at all is
 * meaningless). Only string entries of mode arrays are kept. Skills without a string id are
 * skipped and counted in `problem`.
 *
 * camelCase is read first; the proto snake_case spelling is accepted as a fallback.
 */
import { MAX_SKILL_ID } from './evidence';
import { arr, isRecord, nonEmptyStr, own, ownEither, str } from './json-path';
import type { AgentEndpoint, DecodedCard, SkillInfo } from './model';

export const MAX_SKILLS = 10_000;
export const MAX_MODES = 1000;
export const MAX_ENDPOINTS = 100;

function modes(v: unknown): string[] | undefined {
  const a = arr(v);
  if (a === undefined) return undefined;
  const n = a.length > MAX_MODES ? MAX_MODES : a.length;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = a[i];
    if (typeof m === 'string') out.push(m);
  }
  return out;
}

function emptyCard(problem?: string): DecodedCard {
  const c: DecodedCard = {
    endpoints: [],
    streaming: false,
    pushNotifications: false,
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
  };
  if (problem !== undefined) c.problem = problem;
  return c;
}

/**
 * True when a parsed JSON value has the required fields of an Agent Card of some version:
 * a non-empty `name`, a `skills` array, and where to reach the agent or which protocol it
 * speaks (`url`, `supportedInterfaces`, or `protocolVersion`). An arbitrary JSON with a
 * `skills` key is not a card. Never throws.
 */
export function isAgentCard(json: unknown): boolean {
  try {
    if (!isRecord(json)) return false;
    if (nonEmptyStr(own(json, 'name')) === undefined || arr(own(json, 'skills')) === undefined)
      return false;
    return (
      nonEmptyStr(own(json, 'url')) !== undefined ||
      arr(ownEither(json, 'supportedInterfaces', 'supported_interfaces')) !== undefined ||
      nonEmptyStr(ownEither(json, 'protocolVersion', 'protocol_version')) !== undefined
    );
  } catch {
    return false;
  }
}

/**
 * Why a parsed JSON value is not an Agent Card (`isAgentCard` false), in words naming the
 * fields: `skills is null` (a Python server's `None`), `no name`, ... Never throws.
 */
export function notACardReason(json: unknown): string {
  try {
    if (!isRecord(json)) return 'not a JSON object';
    const why: string[] = [];
    const said = (key: string, v: unknown, what: string): void => {
      why.push(
        v === undefined ? `no ${key}` : v === null ? `${key} is null` : `${key} is not ${what}`,
      );
    };
    const name = own(json, 'name');
    if (nonEmptyStr(name) === undefined) said('name', name, 'a non-empty string');
    const skills = own(json, 'skills');
    if (arr(skills) === undefined) said('skills', skills, 'an array');
    if (
      nonEmptyStr(own(json, 'url')) === undefined &&
      arr(ownEither(json, 'supportedInterfaces', 'supported_interfaces')) === undefined &&
      nonEmptyStr(ownEither(json, 'protocolVersion', 'protocol_version')) === undefined
    )
      why.push('no url, supportedInterfaces or protocolVersion');
    return why.length > 0 ? why.join('; ') : 'an Agent Card';
  } catch {
    return 'unreadable';
  }
}

/** Decodes an Agent Card of any version (the parsed JSON). Never throws. */
export function decodeCard(json: unknown): DecodedCard {
  try {
    return decode(json);
  } catch {
    return emptyCard('internal decoder error');
  }
}

function decode(json: unknown): DecodedCard {
  if (!isRecord(json)) return emptyCard('card is not a JSON object');
  const problems: string[] = [];
  const card = emptyCard();

  const name = str(own(json, 'name'));
  if (name !== undefined) card.name = name;
  const version = str(own(json, 'version'));
  if (version !== undefined) card.version = version;
  const description = str(own(json, 'description'));
  if (description !== undefined) card.description = description;
  const protocolVersion = nonEmptyStr(ownEither(json, 'protocolVersion', 'protocol_version'));
  if (protocolVersion !== undefined) card.protocolVersion = protocolVersion;

  // capabilities: only `true` is true
  const caps = own(json, 'capabilities');
  if (isRecord(caps)) {
    card.streaming = own(caps, 'streaming') === true;
    card.pushNotifications = ownEither(caps, 'pushNotifications', 'push_notifications') === true;
  } else if (caps !== undefined && caps !== null) {
    problems.push('capabilities is not an object');
  }

  // default modes
  const din = ownEither(json, 'defaultInputModes', 'default_input_modes');
  const dout = ownEither(json, 'defaultOutputModes', 'default_output_modes');
  const defIn = modes(din);
  const defOut = modes(dout);
  if (defIn !== undefined) card.defaultInputModes = defIn;
  else if (din !== undefined && din !== null) problems.push('defaultInputModes is not an array');
  if (defOut !== undefined) card.defaultOutputModes = defOut;
  else if (dout !== undefined && dout !== null) problems.push('defaultOutputModes is not an array');

  endpoints(json, card, problems);
  skills(json, card, problems);

  if (
    card.name === undefined &&
    card.endpoints.length === 0 &&
    own(json, 'skills') === undefined &&
    own(json, 'capabilities') === undefined
  ) {
    problems.unshift('not an Agent Card (no name, interfaces, capabilities or skills)');
  }

  if (problems.length > 0) card.problem = problems.join('; ');
  return card;
}

function endpoints(json: Record<string, unknown>, card: DecodedCard, problems: string[]): void {
  const out = card.endpoints;
  const add = (
    url: unknown,
    binding: unknown,
    protocolVersion: string | undefined,
    tenant?: unknown,
  ): void => {
    if (out.length >= MAX_ENDPOINTS) return;
    const u = nonEmptyStr(url);
    if (u === undefined) return;
    const t = u.trim();
    if (t.length === 0) return;
    const b = nonEmptyStr(binding);
    // One URL may serve several versions on one binding (ADK cards list JSONRPC 1.0 and 0.3).
    for (let i = 0; i < out.length; i++)
      if (out[i].url === t && out[i].binding === b && out[i].protocolVersion === protocolVersion)
        return;
    const e: AgentEndpoint = { url: t };
    if (b !== undefined) e.binding = b;
    if (protocolVersion !== undefined) e.protocolVersion = protocolVersion;
    const tn = nonEmptyStr(tenant);
    if (tn !== undefined) e.tenant = tn;
    out.push(e);
  };

  // 1.0
  const si = ownEither(json, 'supportedInterfaces', 'supported_interfaces');
  const sia = arr(si);
  if (sia !== undefined) {
    const n = Math.min(sia.length, MAX_ENDPOINTS);
    for (let i = 0; i < n; i++) {
      const it = sia[i];
      if (!isRecord(it)) continue;
      add(
        own(it, 'url'),
        ownEither(it, 'protocolBinding', 'protocol_binding'),
        nonEmptyStr(ownEither(it, 'protocolVersion', 'protocol_version')),
        own(it, 'tenant'),
      );
    }
  } else if (si !== undefined && si !== null) {
    problems.push('supportedInterfaces is not an array');
  }

  // 0.x
  const url = own(json, 'url');
  if (url !== undefined) {
    const pt = own(json, 'preferredTransport');
    add(url, nonEmptyStr(pt) ?? 'JSONRPC', card.protocolVersion);
  }
  const ai = own(json, 'additionalInterfaces');
  const aia = arr(ai);
  if (aia !== undefined) {
    const n = Math.min(aia.length, MAX_ENDPOINTS);
    for (let i = 0; i < n; i++) {
      const it = aia[i];
      if (!isRecord(it)) continue;
      add(own(it, 'url'), own(it, 'transport'), card.protocolVersion);
    }
  } else if (ai !== undefined && ai !== null) {
    problems.push('additionalInterfaces is not an array');
  }
}

function skills(json: Record<string, unknown>, card: DecodedCard, problems: string[]): void {
  const raw = own(json, 'skills');
  const list = arr(raw);
  if (list === undefined) {
    if (raw !== undefined && raw !== null) problems.push('skills is not an array');
    return;
  }
  if (list.length > MAX_SKILLS) {
    problems.push(`only the first ${MAX_SKILLS} skills were read`);
    card.skillsTruncated = true;
  }
  const n = list.length > MAX_SKILLS ? MAX_SKILLS : list.length;
  let noId = 0;
  let badModes = 0;
  const out: SkillInfo[] = card.skills;
  for (let i = 0; i < n; i++) {
    const s = list[i];
    const id = isRecord(s) ? nonEmptyStr(own(s, 'id')) : undefined;
    if (id === undefined) {
      noId++;
      continue;
    }
    const rin = ownEither(s, 'inputModes', 'input_modes');
    const rout = ownEither(s, 'outputModes', 'output_modes');
    const ins = modes(rin);
    const outs = modes(rout);
    if (
      (rin !== undefined && rin !== null && ins === undefined) ||
      (rout !== undefined && rout !== null && outs === undefined)
    ) {
      badModes++;
    }
    const name = nonEmptyStr(own(s, 'name'));
    out.push({
      id,
      ...(name !== undefined && name.length <= MAX_SKILL_ID ? { name } : {}),
      inputModes: ins !== undefined && ins.length > 0 ? ins : card.defaultInputModes.slice(),
      outputModes: outs !== undefined && outs.length > 0 ? outs : card.defaultOutputModes.slice(),
    });
  }
  if (noId > 0) problems.push(`${noId} skill(s) without a string id skipped`);
  if (badModes > 0)
    problems.push(`${badModes} skill(s) with non-array modes use the card defaults`);
}

export { normaliseUrl } from './url';

/**
 * A card's skills by id (a repeated id: the last), for the lookups of a call's skill; total, even
 * on a hostile object.
 */
export function skillMap(card: Partial<DecodedCard>): Map<string, SkillInfo> {
  const map = new Map<string, SkillInfo>();
  try {
    const skills = card.skills;
    if (!Array.isArray(skills)) return map;
    for (const s of skills) {
      if (typeof s === 'object' && s !== null && typeof s.id === 'string') map.set(s.id, s);
    }
  } catch {
    // a hostile skills list: what was read so far
  }
  return map;
}
