type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export const V10: Record<string, string>;
export const V03: Record<string, string>;
/** JSON-RPC POST headers of a Node client: `accept` JSON. */
export const JSON_HEADERS: Record<string, string>;
/** The JSON of an SSE body's first event (`data: {json}`, `data: \x1e{json}`). */
export function firstSseJson(text: string): Json;
export function post(headers: Record<string, string>, body: string): RequestInit;
export function sse(headers: Record<string, string>): Record<string, string>;
export function nodePackageVersions(dir: string, pkgs: string[]): Record<string, string>;
export function pythonPackageVersions(python: string, pkgs: string[]): Record<string, string>;
export interface Recorder {
  out: string;
  index: unknown[];
  exchange(
    name: string,
    note: string,
    url: string,
    init?: RequestInit,
  ): Promise<{ status: number; text: string; contentType: string }>;
  rpc(method: string, params: Json): string;
  /** the next JSON-RPC id: 1, 2, ... per recorder */
  nextRpcId(): number;
  /** the next message id: the prefix and 1, 2, ... per recorder */
  nextMessageId(): string;
  m10(text: string, skillId: string): Json;
  m03(text: string, skillId?: string, where?: 'message' | 'params'): Json;
  writeIndex(head: Json): void;
}
export function createRecorder(opts: {
  out: string;
  keep?: string[];
  dropResponseHeaders?: string[];
  messageIdPrefix?: string;
}): Recorder;
