/**
 * Starts peer.mjs (the real VoltAgent A2A peer) in a child `node` process and waits for its
 * `{"port":N}` line. Used by its row of the conformance table (and its recording).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildPeer } from '../child-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PEER_SCRIPT = path.join(here, 'peer.mjs');

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, cardVersion?: string, node?: string, register?: import('../child-peer.mjs').RegisterEntry }} [opts]
 */
export async function startVoltAgentPeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const env = { VARIANT: variant, PORT: String(opts.port ?? 0) };
  if (opts.cardVersion) env.CARD_VERSION = opts.cardVersion;
  const peer = await startChildPeer({
    name: 'VoltAgent',
    script: PEER_SCRIPT,
    cwd: here,
    node: opts.node,
    env,
    register: opts.register,
  });
  return {
    ...peer,
    variant,
    cardUrl: (agentId) => `${peer.origin}/.well-known/${agentId}/agent-card.json`,
    rpcUrl: (agentId) => `${peer.origin}/a2a/${agentId}`,
  };
}
