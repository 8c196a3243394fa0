import type { ChildPeer } from '../../child-peer.mjs';

export interface GoPeer extends ChildPeer {
  variant: 'healthy' | 'A' | 'B';
  /** same as origin */
  baseUrl: string;
  /** `{origin}/.well-known/agent-card.json` (a2asrv.WellKnownAgentCardPath) */
  cardUrl: string;
  /** `{origin}/invoke`: the SDK's JSON-RPC handler (A2A 0.3 methods) */
  jsonRpcUrl: string;
  /** with `grpc: true`: the port of the SDK's gRPC server (a2a.v1.A2AService) */
  grpcPort: number | undefined;
  /** with `grpc: true`: `127.0.0.1:{grpcPort}`, the card's url and first interface */
  grpcTarget: string | undefined;
}
export const PEER_BIN: string;
export function buildGoPeer(): true | string;
export function startGoPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  unknownSkill?: 'status' | 'error' | 'unsupported' | 'plain';
  /** translate's Tags nil: served as `"tags": null` */
  nilTags?: boolean;
  /** GRPC=1: also serve gRPC (the card then prefers it) */
  grpc?: boolean;
  /** the gRPC port (a redeploy keeps it); default a free one */
  grpcPort?: number;
}): Promise<GoPeer>;
