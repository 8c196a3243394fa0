export type AdkAgent = 'desk' | 'studio';
export interface AdkPeer {
  port: number;
  variant: 'healthy' | 'A' | 'B';
  pid: number;
  origin: string;
  /** `http://127.0.0.1:{port}/{agent}` (toA2a `basePath`) */
  baseUrl(agent: string): string;
  /** `{base}/.well-known/agent-card.json` */
  cardUrl(agent: string): string;
  /** `{base}/jsonrpc` (the card's `url`, preferredTransport JSONRPC) */
  rpcUrl(agent: string): string;
  /** `{base}/rest` (the card's HTTP+JSON additional interface) */
  restUrl(agent: string): string;
  stderr(): string;
  stop(): Promise<void>;
}
export const PEER_SCRIPT: string;
export const ADK_AGENTS: AdkAgent[];
export function startAdkPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  node?: string;
  /** run it under this package's register entry (the agent's side) */
  register?: import('../child-peer.mjs').RegisterEntry;
}): Promise<AdkPeer>;
