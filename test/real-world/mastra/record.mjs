// Records real Mastra A2A wire samples into test/fixtures/mastra/ (byte-exact response bodies:
// .json for JSON bodies, .sse for event streams) plus exchanges.meta.json (request sent, status
// and headers answered, for every file) and versions.json.
//
//   cd test/real-world/mastra && node record.mjs        (any Node >= 18; the peer runs on Node 22)
//
// The healthy peer is started, recorded, killed and started again with VARIANT=A on the SAME
// port (translate removed, card version unchanged: Mastra always serves "1.0").
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMastraPeer, node22 } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, '../../fixtures/mastra');
mkdirSync(out, { recursive: true });
const meta = {};
let rpcId = 0;

function message(text, skillId, v1 = false) {
  const metadata = skillId ? { skillId } : undefined;
  return v1
    ? {
        messageId: `msg-${++rpcId}`,
        role: 'ROLE_USER',
        parts: [{ text }],
        ...(metadata && { metadata }),
      }
    : {
        kind: 'message',
        messageId: `msg-${++rpcId}`,
        role: 'user',
        parts: [{ kind: 'text', text }],
        ...(metadata && { metadata }),
      };
}

async function exchange(file, url, { method = 'GET', body, headers = {}, note } = {}) {
  const reqHeaders =
    body === undefined ? { ...headers } : { 'content-type': 'application/json', ...headers };
  const reqBody =
    body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(url, { method, headers: reqHeaders, body: reqBody });
  const bytes = Buffer.from(await res.arrayBuffer());
  writeFileSync(path.join(out, file), bytes);
  const resHeaders = Object.fromEntries([...res.headers].filter(([k]) => k !== 'date'));
  const u = new URL(url);
  meta[file] = {
    ...(note && { note }),
    request: {
      method,
      path: u.pathname,
      headers: reqHeaders,
      ...(reqBody !== undefined && { body: reqBody }),
    },
    response: { status: res.status, headers: resHeaders },
  };
  console.log(`${file}: ${res.status} ${resHeaders['content-type']} ${bytes.length} bytes`);
  return { status: res.status, text: bytes.toString('utf8') };
}

const rpc = (m, params) => ({ jsonrpc: '2.0', id: ++rpcId, method: m, params });

let peer = await startMastraPeer({ variant: 'healthy' });
const port = peer.port;
const A = peer.rpcUrl('assistant');
try {
  await exchange('card.assistant.json', peer.cardUrl('assistant'), {
    note: 'healthy: tools summarize-v2, translate',
  });
  await exchange('card.helper.json', peer.cardUrl('helper'), {
    note: 'second agent on the same origin: tool lookup',
  });
  await exchange('card.assistant.a2a-version-1.0.json', peer.cardUrl('assistant'), {
    headers: { 'A2A-Version': '1.0' },
    note: 'the card does not change with A2A-Version: 1.0 (still protocolVersion 0.3.0, no supportedInterfaces)',
  });
  await exchange('card.root-well-known.404.txt', `${peer.origin}/.well-known/agent-card.json`, {
    note: 'no card at the origin root',
  });

  const sent = await exchange('healthy.message-send.response.json', A, {
    method: 'POST',
    body: rpc('message/send', {
      message: message('skill:translate hello world from Prague', 'translate'),
    }),
    note: 'healthy translate, blocking: COMPLETED task, one artifact response.txt',
  });
  const taskId = JSON.parse(sent.text).result.id;
  await exchange('healthy.tasks-get.response.json', A, {
    method: 'POST',
    body: rpc('tasks/get', { id: taskId }),
  });
  await exchange('healthy.message-stream.sse', A, {
    method: 'POST',
    headers: { accept: 'text/event-stream' },
    body: rpc('message/stream', {
      message: message('skill:translate hello world from Prague', 'translate'),
    }),
    note: 'healthy translate, streaming: Task(working) first, then word-sized artifact-update chunks (append after the first), final status-update',
  });
  await exchange('healthy.summarize.message-send.response.json', A, {
    method: 'POST',
    body: rpc('message/send', {
      message: message('skill:summarize-v2 one two three four five six', 'summarize-v2'),
    }),
  });
  await exchange('other-tool-error.message-send.response.json', A, {
    method: 'POST',
    body: rpc('message/send', {
      message: message('skill:weather what is the weather in Prague', 'summarize-v2'),
    }),
    note: 'skillId summarize-v2 (on the card), but the model was steered to a tool "weather" that never existed: the COMPLETED text names "weather", not the requested skill',
  });
  await exchange('other-tool-error.message-stream.sse', A, {
    method: 'POST',
    headers: { accept: 'text/event-stream' },
    body: rpc('message/stream', {
      message: message('skill:weather what is the weather in Prague', 'summarize-v2'),
    }),
  });
  await exchange('helper.message-send.response.json', peer.rpcUrl('helper'), {
    method: 'POST',
    body: rpc('message/send', { message: message('skill:lookup drift', 'lookup') }),
    note: 'second agent, skill lookup (not on the assistant card)',
  });
  await exchange('v1.healthy.message-send.response.json', A, {
    method: 'POST',
    headers: { 'A2A-Version': '1.0' },
    body: rpc('message/send', {
      message: message('skill:translate hello world', 'translate', true),
    }),
    note: "A2A-Version: 1.0 selects Mastra's v1 shapes (ROLE_*, TASK_STATE_*, result {task}, parts without kind) but the method names stay message/send, message/stream",
  });
  await exchange('v1.healthy.message-stream.sse', A, {
    method: 'POST',
    headers: { 'A2A-Version': '1.0', accept: 'text/event-stream' },
    body: rpc('message/stream', {
      message: message('skill:translate hello world', 'translate', true),
    }),
  });

  // Errors
  await exchange('model-error.message-send.response.json', A, {
    method: 'POST',
    body: rpc('message/send', { message: message('model:throw skill:translate x', 'translate') }),
    note: 'the model throws (a provider failure): what Mastra answers when the agent run throws',
  });
  await exchange('model-error.message-stream.sse', A, {
    method: 'POST',
    headers: { accept: 'text/event-stream' },
    body: rpc('message/stream', { message: message('model:throw skill:translate x', 'translate') }),
  });
  await exchange('error.tasks-get.task-not-found.response.json', A, {
    method: 'POST',
    body: rpc('tasks/get', { id: 'no-such-task' }),
    note: 'JSON-RPC -32001 over HTTP 200',
  });
  await exchange('error.tasks-list.method-not-found.response.json', A, {
    method: 'POST',
    body: rpc('tasks/list', {}),
    note: 'tasks/list exists only with A2A-Version: 1.0: -32601 over HTTP 200',
  });
  await exchange('error.version-not-supported.response.json', A, {
    method: 'POST',
    headers: { 'A2A-Version': '2.0' },
    body: rpc('message/send', { message: message('skill:translate x', 'translate') }),
    note: 'JSON-RPC -32009 over HTTP 200',
  });
  await exchange('error.send-message-1.0-name.400.json', A, {
    method: 'POST',
    headers: { 'A2A-Version': '1.0' },
    body: rpc('SendMessage', { message: message('skill:translate x', 'translate', true) }),
    note: "the A2A 1.0 JSON-RPC method name is rejected by the route's body schema: HTTP 400, not JSON-RPC",
  });
  await exchange('error.invalid-params.400.json', A, {
    method: 'POST',
    body: rpc('message/send', {}),
    note: 'invalid params never reach JSON-RPC: HTTP 400 {"error":"Invalid request body","issues":[...]}',
  });
  await exchange('error.unknown-agent.404.json', peer.rpcUrl('nobody'), {
    method: 'POST',
    body: rpc('message/send', { message: message('skill:translate x', 'translate') }),
  });
  await exchange('error.unknown-agent-card.404.json', peer.cardUrl('nobody'));
} finally {
  await peer.stop();
}

