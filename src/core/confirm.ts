/**
 * Confirming a suspicion. Evidence read from the CONTENT of an answer (a completed task's text,
 * an artifact's or a Message's words) was written by a language model, not by the protocol: a
 * proofreading answer "Skill proofread does not exist." or an answer quoting the user's own
 * request reads exactly like a framework's error. Such evidence is a suspicion, confirmed the way
 * the field report prescribes: by fetching the card again. Pure and total.
 */
import type { DecodedCard } from './model';

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
