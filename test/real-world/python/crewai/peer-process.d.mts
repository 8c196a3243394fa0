import type { PythonPeer } from '../python-peer.mjs';

/** `baseUrl` = origin (the a2a-sdk 0.3 Starlette app serves JSON-RPC at the root) */
export interface CrewAIPeer extends PythonPeer<'healthy' | 'A'> {
  /** react: crewAI's ReAct text protocol; function-calling: native tool calls */
  mode: 'react' | 'function-calling';
  /** `{origin}/`: JSON-RPC 0.3 */
  rpcUrl: string;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startCrewAIPeer(opts?: {
  variant?: 'healthy' | 'A';
  port?: number;
  mode?: 'react' | 'function-calling';
}): Promise<CrewAIPeer>;
