/**
 * Issue 26, the fleet alert receiver as a hostile tester and a misconfiguring operator would
 * try it (each test failed before its fix):
 *
 *  #1 the register's listener (OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT) set to the port the app
 *     itself listens on: the app's `listen(PORT)` failed with EADDRINUSE; now the listener
 *     yields the port and one warning says so (127.0.0.1 and ::1, the app binding at start-up
 *     or later; wildcard addresses are decided by the same port rule, checked without binding
 *     them);
 *  #2 connections: 400 idle connections to the listener in a process limited to 200
 *     descriptors left the app unable to open a file or a socket (EMFILE); an idle
 *     connection, and one dripping its body, stayed open for half a minute or more;
 *  #3 `createAlertWebhookHandler({ token: undefined })` trusted any loopback peer (a reverse
 *     proxy's forwarded requests included).
 *
 * Real sockets on 127.0.0.1 (and ::1), the register entry in child processes.
 *
 *   npm run build && node --import tsx --test test/hardening/fleet-listener.test.ts
 *
 * Needs the built package (dist/); it is not rebuilt here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cleanEnv } from '../helpers/clean-env';
import http from 'node:http';
import { createAlertWebhookHandler, onAgentCardDrift, type DriftEvent } from '../../src/index';
import { listenPort, startAlertWebhookListener } from '../../src/fleet/listener';
import { sharedState } from '../../src/telemetry/shared-state';
import { freePort } from '../helpers/free-port';
import { alertmanagerNotification } from '../helpers/alertmanager';

const REPO = path.resolve(__dirname, '..', '..');
const REGISTER_CJS = path.join(REPO, 'dist', 'cjs', 'register.js');
const TOKEN = 'hardening-fleet-token';
const CHILD_TIMEOUT_MS = 30_000;

interface Child {
  proc: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  waitFor(text: string, ms?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>;
}

function startChild(command: string, args: string[], env: Record<string, string>): Child {
  let stdout = '';
  let stderr = '';
  const proc = spawn(command, args, { cwd: REPO, env: cleanEnv(env), stdio: 'pipe' });
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (c: string) => (stdout += c));
  proc.stderr.on('data', (c: string) => (stderr += c));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill('SIGKILL');
  }, CHILD_TIMEOUT_MS);
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    timedOut: boolean;
  }>((resolve) =>
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut });
    }),
  );
  return {
    proc,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async waitFor(text, ms = 15_000) {
      const end = Date.now() + ms;
      while (!stdout.includes(text)) {
        if (Date.now() > end || proc.exitCode !== null || proc.signalCode !== null)
          throw new Error(
            `the app did not print ${JSON.stringify(text)}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** An HTTP/1.1 exchange over a raw socket: the status line's code, or the error's code. */
function rawRequest(host: string, port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (c: string) => (got += c));
    s.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    s.on('close', () => resolve(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1] ?? `closed: ${got}`));
    s.on('connect', () => s.end(request));
  });
}

before(() => {
  assert.ok(
    fs.existsSync(REGISTER_CJS),
    `${path.relative(REPO, REGISTER_CJS)} is missing (run npm run build first)`,
  );
});

// ---------------------------------------------------------------------------------------
// #1 The app wins its port
// ---------------------------------------------------------------------------------------

/** The app: listens on APP_PORT/APP_HOST at once, or when told on stdin; serves one request. */
const APP_LISTENS = `
const http = require('node:http');
const srv = http.createServer((req, res) => {
  res.writeHead(200, { connection: 'close' });
  res.end('the app itself');
  srv.close();
});
srv.on('error', (err) => { console.log('APP ERROR ' + err.code); process.exitCode = 3; process.stdin.destroy(); });
const go = () => {
  process.stdin.destroy();
  srv.listen(Number(process.env.APP_PORT), process.env.APP_HOST, () => console.log('app listening'));
};
if (process.env.LATER) { process.stdin.once('data', go); console.log('waiting'); } else go();
`;

