import type { PythonPeer } from '../python-peer.mjs';

/** `baseUrl` = origin: ClientFactory.createFromUrl appends /.well-known/agent-card.json */
export interface PythonSdkPeer extends PythonPeer<'healthy' | 'A' | 'B'> {
  /** `{origin}/a2a/jsonrpc`: 1.0 methods and the 0.3 compatibility layer on one endpoint */
  jsonRpcUrl: string;
  /** `{origin}/a2a/rest`: HTTP+JSON 1.0 (`/message:send` ...) and 0.3 (`/v1/message:send` ...) */
  restUrl: string;
  /** With `grpc: true`: the port of the SDK's gRPC services (1.0 and 0.3), else undefined */
  grpcPort: number | undefined;
  /** With `grpc: true`: `127.0.0.1:<grpcPort>`, the card's GRPC interface url */
  grpcTarget: string | undefined;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startPythonSdkPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  unknownSkill?: 'status' | 'raise';
  grpc?: boolean;
  grpcPort?: number;
}): Promise<PythonSdkPeer>;
