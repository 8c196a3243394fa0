/**
 * The recording machinery of conformance/record.ts, which records a row of the conformance table
 * from the row's `recording` (which deployments, which exchanges, with which notes; the fixture
 * folder keeps its README). For every exchange the recorder writes, into its fixture folder:
 *   <name>.json | <name>.sse | <name>.txt   the response body, byte for byte as received
 *   <name>.meta.json                        request (method, path, headers, body) + response
 *                                           status/headers (less `dropResponseHeaders`)
 * and at the end index.json (`writeIndex`): the versions recorded with and the list of exchanges.
 * It talks with plain `fetch` (no instrumentation loaded).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** JSON-RPC POST headers of a Node client (`sse` makes them an event stream's). */
export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Request headers of a plain client: 1.0 (with `A2A-Version`) and 0.3 (without). */
export const V10 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
export const V03 = { 'content-type': 'application/json' };
export const post = (headers, body) => ({ method: 'POST', headers, body });
export const sse = (h) => ({ ...h, accept: 'text/event-stream' });

/** The JSON payload of an SSE body's first event (`data: {json}`, `data: \x1e{json}`, ...). */
export function firstSseJson(text) {
  const first = text.split('\n\n').find((e) => e.trim());
  return JSON.parse(first.slice(first.indexOf('{')));
}

/** `{package: version}` read from `<dir>/node_modules/<package>/package.json`. */
export function nodePackageVersions(dir, pkgs) {
  const versions = {};
  for (const pkg of pkgs) {
    versions[pkg] = JSON.parse(
      readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8'),
    ).version;
  }
  return versions;
}
/** `{python, package: version, ...}` as installed in the venv of `python`. */
export function pythonPackageVersions(python, pkgs) {
  return JSON.parse(
    execFileSync(python, [
      '-c',
      `import json, importlib.metadata as m, sys; print(json.dumps({"python": sys.version.split()[0], **{p: m.version(p) for p in ${JSON.stringify(pkgs)}}}))`,
    ]).toString(),
  );
}
/**
 * Empties `out` (but for the files named in `keep`) and returns the recorder writing into it.
 * @param {{ out: string, keep?: string[], dropResponseHeaders?: string[], messageIdPrefix?: string }} opts
 */
export function createRecorder({ out, keep = [], dropResponseHeaders = [], messageIdPrefix }) {
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out)) if (!keep.includes(f)) rmSync(path.join(out, f));
  const index = [];
  let rpcId = 0;
  let msgSeq = 0;
  const nextRpcId = () => ++rpcId;
  const nextMessageId = () => `${messageIdPrefix}${++msgSeq}`;

  /** One request; writes its body and meta files and lists it in the index. */
  async function exchange(name, note, url, init = {}) {
    const method = init.method ?? 'GET';
    const headers = init.headers ?? {};
    const res = await fetch(url, { method, headers, body: init.body });
    const bytes = Buffer.from(await res.arrayBuffer());
    const ct = res.headers.get('content-type') ?? '';
    const ext = ct.includes('text/event-stream') ? 'sse' : ct.includes('json') ? 'json' : 'txt';
    writeFileSync(path.join(out, `${name}.${ext}`), bytes);
    const u = new URL(url);
    let reqBody = null;
    if (typeof init.body === 'string') {
      try {
        reqBody = JSON.parse(init.body);
      } catch {
        reqBody = init.body;
      }
    }
    const resHeaders = Object.fromEntries(res.headers.entries());
    for (const h of dropResponseHeaders) delete resHeaders[h];
    const meta = {
      note,
      request: { method, path: u.pathname + u.search, headers, body: reqBody },
      response: { status: res.status, headers: resHeaders, bodyFile: `${name}.${ext}` },
    };
    writeFileSync(path.join(out, `${name}.meta.json`), JSON.stringify(meta, null, 2) + '\n');
    index.push({
      name,
      file: `${name}.${ext}`,
      note,
      status: res.status,
      method,
      path: u.pathname,
    });
    return { status: res.status, text: bytes.toString('utf8'), contentType: ct };
  }

  return {
    out,
    index,
    exchange,
    nextRpcId,
    nextMessageId,
    /** A JSON-RPC request body (ids 1, 2, ... per recorder). */
    rpc: (method, params) => JSON.stringify({ jsonrpc: '2.0', id: nextRpcId(), method, params }),
    /** 1.0 `SendMessage` params: the skill in the request metadata. */
    m10: (text, skillId) => ({
      message: { messageId: nextMessageId(), role: 'ROLE_USER', parts: [{ text }] },
      metadata: { skillId },
    }),
    /**
     * 0.3 `MessageSendParams` with one text part; the skill (if any) in `message.metadata`, or in
     * the params' own `metadata` when `where` is 'params'.
     */
    m03(text, skillId, where = 'message') {
      const message = {
        kind: 'message',
        role: 'user',
        messageId: nextMessageId(),
        parts: [{ kind: 'text', text }],
      };
      const metadata = skillId === undefined ? {} : { metadata: { skillId } };
      return where === 'params'
        ? { message, ...metadata }
        : { message: { ...message, ...metadata } };
    },
    /** index.json: `head` (recordedWith, ...) then the exchanges. */
    writeIndex(head) {
      writeFileSync(
        path.join(out, 'index.json'),
        JSON.stringify({ ...head, exchanges: index }, null, 2) + '\n',
      );
    },
  };
}
