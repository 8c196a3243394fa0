/**
 * What changed between two Agent Cards of one agent, in their negotiable surface: skills removed
 * and added, skills whose input or output modes changed (before and after), and the streaming /
 * push-notification capabilities flipped. Ids only, never descriptions, names or examples.
 * Bounded whatever the cards hold: at most MAX_DIFF_IDS ids per list (`truncated` past that),
 * at most MAX_DIFF_MODES modes per list, each cut to MAX_DIFF_TEXT characters; linear in the
 * skills read (the decoder caps them). Pure and total.
 */
import type { DecodedCard, SkillInfo } from './model';

/** Skill ids per list of a diff, at most. */
export const MAX_DIFF_IDS = 32;
/** Modes per before/after list, at most. */
export const MAX_DIFF_MODES = 16;
/** A skill id or mode longer than this is cut. */
export const MAX_DIFF_TEXT = 256;

export interface ModesChange {
  before: string[];
  after: string[];
}

export interface SkillModesChanged {
  id: string;
  input?: ModesChange;
  output?: ModesChange;
}

export type CapabilityName = 'streaming' | 'push_notifications';

export interface CardDiff {
  removed: string[];
  added: string[];
  modesChanged: SkillModesChanged[];
  capabilities: CapabilityName[];
  /** A list was longer than MAX_DIFF_IDS: the rest is not said. */
  truncated: boolean;
}

function cut(s: string): string {
  return s.length > MAX_DIFF_TEXT ? s.slice(0, MAX_DIFF_TEXT) : s;
}

function modes(list: readonly string[] | undefined): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const m of list) {
    if (out.length >= MAX_DIFF_MODES) break;
    if (typeof m === 'string') out.push(cut(m));
  }
  return out;
}

/** The same modes, order ignored (a card may reorder them). */
function sameModes(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = Array.isArray(a) ? a : [];
  const y = Array.isArray(b) ? b : [];
  if (x.length !== y.length) return false;
  const seen = new Set(x);
  for (const m of y) if (!seen.has(m)) return false;
  return true;
}

function skillsById(card: DecodedCard): Map<string, SkillInfo> {
  const map = new Map<string, SkillInfo>();
  const skills: unknown = card.skills;
  if (!Array.isArray(skills)) return map;
  for (const s of skills as unknown[])
    if (typeof s === 'object' && s !== null && typeof (s as SkillInfo).id === 'string')
      map.set((s as SkillInfo).id, s as SkillInfo);
  return map;
}

/** The change from `before` to `after`; undefined when either is not a decoded card. */
export function diffCards(
  before: DecodedCard | undefined,
  after: DecodedCard | undefined,
): CardDiff | undefined {
  try {
    if (before === undefined || after === undefined) return undefined;
    const was = skillsById(before);
    const now = skillsById(after);
    const diff: CardDiff = {
      removed: [],
      added: [],
      modesChanged: [],
      capabilities: [],
      truncated: false,
    };
    const add = <T>(list: T[], item: T): void => {
      if (list.length < MAX_DIFF_IDS) list.push(item);
      else diff.truncated = true;
    };
    for (const [id, skill] of was) {
      const next = now.get(id);
      if (next === undefined) {
        add(diff.removed, cut(id));
        continue;
      }
      const input = sameModes(skill.inputModes, next.inputModes)
        ? undefined
        : { before: modes(skill.inputModes), after: modes(next.inputModes) };
      const output = sameModes(skill.outputModes, next.outputModes)
        ? undefined
        : { before: modes(skill.outputModes), after: modes(next.outputModes) };
      if (input !== undefined || output !== undefined)
        add(diff.modesChanged, {
          id: cut(id),
          ...(input !== undefined ? { input } : {}),
          ...(output !== undefined ? { output } : {}),
        });
    }
    for (const id of now.keys()) if (!was.has(id)) add(diff.added, cut(id));
    if (Boolean(before.streaming) !== Boolean(after.streaming)) diff.capabilities.push('streaming');
    if (Boolean(before.pushNotifications) !== Boolean(after.pushNotifications))
      diff.capabilities.push('push_notifications');
    return diff;
  } catch {
    return undefined;
  }
}

/** A one-line summary of a diff for a log line (ids only): `-translate +summarize-v3 ~ocr`. */
export function diffSummary(diff: CardDiff | undefined): string {
  if (diff === undefined) return '(what changed is not known: the earlier card is no longer held)';
  const parts = [
    ...diff.removed.map((id) => `-${id}`),
    ...diff.added.map((id) => `+${id}`),
    ...diff.modesChanged.map((m) => `~${m.id}`),
    ...diff.capabilities.map((c) => `${c} flipped`),
  ];
  if (diff.truncated) parts.push('…');
  return parts.length === 0 ? '(no skill or capability changed)' : parts.join(' ');
}
