/**
 * Starts peer.mjs (the real Mastra A2A peer) in a child process run by a Node 22 binary
 * (Mastra needs Node >= 22.13) and waits for its `{"port":N}` line. Used by its row of
 * the conformance table and its recording (whose own processes stay on Node 20).
 *
 * The Node 22 binary: $MASTRA_PEER_NODE if set, else what `bash node22.sh` prints (the runtime
 * matrix's fetch: npm package node-linux-<arch>@22, cached under /tmp/a2a-matrix/node). No
 * fallback to the current node: if no Node >= 22.13 can be had this throws.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildPeer } from '../child-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PEER_SCRIPT = path.join(here, 'peer.mjs');
export const MASTRA_DIR = here;

let cachedNode;
/** Absolute path of a Node >= 22.13 binary, or throws saying why there is none. */
export function node22() {
  if (cachedNode) return cachedNode;
  let bin = process.env.MASTRA_PEER_NODE;
  if (!bin) {
    try {
      bin = execFileSync('bash', [path.join(here, 'node22.sh')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 180_000,
      }).trim();
    } catch (e) {
      throw new Error(
        `no Node 22 binary for the Mastra peer: node22.sh failed: ${e.stderr || e.message}`,
      );
    }
  }
  let version;
  try {
    version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  } catch (e) {
    throw new Error(`no Node 22 binary for the Mastra peer: ${bin} does not run: ${e.message}`);
  }
  const [maj, min] = version.replace(/^v/, '').split('.').map(Number);
  if (maj < 22 || (maj === 22 && min < 13))
    throw new Error(`Mastra needs Node >= 22.13, ${bin} is ${version}`);
  cachedNode = bin;
  return bin;
}

/**
 * @param {{ variant?: 'healthy'|'A', port?: number, node?: string, register?: import('../child-peer.mjs').RegisterEntry }} [opts]
 * @returns {Promise<{ port: number, variant: string, pid: number, origin: string, nodeVersion: string,
 *   cardUrl(agentId: string): string, rpcUrl(agentId: string): string, stderr(): string, stop(): Promise<void> }>}
 */
export async function startMastraPeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const bin = opts.node ?? node22();
  const env = { VARIANT: variant, PORT: String(opts.port ?? 0), MASTRA_TELEMETRY_DISABLED: '1' };
  const peer = await startChildPeer({
    name: 'Mastra',
    script: PEER_SCRIPT,
    cwd: here,
    node: bin,
    env,
    register: opts.register,
  });
  return {
    ...peer,
    variant,
    nodeVersion: execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(),
    cardUrl: (agentId) => `${peer.origin}/api/.well-known/${agentId}/agent-card.json`,
    rpcUrl: (agentId) => `${peer.origin}/api/a2a/${agentId}`,
  };
}
