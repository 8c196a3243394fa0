export interface VoltAgentPeer {
  port: number;
  variant: 'healthy' | 'A' | 'B';
  pid: number;
  origin: string;
  cardUrl(agentId: string): string;
  rpcUrl(agentId: string): string;
  stderr(): string;
  stop(): Promise<void>;
}
export const PEER_SCRIPT: string;
export function startVoltAgentPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  cardVersion?: string;
  node?: string;
  /** run it under this package's register entry (the agent's side) */
  register?: import('../child-peer.mjs').RegisterEntry;
}): Promise<VoltAgentPeer>;
