/**
 * Does a text the peer wrote say that the REQUESTED skill is missing? Pure and total.
 *
 * Two kinds of evidence:
 * - the built-in phrasings of real implementations (dialects/), each tied to the requested
 *   id: `Tool "translate" not found` is evidence for `translate` only, never for
 *   `translate-v2` nor for another tool listed in "Available tools: ...";
 * - the user's patterns (`unknownSkillPatterns`, default the field report's `unknown skill`), which
 *   match anywhere in the text; where the text is not a failure by itself (a completed task,
 *   a generic error code) they count only when the text also names the requested id as a
 *   whole token.
 */
import { MISSING_SKILL_PHRASES } from './dialects/index';
import { firstMatch, type TextMatcher } from './patterns';
import { boundedMemo } from './memo';

/** Skill ids (and other skill names) longer than this are never looked for in texts. */
export const MAX_SKILL_ID = 128;
/** Texts are looked at up to this many characters (the decoders cap them too). */
export const MAX_EVIDENCE_TEXT = 4096;

interface Compiled {
  label: string;
  re: RegExp;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * A name's phrases: each compiled (in order: the first that matches gives the label), and `any`,
 * all of them as one alternation. `any` matches a text iff one of them does (an alternation
 * matches where one of its branches does; same flags, no back-references): one scan of the text
 * instead of one per phrase for the common answer, no evidence (measured: ~1.4 -> ~0.8 µs per
 * 384-character window that names the skill, 11 phrases).
 */
interface Phrases {
  list: Compiled[];
  any: RegExp | undefined;
}

const phrasesFor = boundedMemo(
  (skillId: string): Phrases => {
    const id = escapeRegExp(skillId);
    const sources = MISSING_SKILL_PHRASES.map((p) => p.template.split('SKILL').join(id));
    const list = MISSING_SKILL_PHRASES.map((p, i) => ({
      label: p.label,
      re: new RegExp(sources[i], 'i'),
    }));
    // A back-reference would point elsewhere once the groups are renumbered: no `any` then.
    const backRef = sources.some((src) => /\\(?:[1-9]|k<)/.test(src));
    const any =
      !backRef && sources.length > 1
        ? new RegExp(sources.map((src) => `(?:${src})`).join('|'), 'i')
        : undefined;
    return { list, any };
  },
  256,
  MAX_SKILL_ID,
);

/** A case-insensitive search for the id (the phrases match it so). */
const idSearch = boundedMemo(
  (skillId: string): RegExp => new RegExp(escapeRegExp(skillId), 'i'),
  256,
  MAX_SKILL_ID,
);

/** True when `skillId` appears in `text` as a whole token (not inside a longer id). */
export function namesSkill(text: string, skillId: string): boolean {
  if (skillId.length === 0 || skillId.length > MAX_SKILL_ID) return false;
  let from = 0;
  for (;;) {
    const i = text.indexOf(skillId, from);
    if (i < 0) return false;
    const before = i === 0 ? 32 : text.charCodeAt(i - 1);
    const end = i + skillId.length;
    const after = end >= text.length ? 32 : text.charCodeAt(end);
    if (!isIdChar(before) && !isIdChar(after)) return true;
    from = i + 1;
  }
}

/** Characters that continue a skill id: letters, digits, `_`, `-`, `.`, `/`. */
function isIdChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    c === 46 ||
    c === 47
  );
}

/**
 * The label of the first evidence found in `text` that `skillId` is missing, or undefined.
 *
 * @param failure the text explains a failure by itself (a failed task's status): user
 *   patterns then match without naming the id, and also when no skill id is known
 * @param aliases other names of the same skill a peer may write instead of its id (its `name` in
 *   the card, the tool its id is derived from: skill-names.ts); evidence naming one of them counts
 */
export function missingSkillLabel(
  text: string | undefined,
  skillId: string | undefined,
  userPatterns: readonly TextMatcher[],
  failure: boolean,
  aliases?: readonly string[],
): string | undefined {
  if (typeof text !== 'string' || text.length === 0) return undefined;
  const t = text.length > MAX_EVIDENCE_TEXT ? text.slice(0, MAX_EVIDENCE_TEXT) : text;
  // Every built-in phrase names the skill, and a user pattern outside a failure counts only
  // with the skill named: a text that holds none of its names (in any case) is no evidence then.
  // One search per name instead of a pattern each (most texts, e.g. each delta of a streamed
  // answer).
  let held: string[] | undefined;
  if (usableName(skillId) && idSearch(skillId).test(t)) held = [skillId];
  if (aliases !== undefined && skillId !== undefined)
    for (const a of aliases) if (usableName(a) && idSearch(a).test(t)) (held ??= []).push(a);
  if (!failure && held === undefined) return undefined;
  const user = firstMatch(userPatterns, t);
  if (user && (failure || (held !== undefined && held.some((n) => namesSkill(t, n)))))
    return user.label;
  if (held === undefined) return undefined;
  for (const name of held) {
    const phrases = phrasesFor(name);
    if (phrases.any !== undefined && !phrases.any.test(t)) continue;
    for (const p of phrases.list) if (p.re.test(t)) return p.label;
  }
  return undefined;
}

