/**
 * The implementations whose checks still run in their own file (test/real-world/<file>), until
 * their row joins the table (implementations.ts): what the doc says of them, kept here so that
 * docs/real-world.md is generated from one place meanwhile. An entry leaves when its row is
 * migrated and its file deleted.
 */
import type { DocOnlyRow } from './types';

export const NOT_MIGRATED: DocOnlyRow[] = [
  {
    id: 'node-adk-client',
    file: 'clients.test.ts',
    name: 'Google ADK (`@google/adk` 2.0 `RemoteA2AAgent`, client)',
    testedAs: 'real client, 8 tests',
    bindings: '0.3 JSON-RPC stream / send',
    card: '`.well-known/agent-card.json` under the URL given',
    judged:
      '`unknown_skill` on `SendStreamingMessage`; version 0.3 from a card offering 1.0 and 0.3; skill id via `withSkill` or `metadata.skillId`; naming no skill (as it does by default): the only skill of a one-skill card (`only skill in card`), and variant B (an `image/png` file part where the cached card lists text) → `output_mode_mismatch`, for that skill or, on a card of two skills, with `a2a.drift.scope = card`; healthy: no drift',
  },
  {
    id: 'node-reactive-agents',
    file: 'clients.test.ts',
    name: 'reactive-agents (`@reactive-agents/a2a` 0.9, client and server)',
    testedAs: 'real client + server, 6 tests',
    bindings: '0.3 JSON-RPC',
    card: '`{url}/agent/card` (sniffed), `/.well-known/agent.json`',
    judged: '`card_changed` on re-fetch, `skill_not_in_card`; against an SDK peer `unknown_skill`',
  },
];
