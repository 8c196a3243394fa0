/**
 * Starts peer.py (a Microsoft Agent Framework agent served by `agent_framework_a2a.A2AExecutor`
 * on the reference a2a-sdk 1.3 server) through ../python-peer.mjs. Used by
 * its row of the conformance table (checks and recording). What is this impl's own: its name, PYTHONWARNINGS=ignore,
 * how an unknown function call ends (UNKNOWN), the executor's stream flag, and its endpoints.
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('agent-framework');

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, unknown?: 'result'|'terminate', stream?: boolean }} [opts]
 */
export async function startAgentFrameworkPeer(opts = {}) {
  const peer = await startPythonPeer('agent-framework', {
    name: 'Microsoft Agent Framework (Python)',
    variant: opts.variant,
    port: opts.port,
    env: {
      PYTHONWARNINGS: 'ignore',
      UNKNOWN: opts.unknown ?? 'result',
      STREAM: opts.stream ? '1' : '0',
    },
  });
  return {
    ...peer,
    rpcUrl: `${peer.origin}/a2a/jsonrpc`,
    restUrl: `${peer.origin}/a2a/rest`,
  };
}
