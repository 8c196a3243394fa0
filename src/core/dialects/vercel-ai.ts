/**
 * The Vercel AI SDK (`ai`), under VoltAgent 2.x and Mastra: when the model calls a tool the
 * agent does not have, `NoSuchToolError` says
 * `Model tried to call unavailable tool 'translate'. Available tools: summarize-v2.`
 * The list of available tools names other ids: only the id right after "unavailable tool"
 * counts.
 */
import type { Dialect } from './types';

export const vercelAi: Dialect = {
  name: 'vercel-ai',
  missingSkill: [
    {
      label: 'unavailable tool',
      template: String.raw`\bunavailable\s+tool[\s:=]*["'\x60]?SKILL(?![\w.\-/])`,
    },
  ],
};
