import type { PythonPeer } from '../python-peer.mjs';

export interface PythonA2aPeer extends PythonPeer<'healthy' | 'A' | 'B'> {
  /** `{origin}/.well-known/agent.json` (where python-a2a serves its card) */
  cardUrl: string;
  /** `{origin}/.well-known/agent-card.json`: python-a2a answers its HTML agent page there */
  agentCardJsonUrl: string;
  /** `{origin}/tasks/send`: JSON-RPC `tasks/send` (0.1) */
  sendUrl: string;
  /** `{origin}/tasks/stream`: JSON-RPC `tasks/sendSubscribe` (SSE) */
  streamUrl: string;
  /** `{origin}/tasks/get`: JSON-RPC `tasks/get` */
  getUrl: string;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startPythonA2aPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
}): Promise<PythonA2aPeer>;
