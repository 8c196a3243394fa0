export interface FastA2APeer {
  port: number;
  variant: 'healthy' | 'A';
  pid: number | undefined;
  /** `http://127.0.0.1:{port}` */
  origin: string;
  /** same as origin (FastA2A serves at the root) */
  baseUrl: string;
  /** `{origin}/.well-known/agent-card.json` */
  cardUrl: string;
  /** `{origin}/`: JSON-RPC (0.3 method names, and 1.0 ones translated by fasta2a.jsonrpc_v1) */
  rpcUrl: string;
  stderr(): string;
  stop(): Promise<void>;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startFastA2APeer(opts?: {
  variant?: 'healthy' | 'A';
  port?: number;
}): Promise<FastA2APeer>;
