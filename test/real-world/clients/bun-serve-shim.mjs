/**
 * `@reactive-agents/a2a`'s HTTP server (createA2AHttpServer) calls `Bun.serve`,
 * so it only runs on Bun. This is a minimal `Bun.serve({ port, hostname, fetch })`
 * on node:http for Node: each request becomes a WHATWG `Request`, the package's own
 * `fetch(req)` handler produces the `Response`, whose status, headers and body
 * bytes are written back unchanged. The package's code is not modified.
 * `globalThis.__bunListening` resolves to the bound port once listening.
 */
import http from 'node:http';

let resolveListening;
globalThis.__bunListening = new Promise((r) => (resolveListening = r));

globalThis.Bun = {
  serve({ port = 3000, hostname = '127.0.0.1', fetch: handler }) {
    const server = http.createServer(async (req, res) => {
      try {
        const chunks = [];
        for await (const c of req) chunks.push(c);
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
        const request = new Request(
          `http://${req.headers.host ?? `${hostname}:${port}`}${req.url}`,
          {
            method: req.method,
            headers,
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
          },
        );
        const response = await handler(request);
        const out = {};
        response.headers.forEach((v, k) => (out[k] = v));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      } catch (e) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(e));
      }
    });
    server.listen(port, hostname, () => resolveListening(server.address().port));
    return {
      get port() {
        return server.address()?.port ?? port;
      },
      hostname,
      stop() {
        server.close();
        server.closeAllConnections();
      },
    };
  },
};
