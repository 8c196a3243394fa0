/**
 * Starts peer.mjs (the real Google ADK A2A peer) in a child `node` process and waits for its
 * `{"port":N}` line. Used by its row of the conformance table (and its recording).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildPeer } from '../child-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PEER_SCRIPT = path.join(here, 'peer.mjs');
/** The agents the peer serves, each under its own base path (toA2a `basePath`). */
export const ADK_AGENTS = ['desk', 'studio'];

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, node?: string, register?: import('../child-peer.mjs').RegisterEntry }} [opts]
 */
export async function startAdkPeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const peer = await startChildPeer({
    name: 'Google ADK',
    script: PEER_SCRIPT,
    cwd: here,
    node: opts.node,
    env: { VARIANT: variant, PORT: String(opts.port ?? 0) },
    register: opts.register,
  });
  return {
    ...peer,
    variant,
    baseUrl: (agent) => `${peer.origin}/${agent}`,
    cardUrl: (agent) => `${peer.origin}/${agent}/.well-known/agent-card.json`,
    rpcUrl: (agent) => `${peer.origin}/${agent}/jsonrpc`,
    restUrl: (agent) => `${peer.origin}/${agent}/rest`,
  };
}
