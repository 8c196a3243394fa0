/**
 * NODE_DEBUG parity: undici's own debug loggers (`NODE_DEBUG=undici` / `fetch`, in undici's
 * lib/core/diagnostics.js) stand down when some undici channels already have subscribers as
 * that module loads (undici 7: `undici:request:headers`/`trailers`/`error` and the client
 * connect/sendHeaders channels). With the register entry the tap is enabled at process
 * start, so it must not hold those channels then: an app run with and without
 * `--require …/register.js` prints the same UNDICI/FETCH debug lines, in the same order.
 *
 * Each case runs a child process (bare, then under the register) that makes a non-A2A fetch,
 * an A2A JSON-RPC POST with fetch, and the same with npm `undici.request`, against a server in
 * the child, with npm undici loaded before or after Node's bundled undici. Version-independent:
 * it compares whatever the running Node prints bare with what it prints under the register.
 *
 * Run: npm run build && node --import tsx --test test/hooks/node-debug.test.ts
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as diagnosticsChannel from 'node:diagnostics_channel';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanEnv } from '../helpers/clean-env';
import { UNDICI_CHANNELS, WireTap } from '../../src/hooks/wire-tap';

const ROOT = path.resolve(__dirname, '../..');
const REGISTER = path.join(ROOT, 'dist/cjs/register.js');
const UNDICI = require.resolve('undici', { paths: [ROOT] });

const A2A_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: { message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm1' } },
});

/** The app: `UNDICI_FIRST=1` loads npm undici before anything touches Node's bundled one. */
const APP = `
'use strict';
const http = require('node:http');
const undiciPath = process.env.UNDICI_PATH;
let undici = process.env.UNDICI_FIRST === '1' ? require(undiciPath) : undefined;
const A2A_BODY = ${JSON.stringify(A2A_BODY)};
const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {
  kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'ok' }], messageId: 'r1' } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(req.url === '/plain' ? '{"plain":true}' : answer);
  });
});
server.listen(0, '127.0.0.1', async () => {
  const base = 'http://127.0.0.1:' + server.address().port;
  const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: A2A_BODY };
  try {
    let r = await fetch(base + '/plain');
    await r.text();
    r = await fetch(base + '/a2a', post);
    await r.text();
    if (!undici) undici = require(undiciPath);
    const u = await undici.request(base + '/a2a', post);
    await u.body.text();
    process.stdout.write('APP-DONE\\n');
  } catch (err) {
    process.stdout.write('APP-FAILED ' + (err && err.stack) + '\\n');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, register: boolean, undiciFirst: boolean): Promise<Run> {
  const args = register ? ['--require', REGISTER, script] : [script];
  const env = cleanEnv({
    NODE_DEBUG: 'undici,fetch',
    UNDICI_PATH: UNDICI,
    UNDICI_FIRST: undiciFirst ? '1' : '0',
    // Console spans (stdout) show the tap followed the A2A requests; debug lines go to stderr.
    OTEL_TRACES_EXPORTER: 'console',
    OTEL_METRICS_EXPORTER: 'none',
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The UNDICI/FETCH debug lines, pid and ports normalised (debuglog prints no timings). */
function debugLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => /^(UNDICI|FETCH) \d+: /.test(l))
    .map((l) => l.replace(/^(UNDICI|FETCH) \d+: /, '$1 <pid>: '))
    .map((l) => l.replace(/(127\.0\.0\.1|localhost)(:\d+)+/g, '$1:<port>'));
}

describe('NODE_DEBUG=undici,fetch: the same undici debug lines with and without the register', () => {
  let script: string;
  before(() => {
    assert.ok(fs.existsSync(REGISTER), `build first: ${REGISTER} is missing (npm run build)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a2a-node-debug-'));
    script = path.join(dir, 'app.js');
    fs.writeFileSync(script, APP);
  });

  for (const undiciFirst of [false, true]) {
    const order = undiciFirst ? 'npm undici loaded first' : "Node's bundled undici loaded first";
    test(`${order} (node ${process.version})`, async () => {
      const bare = await run(script, false, undiciFirst);
      const withRegister = await run(script, true, undiciFirst);
      for (const [what, r] of [
        ['bare', bare],
        ['register', withRegister],
      ] as const) {
        assert.equal(r.code, 0, `${what} exit code; stderr:\n${r.stderr}`);
        assert.match(r.stdout, /APP-DONE/, `${what} app did not finish: ${r.stdout}`);
      }
      const expected = debugLines(bare.stderr);
      // The loggers are on in this Node (else the comparison proves nothing).
      assert.ok(
        expected.some((l) => l.includes('received response')),
        `no debug lines bare:\n${bare.stderr}`,
      );
      // The register really followed the A2A requests (the tap's lazy subscriptions happened).
      assert.match(
        withRegister.stdout,
        /message\/send|SendMessage/,
        'no A2A span under the register',
      );
      assert.deepEqual(debugLines(withRegister.stderr), expected);
    });
  }
});

describe('WireTap subscriptions', () => {
  const channels = Object.values(UNDICI_CHANNELS);
  const subscribed = () => channels.filter((c) => diagnosticsChannel.channel(c).hasSubscribers);

  test('only create at enable, the rest at the first followed request, none after disable', async () => {
    assert.deepEqual(subscribed(), [], 'nothing else in this process subscribes');
    const server = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let completed = 0;
    const onCreate = (info: { path: string }) =>
      info.path === '/follow' ? { onComplete: () => completed++ } : undefined;
    const tap = new WireTap({ onCreate }, () => {});
    try {
      tap.enable();
      assert.deepEqual(subscribed(), [UNDICI_CHANNELS.create]);
      await (await fetch(`${base}/ignored`)).text();
      assert.deepEqual(
        subscribed(),
        [UNDICI_CHANNELS.create],
        'a request not followed subscribes nothing',
      );
      await (await fetch(`${base}/follow`)).text();
      assert.deepEqual(subscribed(), channels);
      await (await fetch(`${base}/follow`)).text();
      assert.equal(
        completed,
        2,
        'the followed requests completed through the lazily subscribed channels',
      );
      tap.disable();
      assert.deepEqual(subscribed(), []);
      tap.enable();
      assert.deepEqual(subscribed(), [UNDICI_CHANNELS.create], 're-enabled: lazy again');
    } finally {
      tap.disable();
      server.closeAllConnections();
      server.close();
    }
  });
});
