export interface PythonAdkPeer {
  port: number;
  variant: 'healthy' | 'A';
  pid: number | undefined;
  /** `http://127.0.0.1:{port}` */
  origin: string;
  /** same as origin (to_a2a without rpc_path serves at the root) */
  baseUrl: string;
  /** `{origin}/.well-known/agent-card.json` */
  cardUrl: string;
  /** `{origin}/`: JSON-RPC, 1.0 methods and the 0.3 compatibility layer */
  rpcUrl: string;
  stderr(): string;
  stop(): Promise<void>;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startPythonAdkPeer(opts?: {
  variant?: 'healthy' | 'A';
  port?: number;
}): Promise<PythonAdkPeer>;
