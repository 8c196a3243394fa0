/**
 * Every dialect known, combined: missing-skill phrasings and SSE data prefixes.
 * To add an implementation: one file beside this one, listed here, plus its fixtures under
 * test/fixtures/<implementation>/.
 */
import { mastra } from './mastra';
import { spec } from './spec';
import type { Dialect, MissingSkillPhrase } from './types';
import { vercelAi } from './vercel-ai';
import { voltagent } from './voltagent';

export type { Dialect, MissingSkillPhrase } from './types';

/**
 * Framework dialects first: their phrasings are more specific (and their labels say more) than the
 * generic ones.
 */
export const DIALECTS: readonly Dialect[] = [mastra, vercelAi, voltagent, spec];

export const MISSING_SKILL_PHRASES: readonly MissingSkillPhrase[] = DIALECTS.flatMap(
  (d) => d.missingSkill ?? [],
);

/** The UTF-16 code units any dialect writes before an SSE event's JSON. */
export const SSE_DATA_PREFIX_CODES: ReadonlySet<number> = new Set(
  DIALECTS.flatMap((d) =>
    d.sseDataPrefix ? [...d.sseDataPrefix].map((c) => c.charCodeAt(0)) : [],
  ),
);
