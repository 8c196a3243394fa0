import type { PythonPeer } from '../python-peer.mjs';

/** `baseUrl` = origin (FastA2A serves at the root) */
export interface FastA2APeer extends PythonPeer<'healthy' | 'A' | 'B' | 'A-fail'> {
  /** `{origin}/`: JSON-RPC (0.3 method names, and 1.0 ones translated by fasta2a.jsonrpc_v1) */
  rpcUrl: string;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startFastA2APeer(opts?: {
  variant?: 'healthy' | 'A' | 'B' | 'A-fail';
  port?: number;
}): Promise<FastA2APeer>;
