'use strict';
/**
 * The fleet demo's client and one peer whose skill id has odd characters (quotes, a
 * backslash, non-ASCII), for test/observability/stack.test.ts. Run under the register entry:
 *
 *   ODD_SKILL_ID='…' node --require ./dist/cjs/register.js test/observability/odd-skill-app.js
 *
 * Round 1 with the skill cached; the peer is redeployed without it (same card version);
 * round 2 drifts (unknown_skill on the odd id). Prints one JSON line: the attempts and the
 * drift events seen by onAgentCardDrift. Exit code 0 when round 2 was flagged unknown_skill.
 */
const { onAgentCardDrift } = require('../..'); // this package (dist/cjs/index.js)
const { startPeer, TRANSLATE_V1 } = require('../../examples/fleet/peer');
const { FleetClient } = require('../../examples/fleet/client-agent');

const SKILL = {
  id: process.env.ODD_SKILL_ID || 'résumé "v2" \\ ✓',
  name: 'Odd',
  description: 'A skill id with quotes, a backslash and non-ASCII characters.',
  inputModes: ['text/plain'],
  outputModes: ['text/markdown'],
};

async function main() {
  const peer = await startPeer({ name: 'peer-odd', skills: [SKILL] });
  const fleet = new FleetClient({ onAgentCardDrift, print: () => {} });
  try {
    fleet.addAgent('peer-odd', peer.baseUrl);
    const round1 = await fleet.runTask('peer-odd', SKILL.id, 'round 1');
    peer.redeploy([TRANSLATE_V1]);
    const round2 = await fleet.runTask('peer-odd', SKILL.id, 'round 2');
    const events = fleet.events.map((e) => ({ kind: e.event.kind, skillId: e.event.skillId }));
    process.stdout.write(
      `${JSON.stringify({ cardUrl: `${peer.baseUrl}/.well-known/agent-card.json`, round1, round2, events })}\n`,
    );
    process.exitCode = round2[0] && round2[0].drift === 'unknown_skill' ? 0 : 1;
  } finally {
    fleet.close();
    await peer.close();
  }
}

main().catch((err) => {
  process.stderr.write(`odd-skill-app: ${err && err.stack ? err.stack : err}\n`);
  process.exitCode = 1;
});
