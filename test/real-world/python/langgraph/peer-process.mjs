/**
 * Starts peer.py (langgraph-api's server with its in-memory runtime, the graphs of graphs.py)
 * through ../python-peer.mjs and finds its assistants (POST /assistants/search): one per graph,
 * each with its card at `/.well-known/agent-card.json?assistant_id=<id>` and JSON-RPC at
 * `/a2a/<id>`. Used by its row of the conformance table (checks and recording).
 */
import { pythonPeerFiles, startPythonPeer } from '../python-peer.mjs';

export const { PEER_SCRIPT, VENV_PYTHON, venvInstalled } = pythonPeerFiles('langgraph');

/**
 * The URLs of an assistant of the server at `origin`.
 * @param {string} origin
 * @param {string} assistantId
 */
export function assistantUrls(origin, assistantId) {
  return {
    assistantId,
    cardUrl: `${origin}/.well-known/agent-card.json?assistant_id=${assistantId}`,
    rpcUrl: `${origin}/a2a/${assistantId}`,
  };
}

/** @param {{ variant?: 'healthy'|'A'|'B', port?: number }} [opts] */
export async function startLangGraphPeer(opts = {}) {
  const peer = await startPythonPeer('langgraph', {
    name: 'LangGraph server (Python)',
    variant: opts.variant,
    port: opts.port,
    env: { PYTHONWARNINGS: 'ignore' },
  });
  try {
    const res = await fetch(`${peer.origin}/assistants/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const list = /** @type {Array<{ graph_id: string, assistant_id: string }>} */ (
      await res.json()
    );
    /** @type {Record<string, ReturnType<typeof assistantUrls>>} */
    const assistants = {};
    for (const a of list) assistants[a.graph_id] = assistantUrls(peer.origin, a.assistant_id);
    return { ...peer, assistants };
  } catch (e) {
    await peer.stop();
    throw e;
  }
}