describe('the fleet listener yields its port to the app', { timeout: 120_000 }, () => {
  for (const host of ['127.0.0.1', '::1'])
    for (const later of [false, true])
      test(`app listening on [${host}]:PORT ${later ? 'after the listener answered' : 'at start-up'}: the app listens, one warning`, async () => {
        const port = await freePort(host);
        const app = startChild(process.execPath, ['--require', REGISTER_CJS, '-e', APP_LISTENS], {
          OTEL_TRACES_EXPORTER: 'none',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port),
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_HOST: host,
          OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
          APP_PORT: String(port),
          APP_HOST: host,
          ...(later ? { LATER: '1' } : {}),
        });
        if (later) {
          await app.waitFor('waiting');
          // The listener is up and answers (no token: 401) before the app binds.
          let status = '';
          for (let i = 0; i < 100 && status !== '401'; i++) {
            status = await rawRequest(
              host,
              port,
              'POST /a2a/alerts HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
            );
            if (status !== '401') await new Promise((r) => setTimeout(r, 50));
          }
          assert.equal(status, '401', 'the fleet listener was bound first');
          app.proc.stdin.write('go\n');
        }
        await app.waitFor('app listening');
        const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/`);
        assert.equal(await res.text(), 'the app itself');
        const exit = await app.exited;
        assert.equal(exit.timedOut, false, 'the app ended on its own');
        assert.equal(exit.code, 0, `${app.stdout()}\n${app.stderr()}`);
        assert.ok(!app.stdout().includes('APP ERROR'), app.stdout());
        const warnings = app
          .stderr()
          .split('\n')
          .filter((l) => l.trim() !== '');
        assert.equal(warnings.length, 1, `exactly one warning:\n${app.stderr()}`);
        assert.match(warnings[0], new RegExp(`listens on port ${port} itself.*yields it`));
      });

  test('the port rule covers every listen form, any address (0.0.0.0, ::, none)', () => {
    assert.equal(listenPort([8080]), 8080);
    assert.equal(listenPort([8080, '0.0.0.0']), 8080);
    assert.equal(listenPort([8080, '::', () => {}]), 8080);
    assert.equal(listenPort(['8080']), 8080);
    assert.equal(listenPort([{ port: 8080, host: '::' }]), 8080);
    assert.equal(listenPort([{ port: '8080' }]), 8080);
    assert.equal(listenPort([0]), undefined);
    assert.equal(listenPort([]), undefined);
    assert.equal(listenPort(['/tmp/app.sock']), undefined);
    assert.equal(listenPort([{ path: '/tmp/app.sock' }]), undefined);
    assert.equal(listenPort([{ fd: 3 }]), undefined);
  });

  test('in process: another server listening on the port closes the listener first; other ports leave it alone', async () => {
    const warnings: string[] = [];
    const port = await freePort();
    const listener = startAlertWebhookListener({ port, host: '127.0.0.1', token: TOKEN }, (m) =>
      warnings.push(m),
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(listener.address(), 'bound');
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
    assert.ok(listener.address(), 'a listen on another port changes nothing');
    assert.equal(warnings.length, 0);
    const app = net.createServer();
    await new Promise<void>((resolve, reject) => {
      app.once('error', reject);
      app.listen({ port, host: '127.0.0.1' }, () => resolve());
    });
    assert.equal(listener.address(), undefined, 'the listener closed');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    listener.close();
    await new Promise<void>((resolve) => app.close(() => resolve()));
    await new Promise<void>((resolve) => other.close(() => resolve()));
    assert.equal(warnings.length, 1);
  });
});

// ---------------------------------------------------------------------------------------
// #2 Connections are bounded and timed out
// ---------------------------------------------------------------------------------------

/** The app: when told on stdin, opens 20 files and 10 sockets and says how many it got. */
const APP_OPENS = `
const fs = require('node:fs');
const net = require('node:net');
console.log('ready');
process.stdin.once('data', async () => {
  process.stdin.destroy();
  const fds = [];
  let files = 0;
  for (let i = 0; i < 20; i++) {
    try { fds.push(fs.openSync(process.execPath, 'r')); files++; } catch {}
  }
  const sockets = await Promise.all(Array.from({ length: 10 }, () => new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port: Number(process.env.ECHO_PORT) });
    s.on('connect', () => { resolve(true); s.destroy(); });
    s.on('error', () => resolve(false));
  })));
  for (const fd of fds) fs.closeSync(fd);
  console.log('files ' + files + '/20 sockets ' + sockets.filter(Boolean).length + '/10');
});
`;

describe('the listener bounds its connections', { timeout: 120_000 }, () => {
  let echo: net.Server;
  const echoSockets = new Set<net.Socket>();
  before(async () => {
    echo = net.createServer((s) => {
      echoSockets.add(s);
      s.on('close', () => echoSockets.delete(s));
      s.resume();
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
  });
  after(async () => {
    for (const s of echoSockets) s.destroy();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  test('400 idle connections in a process limited to 200 descriptors: the app still opens 20 files and 10 sockets', async () => {
    const port = await freePort();
    const app = startChild(
      'bash',
      [
        '-c',
        'ulimit -n 200 && exec "$0" "$@"',
        process.execPath,
        '--require',
        REGISTER_CJS,
        '-e',
        APP_OPENS,
      ],
      {
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_PORT: String(port),
        OTEL_INSTRUMENTATION_A2A_WEBHOOK_TOKEN: TOKEN,
        ECHO_PORT: String((echo.address() as net.AddressInfo).port),
      },
    );
    await app.waitFor('ready');
    const flood: net.Socket[] = [];
    try {
      // Open them one after another (each connected, or refused, before the next).
      for (let i = 0; i < 400; i++) {
        const s = net.connect({ host: '127.0.0.1', port });
        s.on('error', () => {});
        flood.push(s);
        await new Promise<void>((resolve) => {
          s.once('connect', () => resolve());
          s.once('close', () => resolve());
        });
      }
      // Let the listener accept (and drop) what it will.
      await new Promise((r) => setTimeout(r, 300));
      app.proc.stdin.write('go\n');
      await app.waitFor('files ');
      assert.match(app.stdout(), /files 20\/20 sockets 10\/10/, app.stdout() + app.stderr());
    } finally {
      for (const s of flood) s.destroy();
    }
    const exit = await app.exited;
    assert.equal(exit.code, 0, app.stderr());
  });

  test('an idle connection (no byte sent) and one dripping its body are closed by the listener', async () => {
    const port = await freePort();
    const listener = startAlertWebhookListener(
      { port, host: '127.0.0.1', token: TOKEN },
      () => undefined,
    );
    try {
      await new Promise((r) => setTimeout(r, 50));
      const closedWithin = (s: net.Socket, ms: number): Promise<boolean> =>
        new Promise((resolve) => {
          const t = setTimeout(() => resolve(false), ms);
          s.once('close', () => {
            clearTimeout(t);
            resolve(true);
          });
        });
      const idle = net.connect({ host: '127.0.0.1', port });
      idle.on('error', () => {});
      const slow = net.connect({ host: '127.0.0.1', port });
      slow.on('error', () => {});
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      slow.write(
        `POST /a2a/alerts HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TOKEN}\r\n` +
          'content-type: application/json\r\ncontent-length: 100000\r\n\r\n{',
      );
      const drip = setInterval(() => slow.write(' '), 500);
      try {
        // Behavioural bounds (a timeout exists), far above the listener's: before the fix both
        // stayed open 30 s or more (Node checks request timeouts every 30 s by default).
        const [idleClosed, slowClosed] = await Promise.all([
          closedWithin(idle, 20_000),
          closedWithin(slow, 25_000),
        ]);
        assert.equal(idleClosed, true, 'the idle connection was closed');
        assert.equal(slowClosed, true, 'the dripping request was closed');
      } finally {
        clearInterval(drip);
        idle.destroy();
        slow.destroy();
      }
    } finally {
      listener.close();
    }
  });
});

// ---------------------------------------------------------------------------------------
// #3 No token, no handler
// ---------------------------------------------------------------------------------------

describe('a handler without a token is refused at creation', () => {
  const CARD_URL = 'http://never-fetched.internal:8080/.well-known/agent-card.json';
  let fingerprint = 0;
  const forged = (): string =>
    JSON.stringify(
      alertmanagerNotification([
        {
          status: 'firing',
          labels: {
            alertname: 'A2AAgentCardDrift',
            a2a_agent_card_url: CARD_URL,
            a2a_drift_kind: 'unknown_skill',
            a2a_skill_id: 'forged',
          },
          annotations: {},
          startsAt: new Date().toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          fingerprint: `forged${String(++fingerprint).padStart(10, '0')}`,
        },
      ]),
    );

  /** The app's server with `handler`, and a reverse proxy on the same host in front of it. */
  async function appBehindProxy(handler: http.RequestListener): Promise<{
    direct: string;
    proxied: string;
    close(): Promise<void>;
  }> {
    const app = http.createServer(handler);
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', () => r()));
    const appPort = (app.address() as net.AddressInfo).port;
    const proxy = http.createServer((req, res) => {
      const up = http.request(
        {
          host: '127.0.0.1',
          port: appPort,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'x-forwarded-for': '203.0.113.7' },
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const proxyPort = (proxy.address() as net.AddressInfo).port;
    return {
      direct: `http://127.0.0.1:${appPort}/a2a/alerts`,
      proxied: `http://127.0.0.1:${proxyPort}/a2a/alerts`,
      close: async () => {
        app.closeAllConnections();
        proxy.closeAllConnections();
        await Promise.all([new Promise((r) => app.close(r)), new Promise((r) => proxy.close(r))]);
      },
    };
  }

  const post = async (url: string, token?: string): Promise<number> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      },
      body: forged(),
    });
    await res.text();
    return res.status;
  };

  test('createAlertWebhookHandler({ token: process.env.UNSET }) throws a TypeError that says why', () => {
    delete process.env.A2A_HARDENING_UNSET_TOKEN;
    for (const options of [
      { token: process.env.A2A_HARDENING_UNSET_TOKEN },
      {},
      undefined,
      null,
      { token: '' },
      { token: 42 },
      { token: undefined, unsafeAllowLoopbackWithoutToken: 'yes' },
    ])
      assert.throws(
        () => createAlertWebhookHandler(options as never),
        (err: unknown) =>
          err instanceof TypeError &&
          /needs a token/.test(err.message) &&
          /unsafeAllowLoopbackWithoutToken/.test(err.message),
        JSON.stringify(options),
      );
  });

  test('with a token: a forged alert through a reverse proxy on the same host is refused and fires nothing; the real one fires', async () => {
    const events: DriftEvent[] = [];
    const off = onAgentCardDrift((e) => void events.push(e));
    sharedState().lastEviction?.clear();
    const app = await appBehindProxy(createAlertWebhookHandler({ token: TOKEN }));
    try {
      assert.equal(await post(app.proxied), 401, 'no token, through the proxy');
      assert.equal(await post(app.direct), 401, 'no token, from loopback');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(events.length, 0, 'nothing fired');
      assert.equal(await post(app.proxied, TOKEN), 200, 'the token, through the proxy');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(events.length, 1);
      assert.equal(events[0].cardUrl, CARD_URL);
    } finally {
      off();
      await app.close();
    }
  });

  test('the unsafe opt-in answers loopback clients only when no proxy forwarded the request', async () => {
    const events: DriftEvent[] = [];
    const off = onAgentCardDrift((e) => void events.push(e));
    sharedState().lastEviction?.clear();
    const app = await appBehindProxy(
      createAlertWebhookHandler({ unsafeAllowLoopbackWithoutToken: true }),
    );
    try {
      assert.equal(await post(app.proxied), 401, 'forwarded by a proxy: refused');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(events.length, 0);
      assert.equal(await post(app.direct), 200, 'a local client, no proxy');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(events.length, 1);
    } finally {
      off();
      await app.close();
    }
  });
});
