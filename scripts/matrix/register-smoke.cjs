#!/usr/bin/env node
// Smoke test of the `register` entry (which the test suite does not start): runs a child
// `node --require <dist/cjs/register.js>` that makes one span and one counter, against a
// local OTLP/HTTP receiver on 127.0.0.1, and checks that both arrive as OTLP/JSON.
// Usage (from the package directory): node register-smoke.cjs [path/to/dist/cjs/register.js]
'use strict';
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');

const entry = path.resolve(process.argv[2] || 'dist/cjs/register.js');
const SPAN = 'matrix-smoke-span';
const METRIC = 'matrix_smoke_total';
const seen = [];

const srv = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const names = [];
    for (const rs of parsed?.resourceSpans ?? [])
      for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) names.push(s.name);
    for (const rm of parsed?.resourceMetrics ?? [])
      for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) names.push(m.name);
    seen.push({ url: req.url, contentType: req.headers['content-type'], names });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});

srv.listen(0, '127.0.0.1', () => {
  const { port } = srv.address();
  const code =
    "const api = require('@opentelemetry/api');" +
    `api.trace.getTracer('smoke').startSpan('${SPAN}').end();` +
    `api.metrics.getMeter('smoke').createCounter('${METRIC}').add(1);`;
  const child = spawn(process.execPath, ['--require', entry, '-e', code], {
    env: {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_SERVICE_NAME: 'matrix-smoke',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', // read below as JSON (protobuf: test/e2e/exporters.test.ts)
    },
    stdio: 'inherit',
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  child.on('exit', (exitCode, signal) => {
    clearTimeout(timer);
    setTimeout(() => {
      srv.close();
      const got = (url, name) =>
        seen.some(
          (s) => s.url === url && /json/.test(s.contentType || '') && s.names.includes(name),
        );
      const ok = exitCode === 0 && got('/v1/traces', SPAN) && got('/v1/metrics', METRIC);
      console.log(
        `register smoke: ${ok ? 'ok' : 'FAILED'} (child exit ${exitCode ?? signal}; received ${JSON.stringify(seen)})`,
      );
      process.exit(ok ? 0 : 1);
    }, 200);
  });
});
