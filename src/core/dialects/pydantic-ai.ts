/**
 * pydantic-ai, served by its `fasta2a` (2.x). A removed tool does not fail the task: pydantic-ai
 * tells the model `Unknown tool name: 'translate'. Available tools: 'summarize'`, and a model that
 * repeats it completes the task with that text (content evidence, confirmed by the card fetched
 * again). Thinking parts go to the task's history marked `metadata.type = "thinking"` (the
 * output-parts rule). Skill ids are whatever the app lists.
 */
import type { Dialect } from './types';

export const pydanticAi: Dialect = {
  name: 'pydantic-ai',
  missingSkill: [
    {
      label: 'unknown tool name',
      template: String.raw`\bunknown\s+tool\s+name[\s:=]*["'\x60]?SKILL(?![\w.\-/])`,
    },
  ],
};
