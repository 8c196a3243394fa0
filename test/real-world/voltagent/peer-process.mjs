/**
 * Starts peer.mjs (the real VoltAgent A2A peer) in a child `node` process and waits for its
 * `{"port":N}` line. Used by record.mjs and ../voltagent.test.ts.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PEER_SCRIPT = path.join(here, 'peer.mjs');

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, cardVersion?: string, node?: string }} [opts]
 */
export function startVoltAgentPeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const env = { ...process.env, VARIANT: variant, PORT: String(opts.port ?? 0) };
  if (opts.cardVersion) env.CARD_VERSION = opts.cardVersion;
  // The peer must not inherit the client's instrumentation/loaders.
  delete env.NODE_OPTIONS;
  const child = spawn(opts.node ?? process.execPath, [PEER_SCRIPT], { cwd: here, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-20_000);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`VoltAgent peer did not start in 30 s; stderr:\n${stderr}`));
    }, 30_000);
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`VoltAgent peer exited (${code ?? sig}) before it was ready; stderr:\n${stderr}`));
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const { port } = JSON.parse(out.slice(0, nl));
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      resolve({
        port,
        variant,
        pid: child.pid,
        origin: `http://127.0.0.1:${port}`,
        cardUrl: (agentId) => `http://127.0.0.1:${port}/.well-known/${agentId}/agent-card.json`,
        rpcUrl: (agentId) => `http://127.0.0.1:${port}/a2a/${agentId}`,
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
