/** Node arguments and environment that run a child under this package's register entry. */
export interface RegisterEntry {
  nodeArgs: string[];
  env: Record<string, string>;
}
export interface ChildPeer {
  port: number;
  pid: number | undefined;
  origin: string;
  stderr(): string;
  stop(): Promise<void>;
}
export function startChildPeer(opts: {
  name: string;
  script: string;
  args?: string[];
  cwd?: string;
  node?: string;
  env?: Record<string, string>;
  register?: RegisterEntry;
  startTimeoutMs?: number;
}): Promise<ChildPeer>;
/** A port free on 127.0.0.1 now (the OS's choice). */
export function freePort(): Promise<number>;
