/**
 * Confirming a suspicion. Evidence read from the CONTENT of an answer (a completed task's text,
 * an artifact's or a Message's words) was written by a language model, not by the protocol: a
 * proofreading answer "Skill proofread does not exist." or an answer quoting the user's own
 * request reads exactly like a framework's error. Such evidence is a suspicion, confirmed the way
 * the field report prescribes: by fetching the card again. Pure and total.
 */
import type { DriftKind } from './drift-kinds';
import { ArtifactSchemaDriftError, StaleAgentCardError } from './errors';
import { fingerprintPrefix } from './fingerprint';
import type { DriftEvent } from './judge';
import type { CardEntry } from './card-registry';
import type { DecodedCard, NegotiationContext } from './model';
import { withoutQuery } from './url';

export type Confirmation =
  /** The card fetched again no longer lists the skill, or lists it with other modes. */
  | 'confirmed'
  /** It still lists the skill, unchanged: the answer's words are not evidence of a stale card. */
  | 'refuted'
  /** The card could not be fetched again (in time): nothing can be said. */
  | 'unknown';

function sameModes(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (a === undefined) return true; // nothing held to compare with
  if (a.length !== b.length) return false;
  const sa = [...a].sort();
  const sb = [...b].sort();
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return false;
  return true;
}

/**
 * What the card fetched again says of a content-level suspicion that `skillId` is missing.
 *
 * @param held the skill's modes in the card used at negotiation
 * @param refetched the card at the same URL now, undefined when it could not be had
 */
export function confirmSuspicion(
  skillId: string | undefined,
  held: { inputModes?: readonly string[]; outputModes?: readonly string[] },
  refetched: DecodedCard | undefined,
): Confirmation {
  try {
    if (refetched === undefined || skillId === undefined) return 'unknown';
    const skill = refetched.skills.find((s) => s.id === skillId);
    if (skill === undefined) return refetched.skillsTruncated === true ? 'unknown' : 'confirmed';
    if (!sameModes(held.outputModes, skill.outputModes)) return 'confirmed';
    if (!sameModes(held.inputModes, skill.inputModes)) return 'confirmed';
    return 'refuted';
  } catch {
    return 'unknown';
  }
}

/**
 * A suspicion raised by a failure or by an answer's own words (Judgement.suspicion) that the card
 * fetched again confirms, as the drift it is: the skill gone → unknown_skill; still listed with
 * other input modes → unsupported_mode; with other output modes → output_mode_mismatch. The
 * event keeps the negotiated card's fingerprint and says the newer card's. Undefined when the card
 * does not confirm it (or could not be had).
 */
export function confirmedDrift(
  suspicion: DriftEvent,
  held: { inputModes?: readonly string[]; outputModes?: readonly string[] },
  refetched: { fingerprint: string; card?: DecodedCard } | undefined,
): DriftEvent | undefined {
  try {
    const card = refetched?.card;
    if (refetched === undefined || card === undefined) return undefined;
    if (confirmSuspicion(suspicion.skillId, held, card) !== 'confirmed') return undefined;
    const skill = card.skills.find((s) => s.id === suspicion.skillId);
    const kind: DriftKind =
      skill === undefined
        ? 'unknown_skill'
        : !sameModes(held.inputModes, skill.inputModes)
          ? 'unsupported_mode'
          : 'output_mode_mismatch';
    const what =
      kind === 'unknown_skill'
        ? 'no longer lists it'
        : `lists it with other ${kind === 'unsupported_mode' ? 'input' : 'output'} modes`;
    const skillText =
      suspicion.skillId === undefined
        ? 'the skill'
        : `skillId=${JSON.stringify(suspicion.skillId.slice(0, 256))}`;
    const cardText = suspicion.cardUrl
      ? ` at ${withoutQuery(suspicion.cardUrl).slice(0, 256)}`
      : '';
    const message =
      `${suspicion.suspicion === 'words' ? 'peer answered' : 'a call for'} ${skillText} ` +
      `${suspicion.suspicion === 'words' ? 'naming it with words of absence' : 'failed'}, and the Agent Card${cardText} fetched again ${what} ` +
      `(fingerprint ${fingerprintPrefix(suspicion.fingerprint ?? '')}… → ${fingerprintPrefix(refetched.fingerprint)}…): re-fetch the Agent Card before retrying`;
    const details = {
      kind,
      skillId: suspicion.skillId,
      taskId: suspicion.taskId,
      cardUrl: suspicion.cardUrl,
      fingerprint: suspicion.fingerprint,
    };
    return {
      ...suspicion,
      kind,
      evidence: 'card',
      currentFingerprint: refetched.fingerprint,
      error:
        kind === 'output_mode_mismatch'
          ? new ArtifactSchemaDriftError(message, details)
          : new StaleAgentCardError(message, details),
      ...(kind === 'output_mode_mismatch' && skill !== undefined
        ? { expectedModes: held.outputModes }
        : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * A call negotiated with the card held at `ctx.cardUrl`, which was being fetched again (a
 * revalidation): the context to judge the call by when a newer card this package found there no
 * longer lists the call's skill (`droppedByNewerCard`). Undefined when nothing changes: the skill
 * was not in the card or a newer card already decided, the app holds another card now, no newer
 * card was found, or it still lists the skill (or its skills were cut short). The card is looked
 * up (`cardAt`) only when the context could change.
 */
export function droppedByNewerCard(
  ctx: NegotiationContext,
  cardAt: (cardUrl: string) => CardEntry | undefined,
): NegotiationContext | undefined {
  if (ctx.droppedByNewerCard !== undefined || ctx.skillInCard !== true) return undefined;
  if (ctx.cardUrl === undefined || ctx.skillId === undefined) return undefined;
  const entry = cardAt(ctx.cardUrl);
  const newer = entry?.newer;
  // (the app fetched another card meanwhile: its own calls are judged by it)
  if (entry === undefined || entry.fingerprint !== ctx.fingerprint || newer === undefined)
    return undefined;
  if (newer.skills.has(ctx.skillId) || newer.card.skillsTruncated === true) return undefined;
  return { ...ctx, droppedByNewerCard: { fingerprint: newer.fingerprint, cause: newer.cause } };
}
