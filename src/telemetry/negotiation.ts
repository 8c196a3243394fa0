/**
 * What an operation call is judged against, settled when it starts: the negotiation of the task
 * it continues (GetTask, CancelTask, SubscribeToTask: what the SendMessage that created the task
 * negotiated, remembered in the registry), or the skill it asks for and the card held for its
 * endpoint (SendMessage), and how they were found (span-attributes.ts turns that into the span's
 * attributes) with the link to the SendMessage's span; the version a request that does not say
 * its own speaks; and, once a SendMessage's task id is known, remembering its negotiation.
 */
import type { Link, Span } from '@opentelemetry/api';
import type { NegotiationContext } from '../core/judge';
import type { DecodedRequest } from '../core/model';
import { endpointScope, isSendOperation } from '../core/protocol/common';
import { cardOutputModes, skillAliases, skillOfRequest } from '../core/skill-names';
import { versionForFamily, type VersionFamily } from '../core/protocol/versions';
import type { CardEntry } from '../core/card-registry';
import type { UrlFacts } from '../core/url';
import { sharedState } from './shared-state';
import type { Negotiated } from './span-attributes';

/** What the negotiation settled, and for a remembered lifecycle negotiation, its span's link. */
export interface NegotiationAtStart extends Negotiated {
  link?: Link;
  /** A lifecycle call: the protocol version the span of the SendMessage that created the task said. */
  protocolVersion?: string;
}

/**
 * The skill and card an operation call is judged against (lifecycle calls: those of the
 * SendMessage that created the task), how they were found (negotiationAttributes reports it) and,
 * for a lifecycle call, a link to the SendMessage's span. `cardEntry` looks the card up (only when
 * needed).
 */
export function negotiationAtStart(
  req: DecodedRequest,
  url: UrlFacts,
  applicationSkillId: string | undefined,
  cardEntry: () => CardEntry | undefined,
): NegotiationAtStart {
  const state = sharedState();
  const now = Date.now();
  const isSend = isSendOperation(req.operation);
  let lifecycleKnown: boolean | undefined;
  if (!isSend && req.taskId !== undefined) {
    const n = state.negotiations.get(req.taskId, now, taskScope(url, req));
    // (An entry without a context: put by another copy of this package, of another shape.)
    if (n && typeof n.context === 'object' && n.context !== null) {
      const link = n.link as { traceId?: string; spanId?: string; traceFlags?: number } | undefined;
      return {
        context: n.context,
        skillIdSource: n.skillIdSource,
        lifecycleKnown: true,
        ...(typeof n.protocolVersion === 'string' ? { protocolVersion: n.protocolVersion } : {}),
        ...(link && typeof link.traceId === 'string' && typeof link.spanId === 'string'
          ? {
              link: {
                context: {
                  traceId: link.traceId,
                  spanId: link.spanId,
                  traceFlags: link.traceFlags ?? 0,
                },
              },
            }
          : {}),
      };
    }
    lifecycleKnown = false;
  }
  let skillId = req.skillId;
  let source = req.skillIdSource;
  if (skillId === undefined && applicationSkillId !== undefined) {
    skillId = applicationSkillId;
    source = 'application';
  }
  const entry = cardEntry();
  if (!entry)
    return { context: { cardKnown: false, skillId }, skillIdSource: source, lifecycleKnown };
  if (skillId === undefined) {
    // named in metadata or a data part (only a skill a card of the agent lists), or the card's
    // one skill
    const found = skillOfRequest(
      req,
      { skills: entry.skills, truncated: entry.card.skillsTruncated },
      entry.earlier,
      isSend,
    );
    if (found !== undefined) {
      skillId = found.skillId;
      source = found.source;
    }
  }
  const wide = skillId === undefined ? cardOutputModes(entry.card, entry.skills) : undefined;
  const skill = skillId !== undefined ? entry.skills.get(skillId) : undefined;
  const inEarlierCard =
    skillId !== undefined &&
    skill === undefined &&
    entry.earlier !== undefined &&
    entry.earlier.some((e) => e.skills.has(skillId));
  const newer = entry.newer;
  const droppedByNewer =
    skill !== undefined &&
    newer !== undefined &&
    !newer.skills.has(skill.id) &&
    newer.card.skillsTruncated !== true;
  const aliases =
    skill !== undefined ? skillAliases(entry.card, entry.skills, skill.id) : undefined;
  const context: NegotiationContext = {
    skillId,
    ...(source !== undefined && source !== req.skillIdSource ? { skillIdSource: source } : {}),
    ...(aliases !== undefined ? { skillAliases: aliases } : {}),
    cardKnown: true,
    cardUrl: entry.cardUrl,
    fingerprint: entry.fingerprint,
    agentName: entry.card.name,
    cardVersion: entry.card.version,
    // a card truncated at MAX_SKILLS may list the skill among those not read: not "not listed"
    skillInCard:
      skillId === undefined
        ? undefined
        : skill !== undefined
          ? true
          : entry.card.skillsTruncated === true
            ? undefined
            : false,
    outputModes: skill?.outputModes,
    inputModes: skill?.inputModes,
    ...(inEarlierCard ? { skillInEarlierCard: true } : {}),
    ...(droppedByNewer
      ? { droppedByNewerCard: { fingerprint: newer.fingerprint, cause: newer.cause } }
      : {}),
    ...(wide === undefined
      ? {}
      : 'modes' in wide
        ? { cardOutputModes: wide.modes }
        : { cardModesUnjudged: wide.unjudged }),
  };
  return { context, skillIdSource: source, lifecycleKnown, entry };
}

