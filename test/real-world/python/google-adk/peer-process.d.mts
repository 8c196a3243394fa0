import type { PythonPeer } from '../python-peer.mjs';

/** `baseUrl` = origin (to_a2a without rpc_path serves at the root) */
export interface PythonAdkPeer extends PythonPeer<'healthy' | 'A' | 'B'> {
  /** `{origin}/`: JSON-RPC, 1.0 methods and the 0.3 compatibility layer */
  rpcUrl: string;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startPythonAdkPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
}): Promise<PythonAdkPeer>;
