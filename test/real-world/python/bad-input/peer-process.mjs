/**
 * Starts peer.py (a Starlette app that answers badly: a traceback 500, an SSE stream cut inside
 * a `data:` line, cards with Python `None`s where arrays belong) with the FastA2A virtual
 * environment's Python (../fasta2a/.venv: Starlette 1.10 and uvicorn 0.55 come with FastA2A's
 * lock, so this peer needs no lock of its own). Used by ../../python-bad-input.test.ts.
 */
import { startChildPeer } from '../../child-peer.mjs';
import { pythonPeerFiles } from '../python-peer.mjs';

const own = pythonPeerFiles('bad-input');
const fasta2a = pythonPeerFiles('fasta2a');
export const PEER_SCRIPT = own.PEER_SCRIPT;
export const VENV_PYTHON = fasta2a.VENV_PYTHON;
export const venvInstalled = fasta2a.venvInstalled;

/** @param {{ port?: number }} [opts] */
export async function startBadInputPeer(opts = {}) {
  const peer = await startChildPeer({
    name: 'bad-input (Python, Starlette)',
    script: PEER_SCRIPT,
    cwd: own.dir,
    node: VENV_PYTHON,
    env: { PORT: String(opts.port ?? 0), PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' },
  });
  /** @param {string} base */
  const agent = (base) => ({
    baseUrl: `${peer.origin}/${base}`,
    cardUrl: `${peer.origin}/${base}/.well-known/agent-card.json`,
    rpcUrl: `${peer.origin}/${base}/`,
  });
  return { ...peer, agent };
}
