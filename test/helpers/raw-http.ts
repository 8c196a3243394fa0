/**
 * Requests sent with `node:http`, a client this package's client side does not see (no fetch,
 * no undici), for the tests of the agent's side; and the JSON-RPC `SendMessage` body they send.
 */
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The 1.0 version header of an A2A request. */
export const A2A_V1 = { 'a2a-version': '1.0' };

/**
 * One request with node:http. `body` is written as is: in `slowChunks` pieces 20 ms apart, or,
 * with `declaredLength` (more than its bytes), then the connection cut. A request error rejects,
 * or with `errorAsAnswer` is the answer (status -1, the message as body), as a cut connection is.
 */
export function raw(
  url: string,
  method: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
  opts: { slowChunks?: number; declaredLength?: number; errorAsAnswer?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(opts.declaredLength !== undefined
            ? { 'content-length': String(opts.declaredLength) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        if (opts.errorAsAnswer) res.on('error', reject);
      },
    );
    req.on('error', (err) =>
      opts.errorAsAnswer
        ? resolve({ status: -1, headers: {}, body: String(err.message) })
        : reject(err),
    );
    if (body === undefined) {
      req.end();
      return;
    }
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    if (opts.slowChunks) {
      const step = Math.ceil(bytes.length / opts.slowChunks);
      let i = 0;
      const next = (): void => {
        if (i >= bytes.length) return void req.end();
        req.write(bytes.subarray(i, i + step));
        i += step;
        setTimeout(next, 20);
      };
      next();
    } else if (opts.declaredLength !== undefined) {
      req.write(bytes); // fewer bytes than declared: the connection is then cut
      setTimeout(() => req.destroy(), 100);
    } else req.end(bytes);
  });
}

let n = 0;
/** A JSON-RPC `method` (SendMessage) body, the skill id (if any) in both metadata; ids numbered. */
export function sendMessage(skillId: string | undefined, method = 'SendMessage'): string {
  n++;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method,
    params: {
      message: {
        messageId: `m-${n}`,
        role: 'ROLE_USER',
        parts: [{ text: 'hello' }],
        ...(skillId !== undefined ? { metadata: { skillId } } : {}),
      },
      ...(skillId !== undefined ? { metadata: { skillId } } : {}),
    },
  });
}