/**
 * Whether `text` holds one of the names missingSkillLabel looks for (the skill id; its aliases
 * when there is an id), as it looks for them. Outside a failure a text that holds none is no
 * evidence: missingSkillLabel(text, skillId, …, false, aliases) is then undefined.
 */
export function holdsSkillName(
  text: string,
  skillId: string | undefined,
  aliases?: readonly string[],
): boolean {
  if (usableName(skillId) && idSearch(skillId).test(text)) return true;
  if (aliases !== undefined && skillId !== undefined)
    for (const a of aliases) if (usableName(a) && idSearch(a).test(text)) return true;
  return false;
}

/** The length of the longest name holdsSkillName looks for (0: none). */
export function longestSkillName(skillId: string | undefined, aliases?: readonly string[]): number {
  let n = usableName(skillId) ? skillId.length : 0;
  if (aliases !== undefined && skillId !== undefined)
    for (const a of aliases) if (usableName(a) && a.length > n) n = a.length;
  return n;
}

function usableName(name: string | undefined): name is string {
  return name !== undefined && name.length > 0 && name.length <= MAX_SKILL_ID;
}

/**
 * Words of absence or failure, in any phrasing a framework or a model may choose: the general
 * rule that makes an answer naming the skill worth a look at the card. Not evidence by itself
 * (a healthy answer may say "no flights found"): only a reason to fetch the card again, which
 * decides. Apostrophes straight or curly; `n't` and `not` alike.
 */
const ABSENCE_WORDS = new RegExp(
  [
    String.raw`not\s+(?:be\s+)?(?:found|available|exist(?:s|ing)?|recogni[sz]ed|registered|supported|defined|known|enabled|allowed|a\s+valid)`,
    String.raw`(?:does|do|did|is|are|was)(?:\s+not|n['’]t)\s+(?:exist|available|found|recogni[sz]ed|registered|supported|defined|known)`,
    String.raw`don['’]?t\s+exist`,
    String.raw`no\s+(?:longer|such|tool|function|skill|action|handler)`,
    String.raw`(?:cannot|can['’]t|could\s+not|couldn['’]t|unable\s+to)\s+(?:find|locate|resolve|call|use|run|invoke)`,
    String.raw`unknown|unavailable|unsupported|unrecogni[sz]ed|undefined|invalid|missing|removed|nonexistent|non-existent`,
    String.raw`fail(?:ed|s|ure)?|error|exception`,
  ]
    .map((s) => `(?:${s})`)
    .join('|')
    .replace(/^/, String.raw`\b(?:`)
    .concat(String.raw`)\b`),
  'i',
);

/** How far from a name of the skill (characters either side) the absence words are looked for. */
export const ABSENCE_REACH = 160;

/**
 * The absence or failure words found near a name of the skill in `text` (its id or an alias, as
 * a whole token), or undefined: a suspicion to be settled by the card, never a verdict. The
 * first `MAX_EVIDENCE_TEXT` characters are read; at most a few occurrences of each name are
 * looked around.
 */
export function absenceNearSkill(
  text: string | undefined,
  skillId: string | undefined,
  aliases?: readonly string[],
): string | undefined {
  if (typeof text !== 'string' || text.length === 0 || !usableName(skillId)) return undefined;
  const t = text.length > MAX_EVIDENCE_TEXT ? text.slice(0, MAX_EVIDENCE_TEXT) : text;
  const found = absenceAround(t, skillId);
  if (found !== undefined || aliases === undefined) return found;
  for (const a of aliases) {
    if (!usableName(a)) continue;
    const f = absenceAround(t, a);
    if (f !== undefined) return f;
  }
  return undefined;
}

/** Occurrences of one name looked around, at most (a hostile text repeating it costs no more). */
const MAX_OCCURRENCES = 8;

function absenceAround(t: string, name: string): string | undefined {
  const lowerText = t.toLowerCase();
  const lowerName = name.toLowerCase();
  let from = 0;
  for (let seen = 0; seen < MAX_OCCURRENCES; seen++) {
    const i = lowerText.indexOf(lowerName, from);
    if (i < 0) return undefined;
    from = i + 1;
    const end = i + name.length;
    const before = i === 0 ? 32 : t.charCodeAt(i - 1);
    let after = end >= t.length ? 32 : t.charCodeAt(end);
    // a full stop that ends the sentence ends the name too (`… called translate.`)
    if (after === 46 && (end + 1 >= t.length || t.charCodeAt(end + 1) <= 32)) after = 32;
    if (isIdChar(before) || isIdChar(after)) continue;
    // Either side of the name, not the name itself (a skill called `unknown-lookup` says
    // nothing by its own name).
    const m =
      ABSENCE_WORDS.exec(t.slice(Math.max(0, i - ABSENCE_REACH), i)) ??
      ABSENCE_WORDS.exec(t.slice(end, Math.min(t.length, end + ABSENCE_REACH)));
    if (m !== null) return m[0].toLowerCase().replace(/\s+/g, ' ');
  }
  return undefined;
}
