/**
 * The names a skill goes by besides its id, and the skill a message names in its content. Pure
 * and total.
 *
 * Peers write about the tool behind a skill, not its card id: Google ADK's card lists
 * `id: "desk-translate", name: "translate"` and its failure says `Function translate is not
 * found`. So evidence may name the skill by its `name` in the negotiated card, or by the tool a
 * framework's known convention derives its id from (dialects/: `skillIdFromTool`). A name that is
 * also another skill's id or name in that card is no alias: evidence for it would be evidence for
 * a different skill.
 *
 * Some clients name the skill inside the message, in a data part
 * (`{"skill": "get_products", "parameters": {...}}`): such a name is taken as the skill id only
 * when the card in use lists it (by id, or as the one skill of that name), or an earlier card of
 * the same agent did (the negotiation looks there: a skill dropped since is the news), never
 * guessed.
 */
import { SKILL_ID_CONVENTIONS } from './dialects/index';
import { MAX_SKILL_ID } from './evidence';
import type { DecodedCard, DecodedRequest, SkillInfo } from './model';

/** Names shorter than this are not aliases (too likely to occur in any text). */
const MIN_ALIAS = 3;

const aliasMemo = new WeakMap<object, Map<string, readonly string[]>>();
/** Per card, at most this many skills' aliases are remembered. */
const MAX_MEMO_PER_CARD = 64;

function lower(s: string): string {
  return s.toLowerCase();
}

/**
 * The other names of `skillId` in `card` (whose skills by id are `skills`), or undefined when it
 * has none. Cached per card.
 */
export function skillAliases(
  card: DecodedCard,
  skills: ReadonlyMap<string, SkillInfo>,
  skillId: string,
): readonly string[] | undefined {
  try {
    let perCard = aliasMemo.get(card);
    const hit = perCard?.get(skillId);
    if (hit !== undefined) return hit.length > 0 ? hit : undefined;
    const found = computeAliases(card, skills, skillId);
    if (perCard === undefined) {
      perCard = new Map();
      aliasMemo.set(card, perCard);
    }
    if (perCard.size < MAX_MEMO_PER_CARD) perCard.set(skillId, found);
    return found.length > 0 ? found : undefined;
  } catch {
    return undefined;
  }
}

function computeAliases(
  card: DecodedCard,
  skills: ReadonlyMap<string, SkillInfo>,
  skillId: string,
): string[] {
  const skill = skills.get(skillId);
  if (skill === undefined) return [];
  const candidates: string[] = [];
  if (typeof skill.name === 'string') candidates.push(skill.name);
  const agent = card.name;
  if (typeof agent === 'string' && agent.length > 0)
    for (const c of SKILL_ID_CONVENTIONS) {
      const prefix = `${agent}${c.agentPrefix.separator}`;
      if (skillId.startsWith(prefix)) candidates.push(skillId.slice(prefix.length));
    }
  const out: string[] = [];
  for (const name of candidates) {
    const n = name.trim();
    if (n.length < MIN_ALIAS || n.length > MAX_SKILL_ID || lower(n) === lower(skillId)) continue;
    if (out.some((o) => lower(o) === lower(n))) continue;
    if (namesAnotherSkill(skills, skillId, n)) continue;
    out.push(n);
  }
  return out;
}

/** True when `name` is the id or the name of a skill other than `skillId`. */
function namesAnotherSkill(
  skills: ReadonlyMap<string, SkillInfo>,
  skillId: string,
  name: string,
): boolean {
  const l = lower(name);
  for (const s of skills.values()) {
    if (s.id === skillId) continue;
    if (lower(s.id) === l || (typeof s.name === 'string' && lower(s.name.trim()) === l))
      return true;
  }
  return false;
}

/**
 * The skill a message names in a data part, as the card in use lists it: the first candidate
 * that is a skill id of the card, or the name of exactly one of its skills (and no skill's id).
 */
export function skillNamedInMessage(
  candidates: ReadonlyArray<{ name: string; source: string }> | undefined,
  skills: ReadonlyMap<string, SkillInfo>,
): { skillId: string; source: string } | undefined {
  if (candidates === undefined || candidates.length === 0) return undefined;
  try {
    for (const c of candidates) {
      if (typeof c.name !== 'string') continue;
      if (skills.has(c.name)) return { skillId: c.name, source: c.source };
      let match: string | undefined;
      let count = 0;
      for (const s of skills.values())
        if (s.name === c.name) {
          match = s.id;
          count++;
        }
      if (count === 1 && match !== undefined) return { skillId: match, source: c.source };
    }
  } catch {
    // a hostile map or candidate list: no skill named
  }
  return undefined;
}

