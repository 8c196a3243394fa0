/**
 * Mastra 1.x (`@mastra/server` A2A handlers).
 * - Cards at `/api/.well-known/{agentId}/agent-card.json` (covered by the spec's
 *   `agent-card.json` rule), operations at `/api/a2a/{agentId}`.
 * - An agent asked for a tool it no longer has answers with a task whose text is the
 *   tool executor's error: `Tool "translate" not found` (completed or failed task, or a
 *   JSON-RPC -32603 error over HTTP 200).
 */
import type { Dialect } from './types';

export const mastra: Dialect = {
  name: 'mastra',
  missingSkill: [
    {
      label: 'tool not found',
      template: String.raw`\btool\s+["'\x60]?SKILL["'\x60]?\s+(?:was\s+)?not\s+found`,
    },
  ],
};
