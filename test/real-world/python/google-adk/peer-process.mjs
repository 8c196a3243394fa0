/**
 * Starts peer.py (the real Google ADK Python `to_a2a` server) through ../python-peer.mjs. Used by
 * its row of the conformance table (../../rows/python-google-adk.ts), which records its
 * wire too. What is this impl's own: its name, PYTHONWARNINGS=ignore and the JSON-RPC endpoint
 * at the root.
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('google-adk');

/** @param {{ variant?: 'healthy'|'A'|'B', port?: number }} [opts] */
export async function startPythonAdkPeer(opts = {}) {
  const peer = await startPythonPeer('google-adk', {
    name: 'Google ADK (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore' },
  });
  return { ...peer, rpcUrl: `${peer.origin}/` };
}