/** Where the skill id of a call that names none came from, when the card lists one skill only. */
export const ONLY_SKILL_IN_CARD = 'only skill in card';

/** A card's skills as skillOfRequest reads them (a CardEntry, or an earlier card of it). */
export interface SkillsOfCard {
  skills: ReadonlyMap<string, SkillInfo>;
  /** The card had more skills than were read (card.ts MAX_SKILLS). */
  truncated?: boolean;
}

/**
 * The skill a decoded request is for, against the card in use (`card`) and the agent's earlier
 * cards (newest first), and where it came from; undefined when the request names none that a
 * card lists and the card lists more than one skill. In order:
 * 1. the id at a configured skillIdPath (taken as written, listed or not: the judge says so);
 * 2. a name in the message's or request's metadata under a key that names a skill, then a name
 *    in a data part of the message: only one the card in use lists (by id, which wins, or as the
 *    name of exactly one skill), else one an earlier card listed (`… (earlier card)`);
 * 3. the card's one skill, when it lists exactly one (`only skill in card`), for a call that does
 *    a skill's work (`onlySkill`, default true: a send). A read or cancel of a task this process
 *    did not see created may be of any agent's task, so it gets none.
 * Pure and total: the client's and the server's side read a call's skill with it.
 */
export function skillOfRequest(
  req: Pick<DecodedRequest, 'skillId' | 'skillIdSource' | 'metadataSkillNames' | 'partSkillNames'>,
  card: SkillsOfCard,
  earlier?: readonly SkillsOfCard[],
  onlySkill = true,
): { skillId: string; source: string } | undefined {
  try {
    if (req.skillId !== undefined)
      return { skillId: req.skillId, source: req.skillIdSource ?? 'request' };
    for (const names of [req.metadataSkillNames, req.partSkillNames]) {
      if (names === undefined) continue;
      const named = skillNamedInMessage(names, card.skills);
      if (named !== undefined) return named;
    }
    if (earlier !== undefined)
      for (const names of [req.metadataSkillNames, req.partSkillNames]) {
        if (names === undefined) continue;
        for (const e of earlier) {
          const before = skillNamedInMessage(names, e.skills);
          if (before !== undefined)
            return { skillId: before.skillId, source: `${before.source} (earlier card)` };
        }
      }
    if (onlySkill && card.skills.size === 1 && card.truncated !== true)
      for (const id of card.skills.keys()) return { skillId: id, source: ONLY_SKILL_IN_CARD };
  } catch {
    // a hostile map: no skill
  }
  return undefined;
}

/** Distinct output modes a card-wide judgement compares with, at most. */
const MAX_CARD_MODES = 64;

const cardModesMemo = new WeakMap<object, { modes: readonly string[] } | { unjudged: string }>();

/**
 * What a call that names no skill is judged against: every output mode some skill of the card
 * lists (a skill without modes has the card's defaults) and the card's defaultOutputModes, or why
 * the card as a whole says nothing (no skills, no modes at all, skills or modes past the caps).
 * Cached per card.
 */
export function cardOutputModes(
  card: Pick<DecodedCard, 'defaultOutputModes' | 'skillsTruncated'>,
  skills: ReadonlyMap<string, SkillInfo>,
): { modes: readonly string[] } | { unjudged: string } {
  const hit = cardModesMemo.get(card);
  if (hit !== undefined) return hit;
  const found = computeCardModes(card, skills);
  cardModesMemo.set(card, found);
  return found;
}

function computeCardModes(
  card: Pick<DecodedCard, 'defaultOutputModes' | 'skillsTruncated'>,
  skills: ReadonlyMap<string, SkillInfo>,
): { modes: readonly string[] } | { unjudged: string } {
  if (card.skillsTruncated === true)
    return { unjudged: 'no skill id for this task, and the card has more skills than were read' };
  if (skills.size === 0)
    return { unjudged: 'no skill id for this task, and the card lists no skills' };
  const seen = new Set<string>();
  const add = (modes: readonly string[] | undefined): boolean => {
    if (!Array.isArray(modes)) return true;
    for (const m of modes) {
      if (typeof m !== 'string') continue;
      seen.add(m.trim().toLowerCase());
      if (seen.size > MAX_CARD_MODES) return false;
    }
    return true;
  };
  let within = add(card.defaultOutputModes);
  for (const s of skills.values()) if (within) within = add(s.outputModes);
  if (!within)
    return {
      unjudged: `no skill id for this task, and the card lists more than ${MAX_CARD_MODES} output modes`,
    };
  if (seen.size === 0)
    return { unjudged: 'no skill id for this task, and the card states no output modes' };
  return { modes: Object.freeze([...seen]) };
}
