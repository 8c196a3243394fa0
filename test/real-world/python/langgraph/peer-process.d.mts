import type { PythonPeer } from '../python-peer.mjs';

export interface LangGraphAssistant {
  /** uuid5 of the graph id: the same across restarts */
  assistantId: string;
  /** `{origin}/.well-known/agent-card.json?assistant_id={id}` */
  cardUrl: string;
  /** `{origin}/a2a/{id}`: JSON-RPC (1.0 names; 0.3 slash names translated) */
  rpcUrl: string;
}
export interface LangGraphPeer extends PythonPeer<'healthy' | 'A' | 'B'> {
  /** by graph id (`desk`, `studio`), found with POST /assistants/search */
  assistants: Record<string, LangGraphAssistant>;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function assistantUrls(origin: string, assistantId: string): LangGraphAssistant;
export function startLangGraphPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
}): Promise<LangGraphPeer>;
