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
import type { DecodedCard, SkillInfo } from './model';

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
