"""The LangGraph server's A2A endpoint, live, for test/real-world/python-langgraph.test.ts:
`langgraph-api` 0.16.7 with its in-memory runtime (`langgraph-runtime-inmem` 0.36.7, what
`langgraph dev` runs), the app `langgraph_api.server:app` on uvicorn, 127.0.0.1, configured the
way `langgraph_api.cli.run_server` configures it (environment variables read at import), but on
a socket bound here so the port can be 0, and with nothing that reaches the network: no version
check (LANGGRAPH_NO_VERSION_CHECK), no LangSmith tracing, no license key (metadata loop
skipped), no file persistence.

Graphs (graphs.py, no language model): `desk` and `studio`; each is an assistant whose id is
uuid5 of the graph id (the same across restarts), with its card at
`/.well-known/agent-card.json?assistant_id=<id>` and JSON-RPC at `/a2a/<id>`.

env:
  PORT     port on 127.0.0.1 (0 or unset: a free one)
  VARIANT  healthy | A | B
    A  the redeploy removed the graph `studio` (its assistant, card and skill are gone)
    B  `desk` answers with an image (a file part `image/png`); card unchanged
Prints {"port":N} on stdout once uvicorn accepts connections; logs go to stderr.
"""

import atexit
import json
import os
import shutil
import signal
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from live_peer import listening_socket, serve_asgi, variant  # noqa: E402  (../live_peer.py)

VARIANT = variant('healthy', 'A', 'B')


def main() -> None:
    sock = listening_socket()
    port = sock.getsockname()[1]
    graphs = {'desk': os.path.join(HERE, 'graphs.py:desk')}
    if VARIANT != 'A':
        graphs['studio'] = os.path.join(HERE, 'graphs.py:studio')
    # the in-memory runtime still writes .langgraph_api/ (checkpoints, assistants) into the
    # working directory and reads it back on the next start: a fresh one per run, removed after
    work = tempfile.mkdtemp(prefix='langgraph-peer-')
    atexit.register(shutil.rmtree, work, True)
    os.chdir(work)
    # what langgraph_api.cli.run_server sets before uvicorn imports the app
    os.environ.update(
        MIGRATIONS_PATH='__inmem',
        DATABASE_URI=':memory:',
        REDIS_URI='fake',
        N_JOBS_PER_WORKER='1',
        LANGSERVE_GRAPHS=json.dumps(graphs),
        LANGSMITH_LANGGRAPH_API_VARIANT='local_dev',
        LANGGRAPH_UI_BUNDLER='true',
        LANGGRAPH_API_URL=f'http://127.0.0.1:{port}',
        LANGGRAPH_DISABLE_FILE_PERSISTENCE='true',
        LANGGRAPH_RUNTIME_EDITION='inmem',
        LANGGRAPH_ALLOW_BLOCKING='false',
        ALLOW_PRIVATE_NETWORK='true',
        # nothing reaches the network
        LANGGRAPH_NO_VERSION_CHECK='true',
        LANGSMITH_TRACING='false',
        LANGCHAIN_TRACING_V2='false',
        LANGSMITH_API_KEY='',
        LANGCHAIN_API_KEY='',
    )
    # SIGTERM (the test's stop()): uvicorn shuts down, then re-raises the signal it caught;
    # this handler takes it, so the process ends normally and atexit removes `work`
    signal.signal(signal.SIGTERM, lambda *_: None)
    serve_asgi('langgraph_api.server:app', sock)

if __name__ == '__main__':
    main()
