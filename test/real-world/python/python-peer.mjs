/**
 * The shared starter of the Python peers (test/real-world/python/<impl>/peer.py): runs the impl's
 * peer.py with its own virtual environment (<impl>/.venv/bin/python, created by
 * scripts/real-world.sh from <impl>/requirements.lock) through ../child-peer.mjs and waits for its
 * `{"port":N}` line. What differs between the impls (the peer's name, its fixed environment, the
 * endpoint URLs it serves, as paths on its origin) is data in peers.json, read by `startImplPeer`;
 * only a peer that needs more than that keeps an <impl>/peer-process.mjs of its own (a2a-sdk
 * picks a gRPC port, LangGraph looks its assistants up, bad-input borrows FastA2A's venv).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildPeer } from '../child-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** @type {Record<string, { name: string, env?: Record<string, string>, urls?: Record<string, string> }>} */
const PEERS = JSON.parse(fs.readFileSync(path.join(here, 'peers.json'), 'utf8'));

/**
 * Where an impl's peer lives.
 * @param {string} impl the folder name under test/real-world/python/
 */
export function pythonPeerFiles(impl) {
  const dir = path.join(here, impl);
  return {
    dir,
    PEER_SCRIPT: path.join(dir, 'peer.py'),
    VENV_PYTHON: path.join(dir, '.venv', 'bin', 'python'),
    /** True when scripts/real-world.sh has installed the venv (its stamp exists). */
    venvInstalled: () => fs.existsSync(path.join(dir, '.venv', '.installed')),
  };
}

/**
 * Starts <impl>/peer.py with VARIANT and PORT (plus `env`) and unbuffered, bytecode-free Python.
 * @param {string} impl
 * @param {{ name: string, variant?: string, port?: number, env?: Record<string, string> }} opts
 */
export async function startPythonPeer(impl, opts) {
  const files = pythonPeerFiles(impl);
  const variant = opts.variant ?? 'healthy';
  const peer = await startChildPeer({
    name: opts.name,
    script: files.PEER_SCRIPT,
    cwd: files.dir,
    node: files.VENV_PYTHON,
    env: {
      VARIANT: variant,
      PORT: String(opts.port ?? 0),
      ...(opts.env ?? {}),
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
    },
  });
  return {
    ...peer,
    variant,
    baseUrl: peer.origin,
    cardUrl: `${peer.origin}/.well-known/agent-card.json`,
  };
}

/**
 * Starts the impl's peer as peers.json describes it: its name, its environment (with `env`, what
 * the deployment chose, on top), and each of its URLs, a path on the origin.
 * @param {string} impl
 * @param {{ variant?: string, port?: number, env?: Record<string, string> }} [opts]
 */
export async function startImplPeer(impl, opts = {}) {
  const d = PEERS[impl];
  if (!d) throw new Error(`python/peers.json has no ${impl}`);
  const peer = await startPythonPeer(impl, {
    name: d.name,
    variant: opts.variant,
    port: opts.port,
    env: { ...(d.env ?? {}), ...(opts.env ?? {}) },
  });
  const urls = Object.entries(d.urls ?? {}).map(([k, p]) => [k, `${peer.origin}${p}`]);
  return { ...peer, ...Object.fromEntries(urls) };
}
