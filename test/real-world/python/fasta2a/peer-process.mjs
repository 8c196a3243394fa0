/**
 * Starts peer.py (the real FastA2A server (fasta2a.pydantic_ai.agent_to_a2a)) with this folder's virtual
 * environment (.venv/bin/python, created by scripts/real-world.sh from requirements.lock) and
 * waits for its `{"port":N}` line. Used by record.mjs and ../../python-fasta2a.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildPeer } from '../../child-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const PEER_SCRIPT = path.join(here, 'peer.py');
export const VENV_PYTHON = path.join(here, '.venv', 'bin', 'python');

/** True when scripts/real-world.sh has installed the venv (its stamp exists). */
export function venvInstalled() {
  return fs.existsSync(path.join(here, '.venv', '.installed'));
}

/** @param {{ variant?: 'healthy'|'A', port?: number }} [opts] */
export async function startFastA2APeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const peer = await startChildPeer({
    name: 'fasta2a (Python)',
    script: PEER_SCRIPT,
    cwd: here,
    node: VENV_PYTHON,
    env: {
      VARIANT: variant,
      PORT: String(opts.port ?? 0),
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONWARNINGS: 'ignore',
    },
  });
  return {
    ...peer,
    variant,
    baseUrl: peer.origin,
    cardUrl: `${peer.origin}/.well-known/agent-card.json`,
    rpcUrl: `${peer.origin}/`,
  };
}
