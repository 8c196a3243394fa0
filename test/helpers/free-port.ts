/**
 * A TCP port free on `host` now (bound on port 0 and released), for a child process or a server
 * the test starts later with a fixed port. Another program may take it in between: tests that
 * start several programs retry or keep a set of ports handed out (see stack.test.ts).
 */
import net from 'node:net';

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, host, () => resolve()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}