// Variant A: redeploy on the same port without translate.
peer = await startMastraPeer({ variant: 'A', port });
try {
  await exchange('variant-a.card.assistant.json', peer.cardUrl('assistant'), {
    note: 'variant A: translate removed, same version "1.0"',
  });
  const sent = await exchange('variant-a.message-send.response.json', A, {
    method: 'POST',
    body: rpc('message/send', {
      message: message('skill:translate hello world from Prague', 'translate'),
    }),
    note: 'variant A: COMPLETED task; the artifact text is the mock model echoing Mastra\'s tool error "Tool \\"translate\\" not found. Available tools: ..."; no JSON-RPC error',
  });
  await exchange('variant-a.tasks-get.response.json', A, {
    method: 'POST',
    body: rpc('tasks/get', { id: JSON.parse(sent.text).result.id }),
  });
  await exchange('variant-a.message-stream.sse', A, {
    method: 'POST',
    headers: { accept: 'text/event-stream' },
    body: rpc('message/stream', {
      message: message('skill:translate hello world from Prague', 'translate'),
    }),
    note: 'variant A streaming: the tool-error text arrives split over word-sized appended artifact chunks ("Tool ", "\\"translate\\" ", "not ", "found. ", ...); final status-update completed',
  });
  await exchange('v1.variant-a.message-send.response.json', A, {
    method: 'POST',
    headers: { 'A2A-Version': '1.0' },
    body: rpc('message/send', {
      message: message('skill:translate hello world', 'translate', true),
    }),
  });
  await exchange('v1.variant-a.message-stream.sse', A, {
    method: 'POST',
    headers: { 'A2A-Version': '1.0', accept: 'text/event-stream' },
    body: rpc('message/stream', {
      message: message('skill:translate hello world', 'translate', true),
    }),
  });
} finally {
  await peer.stop();
}

writeFileSync(path.join(out, 'exchanges.meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
const lock = JSON.parse(readFileSync(path.join(here, 'package-lock.json'), 'utf8'));
const v = (name) => lock.packages[`node_modules/${name}`]?.version;
const versions = {
  peerNode: peer.nodeVersion,
  recordedWithNode: process.version,
  port,
  packages: Object.fromEntries(
    [
      '@mastra/core',
      '@mastra/server',
      '@mastra/hono',
      'hono',
      '@hono/node-server',
      'ai',
      'zod',
    ].map((n) => [n, v(n)]),
  ),
  mastraCoreBundles: {
    '@a2a-js/sdk-v0_3': v('@a2a-js/sdk-v0_3'),
    '@a2a-js/sdk-v1': v('@a2a-js/sdk-v1'),
  },
};
writeFileSync(path.join(out, 'versions.json'), `${JSON.stringify(versions, null, 2)}\n`);
console.log(`node22: ${node22()}`);
console.log(JSON.stringify(versions));
