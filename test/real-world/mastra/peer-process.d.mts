export interface MastraPeer {
  port: number;
  variant: 'healthy' | 'A';
  pid: number;
  origin: string;
  nodeVersion: string;
  cardUrl(agentId: string): string;
  rpcUrl(agentId: string): string;
  stderr(): string;
  stop(): Promise<void>;
}
export const PEER_SCRIPT: string;
export const MASTRA_DIR: string;
/** Absolute path of a Node >= 22.13 binary ($MASTRA_PEER_NODE or node22.sh), or throws. */
export function node22(): string;
export function startMastraPeer(opts?: {
  variant?: 'healthy' | 'A';
  port?: number;
  node?: string;
  /** run it under this package's register entry (the agent's side) */
  register?: import('../child-peer.mjs').RegisterEntry;
}): Promise<MastraPeer>;
