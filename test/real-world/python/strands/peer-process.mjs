/**
 * Starts peer.py (a Strands Agent served by Strands' own `A2AServer`) through ../python-peer.mjs.
 * Used by its row of the conformance table (../../rows/python-strands.ts), which records
 * its wire too. What is this impl's own: its name, PYTHONWARNINGS=ignore, the streaming mode
 * (A2AServer's legacy default or its A2A-compliant artifact streaming) and the JSON-RPC endpoint
 * at the root.
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('strands');

/** @param {{ variant?: 'healthy'|'A'|'A-fail', port?: number, streaming?: 'legacy'|'compliant' }} [opts] */
export async function startStrandsPeer(opts = {}) {
  const peer = await startPythonPeer('strands', {
    name: 'Strands Agents (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore', STREAMING: opts.streaming ?? 'legacy' },
  });
  return { ...peer, rpcUrl: `${peer.origin}/` };
}
