/**
 * Starts peer.py (the real `a2a-sdk` server) with this folder's virtual environment
 * (.venv/bin/python, created by scripts/real-world.sh from requirements.lock) and waits for its
 * `{"port":N}` line. Used by record.mjs and ../../python-a2a-sdk.test.ts.
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

/**
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, unknownSkill?: 'status'|'raise' }} [opts]
 */
export async function startPythonSdkPeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const peer = await startChildPeer({
    name: 'a2a-sdk (Python)',
    script: PEER_SCRIPT,
    cwd: here,
    node: VENV_PYTHON,
    env: {
      VARIANT: variant,
      PORT: String(opts.port ?? 0),
      UNKNOWN_SKILL: opts.unknownSkill ?? 'status',
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
    },
  });
  return {
    ...peer,
    variant,
    baseUrl: peer.origin,
    cardUrl: `${peer.origin}/.well-known/agent-card.json`,
    jsonRpcUrl: `${peer.origin}/a2a/jsonrpc`,
    restUrl: `${peer.origin}/a2a/rest`,
  };
}
