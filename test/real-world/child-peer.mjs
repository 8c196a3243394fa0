/**
 * Runs a real third-party A2A peer script in a child process and waits for its one-line
 * `{"port":N}` announcement on stdout. Shared by the Mastra, VoltAgent and reactive-agents
 * peers (and their record scripts). The child never inherits the client's loaders or
 * instrumentation (NODE_OPTIONS is dropped); `register` runs it under this package's register
 * entry instead (the agent's side of the conformance table): node arguments before the script
 * and the entry's environment (where it exports OTLP).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';

/** A port free on 127.0.0.1 now (the OS's choice). */
export async function freePort() {
  const srv = net.createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/**
 * @param {{ name: string, script: string, args?: string[], cwd?: string, node?: string, env?: Record<string, string>, register?: { nodeArgs: string[], env: Record<string, string> }, startTimeoutMs?: number }} opts
 * @returns {Promise<{ port: number, pid: number | undefined, origin: string, stderr(): string, stop(): Promise<void> }>}
 */
export function startChildPeer(opts) {
  const env = { ...process.env, ...(opts.env ?? {}), ...(opts.register?.env ?? {}) };
  delete env.NODE_OPTIONS;
  const bin = opts.node ?? process.execPath;
  const nodeArgs = opts.register?.nodeArgs ?? [];
  const child = spawn(bin, [...nodeArgs, opts.script, ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-20_000);
  });
  const limit = opts.startTimeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${opts.name} peer did not start in ${limit / 1000} s; stderr:\n${stderr}`));
    }, limit);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${opts.name} peer could not be spawned with ${bin}: ${e.message}`));
    });
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${opts.name} peer exited (${code ?? sig}) before it was ready; stderr:\n${stderr}`,
        ),
      );
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', function onData(d) {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      clearTimeout(timer);
      let port;
      try {
        port = JSON.parse(out.slice(0, nl)).port;
      } catch {
        child.kill('SIGKILL');
        reject(
          new Error(
            `${opts.name} peer announced ${JSON.stringify(out.slice(0, 200))} instead of {"port":N}`,
          ),
        );
        return;
      }
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      resolve({
        port,
        pid: child.pid,
        origin: `http://127.0.0.1:${port}`,
        stderr: () => stderr,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 3000);
          await exited;
          clearTimeout(t);
        },
      });
    });
  });
}
