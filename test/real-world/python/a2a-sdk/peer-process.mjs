/**
 * Starts peer.py (the real `a2a-sdk` server) through ../python-peer.mjs. Used by
 * its two rows of the conformance table (JSON-RPC / HTTP+JSON, and gRPC). What is this impl's
 * own: UNKNOWN_SKILL, the two endpoints, and gRPC (`grpc: true`: GRPC=1, the SDK's 1.0 and 0.3 gRPC services on `grpcPort`, a free port
 * chosen here when none is given, so a redeploy can keep it as the card names it).
 */
import { freePort } from '../../child-peer.mjs';
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('a2a-sdk');

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, unknownSkill?: 'status'|'raise', grpc?: boolean, grpcPort?: number }} [opts]
 */
export async function startPythonSdkPeer(opts = {}) {
  const grpcPort = opts.grpc ? (opts.grpcPort ?? (await freePort())) : undefined;
  const peer = await startPythonPeer('a2a-sdk', {
    name: 'a2a-sdk (Python)',
    variant: opts.variant,
    port: opts.port,
    env: {
      UNKNOWN_SKILL: opts.unknownSkill ?? 'status',
      ...(grpcPort === undefined ? {} : { GRPC: '1', GRPC_PORT: String(grpcPort) }),
    },
  });
  return {
    ...peer,
    jsonRpcUrl: `${peer.origin}/a2a/jsonrpc`,
    restUrl: `${peer.origin}/a2a/rest`,
    grpcPort,
    grpcTarget: grpcPort === undefined ? undefined : `127.0.0.1:${grpcPort}`,
  };
}
