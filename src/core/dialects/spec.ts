/**
 * The A2A specification itself, every version: the field report's "unknown skill" wording and the
 * generic ways of saying a skill is missing, tied to the requested id.
 */
import type { Dialect } from './types';

export const spec: Dialect = {
  name: 'a2a-spec',
  missingSkill: [
    // The field report's peers and the Python SDK's 0.3 layer (`-32603 "unknown skill:
    // summarize-v2"`).
    {
      label: 'unknown skill',
      template: String.raw`\bunknown\s+(?:skill|tool|capability)(?:\s+id)?[\s:=]*["'\x60]?SKILL(?![\w.\-/])`,
    },
    // Generic "no such skill X", "skill 'X' not found / does not exist / is not available".
    {
      label: 'no such skill',
      template: String.raw`\bno\s+such\s+(?:skill|tool)[\s:=]*["'\x60]?SKILL(?![\w.\-/])`,
    },
    // "Skill not found: X" (crewAI's -32017), "Tool not found: X", "Unknown function: X"
    // (python-a2a's MCP layer).
    {
      label: 'not found: id',
      template: String.raw`\b(?:skill|tool|function)\s+not\s+found[\s:=]+["'\x60]?SKILL(?![\w.\-/])`,
    },
    {
      label: 'unknown function',
      template: String.raw`\bunknown\s+function[\s:=]+["'\x60]?SKILL(?![\w.\-/])`,
    },
    {
      label: 'skill not found',
      template: String.raw`\b(?:skill|tool)(?:\s+id)?[\s:=]*["'\x60]?SKILL["'\x60]?\s+(?:is\s+|was\s+)?(?:not\s+found|not\s+available|unavailable|not\s+supported|unknown|does\s+not\s+exist|not\s+registered)`,
    },
  ],
};
