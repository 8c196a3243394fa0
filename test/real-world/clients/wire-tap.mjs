/**
 * Server-side wire tap: records every HTTP exchange a node:http server in THIS
 * process handles (any server: express, the Bun.serve shim), through Node's
 * built-in `http.server.request.start` diagnostics channel. Nothing of the
 * server or the client is changed: the request body is read by a second 'data'
 * listener, the response by wrapping `res.writeHead/write/end`.
 *
 * Each exchange: { method, path, requestHeaders (raw, in wire order),
 * requestBody (utf8), status, responseHeaders, responseBody (utf8, byte-exact) }.
 */
import dc from 'node:diagnostics_channel';

export function startWireTap(onExchange) {
  const listener = ({ request: req, response: res }) => {
    const path = req.url; // captured now: express rewrites req.url for mounted routers
    const reqChunks = [];
    req.on('data', (c) => reqChunks.push(Buffer.from(c)));
    const resChunks = [];
    let explicitHeaders = {};
    const toBuf = (c, enc) =>
      c == null
        ? null
        : Buffer.isBuffer(c)
          ? c
          : typeof c === 'string'
            ? Buffer.from(c, enc && typeof enc === 'string' ? enc : 'utf8')
            : Buffer.from(c);
    const { writeHead, write, end } = res;
    res.writeHead = function (status, ...rest) {
      const h = rest.find((x) => x && typeof x === 'object');
      if (h) {
        if (Array.isArray(h))
          for (let i = 0; i < h.length; i += 2)
            explicitHeaders[String(h[i]).toLowerCase()] = h[i + 1];
        else for (const [k, v] of Object.entries(h)) explicitHeaders[k.toLowerCase()] = v;
      }
      return writeHead.call(this, status, ...rest);
    };
    res.write = function (chunk, enc, cb) {
      const b = toBuf(chunk, enc);
      if (b) resChunks.push(b);
      return write.call(this, chunk, enc, cb);
    };
    res.end = function (chunk, enc, cb) {
      const b = typeof chunk === 'function' ? null : toBuf(chunk, enc);
      if (b) resChunks.push(b);
      return end.call(this, chunk, enc, cb);
    };
    res.on('finish', () => {
      const rawHeaders = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        rawHeaders.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      onExchange({
        method: req.method,
        path,
        requestHeaders: rawHeaders,
        requestBody: Buffer.concat(reqChunks).toString('utf8'),
        status: res.statusCode,
        responseHeaders: { ...res.getHeaders(), ...explicitHeaders },
        responseBody: Buffer.concat(resChunks).toString('utf8'),
      });
    });
  };
  dc.subscribe('http.server.request.start', listener);
  return () => dc.unsubscribe('http.server.request.start', listener);
}
