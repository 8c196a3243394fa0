/**
 * Google ADK's own A2A server (`@google/adk` `toA2a` / `A2AAgentExecutor`, JS 2.x; the Python
 * `to_a2a` / `A2aAgentExecutor` converts the same way).
 * - Every model event becomes an `artifact-update`: the model's tool calls and the tools' results
 *   are data parts marked `metadata.adk_type` = `function_call` / `function_response` (code
 *   execution: `executable_code` / `code_execution_result`), thoughts are text parts marked
 *   `metadata.adk_thought: true`. None of them is the skill's answer.
 * - Its generated card says `defaultOutputModes: ["text"]` and lists one skill per tool with
 *   `id: "<agent>-<tool>"`, `name: "<tool>"` (plus `id: "<agent>", name: "model"`).
 * - A tool the model calls but the agent no longer has fails the task with
 *   `Agent run failed: Function translate is not found in the toolsDict.` (Python, mid-2025:
 *   `Function translate is not found in the tools_dict.`; Python 1.20–2.0: `Tool 'translate' not
 *   found.`, the spec's generic phrasing): the TOOL's name, not the skill id. Python 2.13 completes
 *   the task and tells the model, in a function_response part (intermediate: not read), ``Invoking
 *   `translate()` failed as no tool with that name is available``; a model that repeats it in its
 *   answer gives content evidence, confirmed by the card fetched again (confirm.ts).
 * - The Python ADK's default executor sends the intermediate parts in `working` status messages
 *   (never judged as output) and the final answer as the artifact.
 */
import type { Dialect } from './types';

export const googleAdk: Dialect = {
  name: 'google-adk',
  missingSkill: [
    {
      label: 'function not found in tools',
      template: String.raw`\bfunction\s+["'\x60]?SKILL["'\x60]?\s+is\s+not\s+found\s+in\s+the\s+tools_?dict`,
    },
    // Python 2.13: the task completes; the tool result tells the model, which repeats it.
    {
      label: 'no tool with that name',
      template: String.raw`\binvoking\s+["'\x60]?SKILL\(\)["'\x60]?\s+failed\s+as\s+no\s+tool\s+with\s+that\s+name`,
    },
  ],
  intermediateParts: [
    {
      key: 'adk_type',
      // (`tool_call` / `tool_response`: the Python ADK after 2.0)
      values: [
        'function_call',
        'function_response',
        'executable_code',
        'code_execution_result',
        'tool_call',
        'tool_response',
      ],
      kinds: ['data'],
    },
    { key: 'adk_thought', values: [true], kinds: ['text'] },
  ],
  skillIdFromTool: { agentPrefix: { separator: '-' } },
};
