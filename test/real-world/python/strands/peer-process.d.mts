import type { PythonPeer } from '../python-peer.mjs';

/** `baseUrl` = origin (A2AServer without an `http_url` path serves at the root) */
export interface StrandsPeer extends PythonPeer<'healthy' | 'A' | 'A-fail'> {
  /** `{origin}/`: JSON-RPC 0.3 (the reference a2a-sdk 0.3 server under A2AServer) */
  rpcUrl: string;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startStrandsPeer(opts?: {
  variant?: 'healthy' | 'A' | 'A-fail';
  port?: number;
  streaming?: 'legacy' | 'compliant';
}): Promise<StrandsPeer>;
