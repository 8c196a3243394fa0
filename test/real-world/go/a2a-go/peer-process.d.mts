import type { ChildPeer } from '../../child-peer.mjs';

export interface GoPeer extends ChildPeer {
  variant: 'healthy' | 'A' | 'B';
  /** same as origin */
  baseUrl: string;
  /** `{origin}/.well-known/agent-card.json` (a2asrv.WellKnownAgentCardPath) */
  cardUrl: string;
  /** `{origin}/invoke`: the SDK's JSON-RPC handler (A2A 0.3 methods) */
  jsonRpcUrl: string;
}
export const PEER_BIN: string;
export function buildGoPeer(): true | string;
export function startGoPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  unknownSkill?: 'status' | 'error' | 'unsupported' | 'plain';
  /** translate's Tags nil: served as `"tags": null` */
  nilTags?: boolean;
}): Promise<GoPeer>;
