/**
 * Records the real Google ADK A2A wire (toA2a + A2AAgentExecutor) into test/fixtures/adk/.
 *
 *   cd /work/main/test/real-world/adk && npm ci && node record.mjs
 *
 * Starts peer.mjs (healthy, then redeployed as variant A and B on the SAME port: ADK's card
 * `version` is always "1.0.0"), talks to it with plain `fetch` (no instrumentation loaded), and
 * writes for every exchange:
 *   <name>.json | <name>.sse   the response body, byte for byte as received
 *   <name>.meta.json           request (method, path, headers, body) + response status/headers
 * plus README.md (versions, how recorded, the wire facts) and index.json (the list, with notes).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FOX,
  createRecorder,
  jsonRpcPost,
  lastSseJson,
  nodePackageVersions,
  versionBullets,
} from '../record-lib.mjs';
import { startAdkPeer } from './peer-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const rec = createRecorder({
  out: path.resolve(here, '../../fixtures/adk'),
  messageIdPrefix: 'rec-msg-',
});
/** `rpc`: a JSON-RPC 0.3 body, as the @a2a-js/sdk 0.3 client (and ADK's RemoteA2AAgent) sends it. */
const { exchange, rpc } = rec;
/** A text message naming the tool in the text (the model reads text) and the skill in metadata. */
const textParams = (text, skillId) => rec.m03(text, skillId);
/** The skill named in a data part, no metadata.skillId. */
function dataParams(skill, parameters) {
  return {
    message: {
      kind: 'message',
      role: 'user',
      messageId: rec.nextMessageId(),
      parts: [{ kind: 'data', data: { skill, parameters } }],
    },
  };
}
const call = (name, note, peer, agent, body, stream = false) =>
  exchange(name, note, peer.rpcUrl(agent), jsonRpcPost(body, stream));

const versions = nodePackageVersions(here, [
  '@google/adk',
  '@a2a-js/sdk',
  'express',
  '@google/genai',
]);

