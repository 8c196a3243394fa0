import type { PythonPeer } from '../python-peer.mjs';

export interface AgentFrameworkPeer extends PythonPeer<'healthy' | 'A' | 'B'> {
  /** `{origin}/a2a/jsonrpc`: JSON-RPC 1.0 and 0.3 (the a2a-sdk 1.3 server's compat layer) */
  rpcUrl: string;
  /** `{origin}/a2a/rest`: HTTP+JSON 1.0 (`/message:send`, ...) */
  restUrl: string;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startAgentFrameworkPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  unknown?: 'result' | 'terminate';
  stream?: boolean;
}): Promise<AgentFrameworkPeer>;
