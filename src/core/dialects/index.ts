/**
 * Every dialect known, combined: card path rules and missing-skill phrasings.
 * To add an implementation: one file beside this one, listed here, plus its fixtures.
 */
import { mastra } from './mastra';
import { reactiveAgents } from './reactive-agents';
import { spec } from './spec';
import type { CardPathRule, Dialect, MissingSkillPhrase } from './types';
import { vercelAi } from './vercel-ai';

export type { CardPathRule, Dialect, MissingSkillPhrase } from './types';

/** Framework dialects first: their phrasings are more specific (and their labels say more) than the generic ones. */
export const DIALECTS: readonly Dialect[] = [mastra, vercelAi, reactiveAgents, spec];

export const CARD_PATH_RULES: readonly CardPathRule[] = DIALECTS.flatMap((d) => d.cardPaths ?? []);

export const MISSING_SKILL_PHRASES: readonly MissingSkillPhrase[] = DIALECTS.flatMap((d) => d.missingSkill ?? []);