// ------------------------------------------------------------------ healthy
let peer = await startAdkPeer({ variant: 'healthy' });
const port = peer.port;
try {
  await exchange(
    'healthy-card-desk',
    'GET the desk agent card (healthy): skills desk (model), desk-summarize, desk-translate',
    peer.cardUrl('desk'),
  );
  await exchange(
    'healthy-card-studio',
    'GET the studio agent card (second toA2a app on the same origin): skills studio, studio-render',
    peer.cardUrl('studio'),
  );
  await exchange(
    'healthy-card-root-well-known',
    'GET /.well-known/agent-card.json: no root card when every agent has a basePath (express 404)',
    `${peer.origin}/.well-known/agent-card.json`,
  );
  const sent = await call(
    'healthy-send-summarize',
    'message/send, skill desk-summarize in message.metadata.skillId, tool named in the text: COMPLETED task, artifacts function_call / function_response data parts + the final text',
    peer,
    'desk',
    rpc('message/send', textParams(`summarize: ${FOX}`, 'desk-summarize')),
  );
  await call(
    'healthy-stream-summarize',
    'message/stream, skill desk-summarize: task, working, artifact-update function_call, function_response, two partial text chunks (append), the aggregated text (same artifactId, append absent), completed',
    peer,
    'desk',
    rpc('message/stream', textParams(`summarize: ${FOX}`, 'desk-summarize')),
    true,
  );
  await call(
    'healthy-send-translate',
    'message/send, skill desk-translate',
    peer,
    'desk',
    rpc('message/send', textParams('translate: Hello world', 'desk-translate')),
  );
  await call(
    'healthy-stream-translate',
    'message/stream, skill desk-translate',
    peer,
    'desk',
    rpc('message/stream', textParams('translate: Hello world', 'desk-translate')),
    true,
  );
  await call(
    'healthy-send-data-part-skill',
    'message/send, the skill named in a data part {skill, parameters} (no metadata.skillId); ADK hands the model the data part as JSON text',
    peer,
    'desk',
    rpc('message/send', dataParams('desk-summarize', { text: FOX })),
  );
  await call(
    'healthy-stream-data-part-skill',
    'message/stream, the skill named in a data part (no metadata.skillId)',
    peer,
    'desk',
    rpc('message/stream', dataParams('desk-summarize', { text: FOX })),
    true,
  );
  await call(
    'healthy-send-model-only',
    'message/send, skill desk (the "model" skill), no tool named: one text artifact, no data parts',
    peer,
    'desk',
    rpc('message/send', textParams('Hello there', 'desk')),
  );
  await call(
    'healthy-send-studio-render',
    'message/send to the second agent (/studio/jsonrpc), skill studio-render',
    peer,
    'studio',
    rpc('message/send', textParams('render: a red house', 'studio-render')),
  );
  await call(
    'healthy-stream-studio-render',
    'message/stream to the second agent, skill studio-render',
    peer,
    'studio',
    rpc('message/stream', textParams('render: a red house', 'studio-render')),
    true,
  );
  const taskId = JSON.parse(sent.text).result.id;
  await call(
    'healthy-tasks-get',
    'tasks/get of the healthy summarize task',
    peer,
    'desk',
    rpc('tasks/get', { id: taskId }),
  );
  await call(
    'error-task-not-found',
    'tasks/get of an unknown task',
    peer,
    'desk',
    rpc('tasks/get', { id: 'no-such-task' }),
  );
  await call(
    'error-method-not-found',
    'an unknown JSON-RPC method',
    peer,
    'desk',
    rpc('tasks/unknown', { id: taskId }),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant A: translate removed, same port
peer = await startAdkPeer({ variant: 'A', port });
try {
  await exchange(
    'variant-a-card-desk',
    'GET the desk card after the A redeploy: desk-translate gone, version still "1.0.0"',
    peer.cardUrl('desk'),
  );
  await call(
    'variant-a-send-translate',
    'variant A (translate tool removed, the model still calls it), message/send skill desk-translate: FAILED task, status text "Function translate is not found in the toolsDict."',
    peer,
    'desk',
    rpc('message/send', textParams('translate: Hello world', 'desk-translate')),
  );
  const st = await call(
    'variant-a-stream-translate',
    'variant A, message/stream skill desk-translate: function_call artifact, the model text of its second call, then a final failed status-update with the error text and adk_error_* metadata',
    peer,
    'desk',
    rpc('message/stream', textParams('translate: Hello world', 'desk-translate')),
    true,
  );
  await call(
    'variant-a-tasks-get-failed',
    'tasks/get of the failed stream task: state failed, status text = the ADK error',
    peer,
    'desk',
    rpc('tasks/get', { id: lastSseJson(st.text).result.taskId }),
  );
  await call(
    'variant-a-send-data-part-translate',
    'variant A, message/send, skill desk-translate named in a data part (no metadata.skillId): FAILED, same text',
    peer,
    'desk',
    rpc('message/send', dataParams('desk-translate', { text: 'Hello world' })),
  );
  await call(
    'variant-a-send-summarize',
    'variant A, message/send skill desk-summarize (still there): healthy',
    peer,
    'desk',
    rpc('message/send', textParams(`summarize: ${FOX}`, 'desk-summarize')),
  );
} finally {
  await peer.stop();
}

// ------------------------------------------------------------------ variant B: summarize returns a PNG, same port, same card
peer = await startAdkPeer({ variant: 'B', port });
try {
  await exchange(
    'variant-b-card-desk',
    'GET the desk card after the B redeploy: identical to the healthy card (same tools, names and descriptions)',
    peer.cardUrl('desk'),
  );
  await call(
    'variant-b-send-summarize',
    'variant B (summarize now yields a PNG), message/send skill desk-summarize: COMPLETED, last artifact a file part image/png (bytes) while the card says defaultOutputModes ["text"]',
    peer,
    'desk',
    rpc('message/send', textParams(`summarize: ${FOX}`, 'desk-summarize')),
  );
  await call(
    'variant-b-stream-summarize',
    'variant B, message/stream skill desk-summarize: function_call, function_response (the PNG inside its JSON), then an artifact-update with a file part image/png',
    peer,
    'desk',
    rpc('message/stream', textParams(`summarize: ${FOX}`, 'desk-summarize')),
    true,
  );
} finally {
  await peer.stop();
}

rec.writeIndex({ recordedWith: versions, node: process.version });
writeFileSync(path.join(rec.out, 'README.md'), readme());
console.log(`wrote ${rec.index.length} exchanges to ${rec.out}`);

function readme() {
  return `# Google ADK A2A server wire samples (toA2a + A2AAgentExecutor)

Recorded from the real packages (no hand-written bodies) by
\`test/real-world/adk/record.mjs\` on Node ${process.version}:

${versionBullets(versions)}

(\`@google/genai\` is ADK's dependency, not pinned by the package. This folder is the SERVER side of
ADK; \`test/fixtures/google-adk/\` is ADK's \`RemoteA2AAgent\` client.)

The peer is \`test/real-world/adk/peer.mjs\`: two \`LlmAgent\`s served by ADK's own \`toA2a()\`, both
mounted on one express app with \`basePath\` \`/desk\` and \`/studio\` (toA2a's \`app\` option).
\`desk\` has the FunctionTools \`summarize\` and \`translate\`, \`studio\` has \`render\`. The model is a
deterministic scripted \`BaseLlm\` (no network): on a user turn it calls the tool named in the user
text (\`summarize: …\`) or in a JSON text \`{"skill":"desk-summarize","parameters":{…}}\`, with
\`functionCall {name, args, id: "call-1"}\`; after the \`functionResponse\` it answers with the tool's
result, as two partial text chunks plus the aggregated final response (what ADK's Gemini model
yields in SSE mode, which \`toA2a\` always uses), or as an \`inlineData\` part when the result is
\`{mimeType, data}\`. It knows the tool names it was built for even when the agent no longer has the
tool. Redeploys restart the peer on the same port:

- variant A: \`translate\` removed from \`desk\` (the card loses \`desk-translate\`; \`version\` stays
  \`"1.0.0"\`: ADK hard-codes it). The model still calls \`translate\`.
- variant B: \`summarize\` kept with the same name and description (the card is byte for byte
  IDENTICAL to the healthy one: same skills, \`defaultOutputModes: ["text"]\`), but
  the tool now returns \`{mimeType: "image/png", data: <1x1 PNG base64>}\`, which the model answers as
  \`inlineData\`.

The client side is plain \`fetch\` with JSON-RPC 0.3 bodies. Files: \`<name>.json\` / \`<name>.sse\`
are response bodies byte for byte; \`<name>.meta.json\` holds the request and the response status and
headers; \`index.json\` lists them with a note each. Ids (task, context, artifact, message,
invocation), timestamps and the port are random per run.

## Card (\`GET {base}/.well-known/agent-card.json\`)

\`getA2AAgentCard()\` (a2a/agent_card.js), keys in this order: \`name\` (agent name), \`description\`,
\`protocolVersion: "0.3.0"\`, \`version: "1.0.0"\` (constant), \`skills\`, \`url: "{base}/jsonrpc"\`,
\`preferredTransport: "JSONRPC"\`, \`capabilities {extensions: [], stateTransitionHistory: false,
pushNotifications: false, streaming: true}\`, \`defaultInputModes: ["text"]\`,
\`defaultOutputModes: ["text"]\` (bare word, constant), \`additionalInterfaces: [{url: "{base}/jsonrpc",
transport: "JSONRPC"}, {url: "{base}/rest", transport: "HTTP+JSON"}]\`. \`{base}\` =
\`http://{host}:{port}{basePath}\` from toA2a's options (the card URL is NOT derived from the request).
\`skills\` of an LlmAgent: \`{id: "<agent>", name: "model", description: <description + instruction
with pronouns swapped>, tags: ["llm"]}\`, then per tool \`{id: "<agent>-<tool>", name: "<tool>",
description, tags: ["llm", "tools"]}\`; sub-agents add \`<sub>_<id>\` skills. No per-skill
\`inputModes\`/\`outputModes\`, no \`examples\`. There is no root \`/.well-known/agent-card.json\` when
every agent has a \`basePath\` (express's HTML 404).

## Operations (\`POST {base}/jsonrpc\`, the \`@a2a-js/sdk\` 0.3 DefaultRequestHandler)

- \`message/send\` returns the Task (\`kind: "task"\`): \`history\` (the user message, plus the agent's
  failure message when failed), \`status {state, timestamp[, message]}\`, and \`artifacts\`: ONE ARTIFACT
  PER ADK EVENT with content, in order. A tool-using turn gives three artifacts:
  1. \`{kind: "data", data: {name, args, id}, metadata: {adk_type: "function_call"}}\`
  2. \`{kind: "data", data: {id, name, response: {...}}, metadata: {adk_type: "function_response"}}\`
  3. \`{kind: "text", text}\` (the model's answer; a \`file\` part in variant B).
  Artifacts carry no \`name\` and no artifact-level metadata; the ADK metadata (\`adk_app_name\`,
  \`adk_user_id\`, \`adk_session_id\`, \`adk_invocation_id\`, \`adk_author\`, \`adk_partial\`,
  \`adk_is_long_running\`, \`adk_error_code\`, \`adk_error_message\`, …) is on the stream EVENTS only.
  The user message's \`metadata\` (\`skillId\`) is echoed in \`history\`; ADK itself never reads it.
- Intermediate parts: ADK's \`toA2APart\` (a2a/part_converter_utils.js) maps every genai part:
  \`text\` → \`{kind: "text"}\` (a thought gets \`metadata: {adk_thought: true}\`); \`inlineData\` /
  \`fileData\` → \`{kind: "file", file: {bytes | uri, mimeType}, metadata: {}}\`; \`functionCall\` /
  \`functionResponse\` / \`executableCode\` / \`codeExecutionResult\` → \`{kind: "data", data: <the genai
  object>, metadata: {adk_type: "function_call" | "function_response" | "executable_code" |
  "code_execution_result"}}\` (+ \`adk_is_long_running: true\` for a long-running tool's call). So an
  artifact's \`data\` part is ADK plumbing, not the skill's output, whatever the card's modes.
- Inbound: a text part reaches the model as text; a \`file\` part as inlineData/fileData; a \`data\`
  part with \`metadata.adk_type\` as the matching genai part; a \`data\` part WITHOUT it as a text part
  holding \`JSON.stringify(data)\` (how the \`{skill, parameters}\` data part reaches the model).
- \`message/stream\` (SSE): \`Content-Type: text/event-stream\`, \`Cache-Control: no-cache\`,
  \`Connection: keep-alive\`, \`X-Accel-Buffering: no\`; every event is \`data: {json}\\n\\n\` (no
  \`event:\` line, no \`id:\`, no \`\\x1e\`); an error after the headers would be
  \`event: error\\ndata: {json}\\n\\n\`. Sequence: the Task (\`submitted\`, history = the user message),
  \`status-update working\` (\`final: false\`), one \`artifact-update\` per ADK event (\`lastChunk: true\`,
  a fresh artifactId each; the model's partial text chunks share one artifactId with \`append: true,
  lastChunk: false, metadata.adk_partial: true\`, then the aggregated text replaces them under that
  same artifactId with \`lastChunk: true\` and no \`append\`), then \`status-update\` \`completed\` |
  \`failed\` with \`final: true\`.
- Missing tool (variant A): the model's \`functionCall translate\` is published as a function_call
  artifact; ADK's \`getToolAndContext\` throws \`Function translate is not found in the toolsDict.\`,
  the LlmAgent turns it into an error event (\`errorCode: "UNKNOWN_ERROR"\`, no content) and calls the
  model AGAIN (contents ending with its own unanswered call; the scripted model then apologises in a
  text artifact); at the end the executor sees the error event and publishes
  \`status-update {state: "failed", message: {kind: "message", role: "agent", parts: [{kind: "text",
  text: "Function translate is not found in the toolsDict."}]}}\` with event metadata
  \`adk_error_code: "UNKNOWN_ERROR"\`, \`adk_error_message\` = the same text. The text names the TOOL
  (\`translate\`), never the skill id (\`desk-translate\`). No JSON-RPC error: HTTP 200, a FAILED task.
  (An exception escaping the runner instead gives the text \`Agent run failed: <message>\`.)
- Errors: JSON-RPC errors over HTTP 200, \`{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}\`:
  \`-32603\` "Task not found: <id>" (this SDK version's handler, not -32001), \`-32601\` "Method not
  found: <method>".
`;
}
