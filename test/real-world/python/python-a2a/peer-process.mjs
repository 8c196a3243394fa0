/**
 * Starts peer.py (a python-a2a `@agent` A2AServer on the library's own Flask app) through
 * ../python-peer.mjs. Used by its row of the conformance table (checks and recording). What is this impl's
 * own: its name and its endpoints (0.1-era JSON-RPC at /tasks/send and /tasks/stream, the card at
 * /.well-known/agent.json: `cardUrl` is overridden, /.well-known/agent-card.json is an HTML page).
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('python-a2a');

/** @param {{ variant?: 'healthy'|'A'|'B', port?: number }} [opts] */
export async function startPythonA2aPeer(opts = {}) {
  const peer = await startPythonPeer('python-a2a', {
    name: 'python-a2a (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore' },
  });
  return {
    ...peer,
    cardUrl: `${peer.origin}/.well-known/agent.json`,
    agentCardJsonUrl: `${peer.origin}/.well-known/agent-card.json`,
    sendUrl: `${peer.origin}/tasks/send`,
    streamUrl: `${peer.origin}/tasks/stream`,
    getUrl: `${peer.origin}/tasks/get`,
  };
}
