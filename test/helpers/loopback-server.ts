/**
 * A test file's plain node:http server on 127.0.0.1 (port 0), standing in for an agent, with the
 * OpenTelemetry harness: both made in the file's `before` (the harness first), the harness reset
 * before each test, and in `after` the server's connections closed, the server closed and the
 * harness shut down. Call it at the top level of a test file; `h()` and `base()` (the server's
 * `http://127.0.0.1:port`) are there from the `before` hook on.
 */
import { after, before, beforeEach } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { A2AInstrumentationConfig } from '../../src/index';
import { setupOtel, type Harness } from './otel';

export function harnessWithLoopbackServer(
  handler: http.RequestListener,
  config: A2AInstrumentationConfig = {},
): { h: () => Harness; base: () => string } {
  let harness: Harness | undefined;
  let server: http.Server | undefined;
  let base: string | undefined;
  before(async () => {
    harness = setupOtel(config);
    const s = (server = http.createServer(handler));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  });
  after(async () => {
    const s = server;
    if (s) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    await harness?.shutdown();
  });
  beforeEach(async () => {
    await harness?.reset();
  });
  return {
    h: () => {
      if (harness === undefined) throw new Error('the harness is made in the file’s before hook');
      return harness;
    },
    base: () => {
      if (base === undefined) throw new Error('the server listens from the file’s before hook on');
      return base;
    },
  };
}