/** The agent endpoint this call's tasks live at (task ids are unique per agent only). */
export function taskScope(url: UrlFacts, req: DecodedRequest): string | undefined {
  return url.parsed ? endpointScope(url.key, req) : undefined;
}

/**
 * The version a request that does not say its own speaks, from the card for its endpoint:
 * the version of the request's family (0.x method names or 1.x) the card offers there
 * (a card may list JSON-RPC 1.0 and 0.3 at one URL).
 */
export function versionFromCard(
  req: DecodedRequest,
  url: UrlFacts,
  entry: CardEntry | undefined,
): string | undefined {
  return cardVersionOfFamily(requestFamily(req), url, entry);
}

/**
 * The version the card offers at the request's endpoint in the OTHER family than the request's
 * method names. Asked when versionFromCard found none of theirs: an agent whose card states only
 * 1.0 and that answers slash-style names (pydantic's fasta2a: `message/send` with 1.0-shaped
 * answers) speaks what its card says, unless its answers show the other family (a2a-sdk's 0.3
 * compatibility, judged by the caller at the call's end).
 */
export function versionFromCardOtherFamily(
  req: DecodedRequest,
  url: UrlFacts,
  entry: CardEntry | undefined,
): string | undefined {
  return cardVersionOfFamily(requestFamily(req) === '0' ? '1' : '0', url, entry);
}

/** The method-name family of a request (`0`: slash-style JSON-RPC names; else 1.x). */
function requestFamily(req: DecodedRequest): VersionFamily {
  return req.binding === 'jsonrpc' && !/^[A-Z]/.test(req.wireMethod) ? '0' : '1';
}

function cardVersionOfFamily(
  family: VersionFamily,
  url: UrlFacts,
  entry: CardEntry | undefined,
): string | undefined {
  if (!entry) return undefined;
  let atEndpoint = entry.endpointVersions.get(url.key);
  if (atEndpoint === undefined) {
    // the request URL is below the endpoint (REST paths): the card's versions of any endpoint
    atEndpoint = [];
    for (const vs of entry.endpointVersions.values())
      for (const v of vs) if (atEndpoint.length < 16) atEndpoint.push(v);
  }
  return versionForFamily(family, atEndpoint, entry.card.protocolVersion);
}

/**
 * Remembers what a SendMessage negotiated for the task it created, so the task's later calls
 * (GetTask, CancelTask, SubscribeToTask) are judged against it and linked to its span.
 */
export function rememberNegotiation(
  taskId: string,
  request: DecodedRequest | undefined,
  url: UrlFacts,
  ctx: NegotiationContext,
  span: Span,
  protocolVersion?: string,
): void {
  const spanContext = span.spanContext();
  sharedState().negotiations.put({
    taskId,
    scope: request ? taskScope(url, request) : undefined,
    context: ctx,
    ...(protocolVersion !== undefined ? { protocolVersion } : {}),
    skillIdSource:
      ctx.skillIdSource ??
      request?.skillIdSource ??
      (ctx.skillId !== undefined ? 'application' : undefined),
    link: {
      traceId: spanContext.traceId,
      spanId: spanContext.spanId,
      traceFlags: spanContext.traceFlags,
    },
    createdAt: Date.now(),
  });
}
