export interface BadInputAgent {
  /** `{origin}/{base}`: what the @a2a-js/sdk client is built from */
  baseUrl: string;
  /** `{origin}/{base}/.well-known/agent-card.json` */
  cardUrl: string;
  /** `{origin}/{base}/`: JSON-RPC 0.3 */
  rpcUrl: string;
}
export type BadInputBase = 'traceback' | 'cut' | 'cut-eof' | 'nulls' | 'null-skills';
export interface BadInputPeer {
  port: number;
  origin: string;
  stderr(): string;
  stop(): Promise<void>;
  agent(base: BadInputBase): BadInputAgent;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startBadInputPeer(opts?: { port?: number }): Promise<BadInputPeer>;
