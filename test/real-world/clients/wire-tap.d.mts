export interface TappedExchange {
  method: string;
  path: string;
  requestHeaders: [string, string][];
  requestBody: string;
  status: number;
  responseHeaders: Record<string, unknown>;
  responseBody: string;
}
/** Records every exchange a node:http server in this process handles; returns the unsubscribe function. */
export function startWireTap(onExchange: (x: TappedExchange) => void): () => void;
