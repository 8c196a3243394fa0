/**
 * Every dialect known, combined: missing-skill phrasings and SSE data prefixes.
 * To add an implementation: one file beside this one, listed here, plus its fixtures under
 * test/fixtures/<implementation>/.
 */
import { a2aGo } from './a2a-go';
import { googleAdk } from './google-adk';
import { mastra } from './mastra';
import { microsoftAgentFramework } from './microsoft-agent-framework';
import { pydanticAi } from './pydantic-ai';
import { spec } from './spec';
import type {
  Dialect,
  ErrorSentinel,
  IntermediateMarker,
  MissingSkillPhrase,
  SkillIdConvention,
} from './types';
import { vercelAi } from './vercel-ai';
import { voltagent } from './voltagent';

export type {
  Dialect,
  ErrorSentinel,
  IntermediateMarker,
  MissingSkillPhrase,
  SkillIdConvention,
} from './types';

/**
 * Framework dialects first: their phrasings are more specific (and their labels say more) than the
 * generic ones.
 */
export const DIALECTS: readonly Dialect[] = [
  googleAdk,
  mastra,
  vercelAi,
  voltagent,
  microsoftAgentFramework,
  pydanticAi,
  a2aGo,
  spec,
];

export const MISSING_SKILL_PHRASES: readonly MissingSkillPhrase[] = DIALECTS.flatMap(
  (d) => d.missingSkill ?? [],
);

/** The UTF-16 code units any dialect writes before an SSE event's JSON. */
export const SSE_DATA_PREFIX_CODES: ReadonlySet<number> = new Set(
  DIALECTS.flatMap((d) =>
    d.sseDataPrefix ? [...d.sseDataPrefix].map((c) => c.charCodeAt(0)) : [],
  ),
);

/** The metadata marks of intermediate parts, every implementation's. */
export const INTERMEDIATE_MARKERS: readonly IntermediateMarker[] = DIALECTS.flatMap(
  (d) => d.intermediateParts ?? [],
);

/** How implementations derive skill ids from tool names. */
export const SKILL_ID_CONVENTIONS: readonly SkillIdConvention[] = DIALECTS.flatMap((d) =>
  d.skillIdFromTool ? [d.skillIdFromTool] : [],
);

/** Error texts that name an A2A error where the binding's status code does not. */
export const ERROR_SENTINELS: readonly ErrorSentinel[] = DIALECTS.flatMap(
  (d) => d.errorSentinels ?? [],
);
