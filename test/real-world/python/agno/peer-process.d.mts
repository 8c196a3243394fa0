import type { PythonPeer } from '../python-peer.mjs';

/** AgentOS serves each agent under `{origin}/a2a/agents/<id>/` (the card too). */
export interface AgnoPeer extends PythonPeer<'healthy' | 'A' | 'B'> {
  /** `{origin}/a2a/agents/desk` */
  agentBase: string;
  /** `{agentBase}/.well-known/agent-card.json` */
  cardUrl: string;
  /** `{agentBase}/v1/message:send`: non-streaming, JSON-RPC 0.3 shaped */
  sendUrl: string;
  /** `{agentBase}/v1/message:stream`: SSE; the card's `url` */
  streamUrl: string;
}
export const AGENT_ID: 'desk';
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startAgnoPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
}): Promise<AgnoPeer>;
/** An AgentOS SSE body: [event name, the JSON-RPC response's `result`] per event. */
export function parseAgnoSse(text: string): Array<[string, Record<string, unknown>]>;
