/**
 * Records the LIVE wire of the official Go SDK (`github.com/a2aproject/a2a-go` v0.3.3, main.go in
 * this folder) into test/fixtures/a2a-go-live/.
 *
 *   bash scripts/real-world-go.sh a2a-go      # the build (cached)
 *   node test/real-world/go/a2a-go/record.mjs
 *
 * Starts the peer (healthy; then A with a FAILED status-update, A returning ErrInvalidParams, A
 * returning ErrUnsupportedOperation, A returning a plain error, B; each on the SAME port), talks
 * to it with plain `fetch` (no instrumentation loaded), and writes for every exchange:
 *   <name>.json | <name>.sse | <name>.txt   the response body, byte for byte as received
 *   <name>.meta.json                        request + response status/headers
 * plus index.json (the module versions of go.mod/go.sum, Go's version, the exchanges).
 * The non-streaming JSON-RPC answers come as text/plain (no Content-Type set by the SDK): the
 * recorder files them as `.txt`. README.md is written by hand.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOX, V03, createRecorder, post, sse } from '../../record-lib.mjs';
import { buildGoPeer, startGoPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const built = buildGoPeer();
if (built !== true) throw new Error(built);
const rec = createRecorder({
  out: path.resolve(here, '../../../fixtures/a2a-go-live'),
  keep: ['README.md'],
  dropResponseHeaders: ['date'],
  messageIdPrefix: 'rec-',
});
const { exchange, rpc } = rec;
/** 0.3 params, the skill in the MESSAGE's metadata (what the Go SDK hands its executor). */
const m03 = (text, skillId) => rec.m03(text, skillId, 'message');

// ------------------------------------------------------------------ healthy
let peer = await startGoPeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange('card', 'GET /.well-known/agent-card.json', peer.cardUrl);
  const send = await exchange(
    'jsonrpc.message-send.completed',
    'message/send skill summarize: completed task (history: the user message and the working status message); no Content-Type set, net/http sniffs text/plain',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'jsonrpc.tasks-get.completed',
    'tasks/get of that task',
    peer.jsonRpcUrl,
    post(V03, rpc('tasks/get', { id: JSON.parse(send.text).result.id })),
  );
  await exchange(
    'jsonrpc.message-stream',
    'message/stream skill translate: status-update submitted, working, artifact-update, status-update completed (final); each event `id: <uuid>` + `data:`',
    peer.jsonRpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'jsonrpc.tasks-get.not-found',
    'tasks/get of an unknown task: -32001 at HTTP 200',
    peer.jsonRpcUrl,
    post(V03, rpc('tasks/get', { id: 'no-such-task' })),
  );
  await exchange(
    'jsonrpc.message-send.invalid-params',
    'message/send, the skill returns a2a.ErrInvalidParams (wrapped) before any event: -32602, the text in data.error',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03('summarize: max_words=-1', 'summarize'))),
  );
  await exchange(
    'jsonrpc.message-stream.invalid-params',
    'message/stream, the same: one SSE event carrying the -32602 error',
    peer.jsonRpcUrl,
    post(sse(V03), rpc('message/stream', m03('summarize: max_words=-1', 'summarize'))),
  );
  await exchange(
    'jsonrpc.unknown-method',
    'a 1.0 method name (SendMessage): -32601 method not found',
    peer.jsonRpcUrl,
    post(V03, rpc('SendMessage', m03('summarize: x', 'summarize'))),
  );
  await exchange(
    'http.not-found',
    'POST to a path the mux does not serve: net/http 404 text/plain "404 page not found"',
    `${peer.origin}/no-such-path`,
    post(V03, rpc('message/send', m03('summarize: x', 'summarize'))),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant A, FAILED status-update
peer = await startGoPeer({ variant: 'A', port });
try {
  await exchange(
    'variant-a.card',
    'card after the A redeploy: translate gone, version 1.0.0',
    peer.cardUrl,
  );
  await exchange(
    'variant-a.jsonrpc.message-send.unknown-skill',
    'message/send skill translate: final status-update FAILED with the agent message "unknown skill: translate"',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
  );
  await exchange(
    'variant-a.jsonrpc.message-stream.unknown-skill',
    'message/stream skill translate: submitted, then the failed status-update',
    peer.jsonRpcUrl,
    post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant A, Execute returns errors
for (const [how, note] of [
  [
    'error',
    'Execute returns fmt.Errorf("unknown skill: translate: %w", a2a.ErrInvalidParams): -32602',
  ],
  [
    'unsupported',
    'Execute returns fmt.Errorf("unknown skill: translate: %w", a2a.ErrUnsupportedOperation): -32004',
  ],
  [
    'plain',
    'Execute returns errors.New("unknown skill: translate") after the submitted event: -32603 "internal error", no text',
  ],
]) {
  peer = await startGoPeer({ variant: 'A', port, unknownSkill: /** @type {any} */ (how) });
  try {
    await exchange(
      `variant-a-${how}.jsonrpc.message-send.unknown-skill`,
      `message/send skill translate; ${note}`,
      peer.jsonRpcUrl,
      post(V03, rpc('message/send', m03('translate: hello', 'translate'))),
    );
    await exchange(
      `variant-a-${how}.jsonrpc.message-stream.unknown-skill`,
      `message/stream skill translate; ${note}`,
      peer.jsonRpcUrl,
      post(sse(V03), rpc('message/stream', m03('translate: hello', 'translate'))),
    );
  } finally {
    await peer.stop();
  }
}

// ------------------------------------------------------------------ variant B
peer = await startGoPeer({ variant: 'B', port });
try {
  await exchange(
    'variant-b.jsonrpc.message-send.image',
    'message/send skill summarize: artifact with a file part (bytes, mimeType image/png; card: text/plain)',
    peer.jsonRpcUrl,
    post(V03, rpc('message/send', m03(`summarize: ${FOX}`, 'summarize'))),
  );
  await exchange(
    'variant-b.jsonrpc.message-stream.image',
    'message/stream skill summarize: the artifact-update carries the image/png file part',
    peer.jsonRpcUrl,
    post(sse(V03), rpc('message/stream', m03(`summarize: ${FOX}`, 'summarize'))),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ nil Go slice
peer = await startGoPeer({ variant: 'healthy', nilTags: true });
try {
  await exchange(
    'nil-tags.card',
    'card of a Go agent that left translate.Tags nil: "tags": null (the @a2a-js/sdk 1.3 client refuses it)',
    peer.cardUrl,
  );
} finally {
  await peer.stop();
}

/** The module versions the build used (go.mod's requires) and the Go that built it. */
const gomod = readFileSync(path.join(here, 'go.mod'), 'utf8');
const modules = Object.fromEntries(
  [...gomod.matchAll(/^\s*(?:require\s+)?([\w./-]+\.[\w./-]+) (v[^\s]+)/gm)].map((m) => [
    m[1],
    m[2],
  ]),
);
const versions = {
  go: execFileSync('go', ['env', 'GOVERSION']).toString().trim(),
  ...modules,
};
rec.writeIndex({ recordedWith: versions });
console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
