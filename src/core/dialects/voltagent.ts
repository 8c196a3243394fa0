/**
 * VoltAgent 2.x (`@voltagent/a2a-server`): every SSE event is framed `data: \x1e{json}`, an
 * ASCII record separator before the JSON (as in RFC 7464 JSON text sequences). Its missing
 * tool texts come from the `ai` SDK (vercel-ai.ts). Cards per agent at
 * `/.well-known/{agentId}/agent-card.json`, bare-word modes `["text"]` (media-type.ts).
 */
import type { Dialect } from './types';

export const voltagent: Dialect = {
  name: 'voltagent',
  sseDataPrefix: '\x1e',
};
