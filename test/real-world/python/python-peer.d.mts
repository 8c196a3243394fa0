import type { ChildPeer } from '../child-peer.mjs';

export interface PythonPeer<Variant extends string = string> extends ChildPeer {
  variant: Variant;
  /** same as origin (what ClientFactory.createFromUrl takes) */
  baseUrl: string;
  /** `{origin}/.well-known/agent-card.json` */
  cardUrl: string;
}
export interface PythonPeerFiles {
  dir: string;
  PEER_SCRIPT: string;
  VENV_PYTHON: string;
  venvInstalled(): boolean;
}
export function pythonPeerFiles(impl: string): PythonPeerFiles;
export function startPythonPeer<Variant extends string>(
  impl: string,
  opts: { name: string; variant?: Variant; port?: number; env?: Record<string, string> },
): Promise<PythonPeer<Variant>>;
export function startImplPeer(
  impl: string,
  opts?: { variant?: string; port?: number; env?: Record<string, string> },
): Promise<PythonPeer & { [url: string]: unknown }>;
