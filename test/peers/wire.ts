/** Small wire helpers shared by the peer tests: the seed's skills, an SSE parser and a recording fetch. */

/** A skill as both test peers take it (the SDK peer maps it to its AgentSkill, the raw 0.1 peer serves it as is). */
export interface SeedSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  inputModes: string[];
  outputModes: string[];
}

/** The seed's skill: `summarize-v2` returns markdown. The peers copy skills before serving them. */
export const SEED_SUMMARIZE_SKILL: Readonly<SeedSkill> = {
  id: 'summarize-v2',
  name: 'Summarize',
  description: 'Summarizes text into markdown.',
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/markdown'],
};

/** Variant A of the seed: the skill set swapped for `translate-v1`, same card `version`. */
export const SEED_TRANSLATE_SKILL: Readonly<SeedSkill> = {
  id: 'translate-v1',
  name: 'Translate',
  description: 'Translates text.',
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/plain'],
};

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parse a complete `text/event-stream` body (WHATWG rules: LF, CRLF or CR line
 * ends; several `data:` lines joined with '\n'; `:` comment lines ignored).
 */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0)
        out.push({
          event: event || 'message',
          data: data.join('\n'),
          ...(id !== undefined ? { id } : {}),
        });
      data = [];
      event = '';
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  }
  if (data.length > 0)
    out.push({
      event: event || 'message',
      data: data.join('\n'),
      ...(id !== undefined ? { id } : {}),
    });
  return out;
}

export interface RecordedExchange {
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  /** Full response body (read from a clone, so the caller still gets its stream). */
  responseBody: Promise<string>;
}

/** A `fetch` that records every exchange (for `fetchImpl` options of the SDK client). */
export function recordingFetch(base: typeof fetch = fetch): {
  fetch: typeof fetch;
  exchanges: RecordedExchange[];
} {
  const exchanges: RecordedExchange[] = [];
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await base(input, init);
    const reqHeaders: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (reqHeaders[k] = v));
    const resHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => (resHeaders[k] = v));
    exchanges.push({
      url: input instanceof Request ? input.url : String(input),
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      requestHeaders: reqHeaders,
      requestBody: typeof init?.body === 'string' ? init.body : undefined,
      status: res.status,
      responseHeaders: resHeaders,
      responseBody: res.clone().text(),
    });
    return res;
  };
  return { fetch: wrapped as typeof fetch, exchanges };
}

/** The headers of a raw JSON-RPC 1.0 request. */
export const JSON_RPC_1_0_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'A2A-Version': '1.0',
};

/**
 * The body of a raw JSON-RPC 1.0 `SendMessage` (or `SendStreamingMessage`) naming `skillId` in
 * its request metadata (`params.metadata.skillId`), with one text part.
 */
export function jsonRpcSendBody(
  skillId: string,
  o: { method?: string; id?: number; messageId?: string; text?: string } = {},
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: o.id ?? 1,
    method: o.method ?? 'SendMessage',
    params: {
      message: {
        messageId: o.messageId ?? `m-${Math.random()}`,
        role: 'ROLE_USER',
        parts: [{ text: o.text ?? 'Please summarize this text.' }],
      },
      metadata: { skillId },
    },
  });
}
