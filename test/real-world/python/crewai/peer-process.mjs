/**
 * Starts peer.py (a crewAI Agent: crewAI's own A2A task execution and card on the reference
 * a2a-sdk 0.3 Starlette app) through ../python-peer.mjs. Used by
 * the python-crewai row (../../rows/python-crewai.ts: its checks and its recording). What is this impl's own: its name, PYTHONWARNINGS=ignore, the
 * LLM mode (crewAI's ReAct text protocol or native function calling) and the JSON-RPC endpoint
 * at the root.
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('crewai');

/** @param {{ variant?: 'healthy'|'A', port?: number, mode?: 'react'|'function-calling' }} [opts] */
export async function startCrewAIPeer(opts = {}) {
  const peer = await startPythonPeer('crewai', {
    name: 'crewAI (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore', MODE: opts.mode ?? 'react' },
  });
  return { ...peer, mode: opts.mode ?? 'react', rpcUrl: `${peer.origin}/` };
}
