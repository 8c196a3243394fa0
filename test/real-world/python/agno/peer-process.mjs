/**
 * Starts peer.py (an Agno Agent served by AgentOS with `a2a_interface=True`) through
 * ../python-peer.mjs. Used by the python-agno row,
 * ../../rows/python-agno.ts (its checks and its recording). What is this impl's own: its name, telemetry off, and
 * the URLs AgentOS serves per agent under /a2a/agents/<id>/ (the card there, not at the origin's
 * /.well-known/; the card's `url` is the streaming route).
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('agno');

/** The agent id peer.py serves. */
export const AGENT_ID = 'desk';

/** @param {{ variant?: 'healthy'|'A'|'B', port?: number }} [opts] */
export async function startAgnoPeer(opts = {}) {
  const peer = await startPythonPeer('agno', {
    name: 'Agno AgentOS (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore', AGNO_TELEMETRY: 'false' },
  });
  const agentBase = `${peer.origin}/a2a/agents/${AGENT_ID}`;
  return {
    ...peer,
    agentBase,
    cardUrl: `${agentBase}/.well-known/agent-card.json`,
    sendUrl: `${agentBase}/v1/message:send`,
    streamUrl: `${agentBase}/v1/message:stream`,
  };
}

/**
 * An AgentOS SSE body (`event: <Name>\ndata: {json}\n\n`, one JSON-RPC response per event):
 * [event name, the response's `result`] per event.
 * @param {string} text
 */
export function parseAgnoSse(text) {
  return text
    .split('\n\n')
    .filter((e) => e.trim())
    .map((e) => {
      const [ev, data] = e.split('\n');
      return [ev.replace('event: ', ''), JSON.parse(data.replace('data: ', '')).result];
    });
}
