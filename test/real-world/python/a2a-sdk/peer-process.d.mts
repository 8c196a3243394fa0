export interface PythonSdkPeer {
  port: number;
  variant: 'healthy' | 'A' | 'B';
  pid: number | undefined;
  /** `http://127.0.0.1:{port}` */
  origin: string;
  /** same as origin: ClientFactory.createFromUrl appends /.well-known/agent-card.json */
  baseUrl: string;
  /** `{origin}/.well-known/agent-card.json` */
  cardUrl: string;
  /** `{origin}/a2a/jsonrpc`: 1.0 methods and the 0.3 compatibility layer on one endpoint */
  jsonRpcUrl: string;
  /** `{origin}/a2a/rest`: HTTP+JSON 1.0 (`/message:send` ...) and 0.3 (`/v1/message:send` ...) */
  restUrl: string;
  stderr(): string;
  stop(): Promise<void>;
}
export const PEER_SCRIPT: string;
export const VENV_PYTHON: string;
export function venvInstalled(): boolean;
export function startPythonSdkPeer(opts?: {
  variant?: 'healthy' | 'A' | 'B';
  port?: number;
  unknownSkill?: 'status' | 'raise';
}): Promise<PythonSdkPeer>;
