/**
 * Starts peer.py (the real `a2a-sdk` server) through ../python-peer.mjs. Used by record.mjs and
 * ../../python-a2a-sdk.test.ts. What is this impl's own: UNKNOWN_SKILL and the two endpoints.
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('a2a-sdk');

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, unknownSkill?: 'status'|'raise' }} [opts]
 */
export async function startPythonSdkPeer(opts = {}) {
  const peer = await startPythonPeer('a2a-sdk', {
    name: 'a2a-sdk (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { UNKNOWN_SKILL: opts.unknownSkill ?? 'status' },
  });
  return {
    ...peer,
    jsonRpcUrl: `${peer.origin}/a2a/jsonrpc`,
    restUrl: `${peer.origin}/a2a/rest`,
  };
}
