/**
 * Request builders of the rows' probes (errors, the bytes compared with and without): the card,
 * a JSON-RPC call, any HTTP request. A probe's message ids carry the run's tag, so the two runs
 * of the bytes check normalise to the same text.
 */
import type { Json } from '../lib';
import { endpoint, type Peer, type Probe } from './types';

export const V10 = { 'A2A-Version': '1.0' };

/** A 0.3 `MessageSendParams`: one text part, the skill in `message.metadata`. */
export function m03(text: string, skillId: string, tag: string): Json {
  return {
    message: {
      kind: 'message',
      role: 'user',
      messageId: `${tag}-1`,
      parts: [{ kind: 'text', text }],
      metadata: { skillId },
    },
  };
}
/** 1.0 `SendMessageRequest` params: the skill in the request metadata. */
export function m10(text: string, skillId: string, tag: string): Json {
  return {
    message: { messageId: `${tag}-1`, role: 'ROLE_USER', parts: [{ text }] },
    metadata: { skillId },
  };
}

export type Expected = Omit<Probe, 'request' | 'label'>;

/** GET the card. */
export function cardProbe(): Probe {
  return { label: 'GET the card', status: 200, request: (p) => ({ url: p.cardUrl }) };
}

/** A JSON-RPC POST to the peer's `endpoint` (1.0 with A2A-Version, SSE when `stream`). */
export function rpcProbe(
  label: string,
  endpointName: string,
  method: string,
  params: (tag: string, peer: Peer) => Json,
  expected: Expected,
  o: { stream?: boolean; v10?: boolean } = {},
): Probe {
  return {
    label,
    ...expected,
    request: (peer: Peer, tag: string) => ({
      url: endpoint(peer, endpointName),
      init: {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: o.stream ? 'text/event-stream' : 'application/json',
          ...(o.v10 ? V10 : {}),
        },
        // one id for every run: the bytes of two runs compare equal
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: params(tag, peer) }),
      },
    }),
  };
}

/** Any HTTP request at `path` of the peer's origin (or of `peer[base]`); a JSON body if given. */
export function httpProbe(
  label: string,
  path: string,
  expected: Expected,
  o: {
    base?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: (tag: string) => Json;
  } = {},
): Probe {
  return {
    label,
    ...expected,
    request: (peer: Peer, tag: string) => ({
      url: `${o.base ? endpoint(peer, o.base) : peer.origin}${path}`,
      init: {
        method: o.method ?? (o.body ? 'POST' : 'GET'),
        headers: {
          ...(o.body ? { 'content-type': 'application/json' } : {}),
          ...(o.headers ?? {}),
        },
        ...(o.body ? { body: JSON.stringify(o.body(tag)) } : {}),
      },
    }),
  };
}

/** The A2A methods that carry a message: 0.3 slash names, 1.0 names; the stream ones answer SSE. */
export const MESSAGE_METHODS = {
  'message/send': { v10: false, stream: false },
  'message/stream': { v10: false, stream: true },
  SendMessage: { v10: true, stream: false },
  SendStreamingMessage: { v10: true, stream: true },
} as const;
export type MessageMethod = keyof typeof MESSAGE_METHODS;

/**
 * A message of one text part to `skill` (a name, or read from the peer) by `method` at the peer's
 * `endpointName`: 0.3 params (`m03`) under the slash names, 1.0 (`m10`, A2A-Version) under the
 * others; answered HTTP 200 unless `expected` says otherwise.
 */
export function messageProbe(
  label: string,
  endpointName: string,
  method: MessageMethod,
  text: string,
  skill: string | ((peer: Peer) => string),
  expected: Partial<Expected> = {},
): Probe {
  const { v10, stream } = MESSAGE_METHODS[method];
  const params = (tag: string, peer: Peer): Json => {
    const id = typeof skill === 'string' ? skill : skill(peer);
    return v10 ? m10(text, id, tag) : m03(text, id, tag);
  };
  return rpcProbe(
    label,
    endpointName,
    method,
    params,
    { status: 200, ...expected },
    {
      stream,
      v10,
    },
  );
}
