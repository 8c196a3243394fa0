/**
 * Starts peer.py (the real FastA2A server, fasta2a.pydantic_ai.agent_to_a2a) through
 * ../python-peer.mjs. Used by its row of the conformance table (checks and recording). What is this impl's
 * own: its name, PYTHONWARNINGS=ignore and the JSON-RPC endpoint at the root.
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('fasta2a');

/** @param {{ variant?: 'healthy'|'A'|'B'|'A-fail', port?: number }} [opts] */
export async function startFastA2APeer(opts = {}) {
  const peer = await startPythonPeer('fasta2a', {
    name: 'fasta2a (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore' },
  });
  return { ...peer, rpcUrl: `${peer.origin}/` };
}
