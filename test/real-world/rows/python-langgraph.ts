/**
 * The conformance table's row of python-langgraph: `langgraph` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import {
  VENV_PYTHON as LANGGRAPH_PYTHON,
  assistantUrls,
  startLangGraphPeer,
  venvInstalled as langgraphInstalled,
} from '../python/langgraph/peer-process.mjs';
import { cardProbe, httpProbe, messageProbe } from '../conformance/probes';
import { endpoint, type Peer } from '../conformance/types';
import { langgraphQuirks } from './python-langgraph.quirks';
import type { Row } from '../conformance/types';
import {
  venvMissing,
  PROMPTS,
  sdk,
  STREAMING_NO_PUSH,
  fact,
  raw,
  sendCompletes,
  COMPLETES_WITH_SUMMARY,
} from '../conformance/row-kit';
import {
  getExchange,
  rpcExchange,
  cardExchange,
  unknownTaskExchange,
  deployment,
} from '../conformance/row-recording';
import { unknownTaskProbe } from '../conformance/row-probes';

/**
 * A LangGraph server seen through one of its assistants (one per graph): its card and endpoint
 * are the row's cardUrl / rpcUrl; the assistants' ids (uuid5 of the graph id, stable across
 * restarts) are kept from the deployment it replaces, so a removed graph's URLs stay known.
 */
async function startLangGraph(
  d: { variant: string; opts?: Record<string, unknown> },
  same?: Peer,
): Promise<Peer> {
  const p = await startLangGraphPeer({
    variant: d.variant as 'healthy' | 'A' | 'B',
    port: same?.port,
  });
  const ids: Record<string, string> = {
    ...((same as unknown as { assistantIds?: Record<string, string> })?.assistantIds ?? {}),
    ...Object.fromEntries(Object.entries(p.assistants).map(([g, a]) => [g, a.assistantId])),
  };
  const view = assistantUrls(p.origin, ids[(d.opts?.assistant as string) ?? 'desk']);
  return {
    ...p,
    assistantIds: ids,
    cardUrl: view.cardUrl,
    rpcUrl: view.rpcUrl,
    deskRpcUrl: assistantUrls(p.origin, ids.desk).rpcUrl,
    studioCardUrl: assistantUrls(p.origin, ids.studio).cardUrl,
    studioRpcUrl: assistantUrls(p.origin, ids.studio).rpcUrl,
    baseUrl: view.cardUrl,
    cardPath: '',
  } as Peer;
}
/** an assistant's skill id on a LangGraph peer (desk's unless named) */
function deskSkill(p: Peer, graph = 'desk'): string {
  return `${(p as unknown as { assistantIds: Record<string, string> }).assistantIds[graph]}-main`;
}
/** A recorded JSON-RPC call of `method` to a graph's assistant (0.3 method names: 0.3 headers). */
function assistantCall(
  name: string,
  note: string,
  graph: 'desk' | 'studio',
  method: string,
  text: string,
  stream = false,
) {
  const v10 = !method.includes('/');
  return rpcExchange(
    name,
    note,
    `${graph}RpcUrl`,
    method,
    (r, _first, p) => (v10 ? r.m10(text, deskSkill(p, graph)) : r.m03(text, deskSkill(p, graph))),
    { v10, stream },
  );
}
export const langgraph: Row = {
  id: 'python-langgraph',
  name: 'LangGraph server’s A2A endpoint (`langgraph-api` 0.16.7 + `langgraph-runtime-inmem` 0.36.7, what `langgraph dev` runs; Elastic-2.0; two graphs without a model)',
  agentCode: 'test/real-world/python/langgraph/',
  unavailable: venvMissing('langgraph', langgraphInstalled),
  start: startLangGraph,
  agentPython: LANGGRAPH_PYTHON,
  facts: {
    bindings: {
      value:
        '1.0 JSON-RPC at `/a2a/{assistant_id}` (0.3 slash names answered in 0.3 shapes, 1.0 names in a hybrid), `event: message` SSE',
      source: 'langgraph_api/a2a.py; test/fixtures/langgraph-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC 1.0, from the card URL) and raw fetch; the skill id `<assistant_id>-main` in the request metadata or `message.metadata`',
      source: 'the card’s one skill per assistant (test/fixtures/langgraph-live/)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json?assistant_id=…` per assistant (400 -32602 without it), 1.0 card, `version` = langgraph-api’s, one skill `<id>-main` with modes `["application/json","text/plain"]`',
      source: 'langgraph_api/a2a.py (the card handler)',
    },
    judged: {
      value:
        "healthy send / stream on two assistants, each judged against its own card: no drift; -32001 and the 400 card fetch: error spans. A removed graph takes its assistant and card with it: -32602 `Assistant '<id>' not found` → `invalid_params` (the held card lists the skill the peer rejects); its card URL answers 400 (no card, no `card_changed`). An image content block → file part `image/png` → `output_mode_mismatch`; the drift callback gets the card URL with its query",
      source: 'test/real-world/python/langgraph/graphs.py',
    },
    fixtures: 'test/fixtures/langgraph-live/',
  },
  card: {
    protocol: '1.0',
    skills: [['desk', ['application/json', 'text/plain']]],
    fields: (p) => ({
      version: '0.16.7',
      url: endpoint(p, 'rpcUrl'),
      supportedInterfaces: [
        { url: endpoint(p, 'rpcUrl'), protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    }),
  },
  skills: { send: 'desk', stream: 'desk', prompts: { desk: PROMPTS.summarize, studio: 'hello' } },
  skillId: (peer, graph) =>
    `${(peer as unknown as { assistantIds: Record<string, string> }).assistantIds[graph]}-main`,
  capabilities: {
    ...STREAMING_NO_PUSH,
    grpc: fact(false, 'JSON-RPC only'),
    variantB: fact(
      'file',
      'graphs.py: variant B answers with an image content block, sent as a file part',
    ),
  },
  healthy: [
    {
      label: 'SDK JSON-RPC 1.0 from the card URL',
      client: sdk('JSONRPC', 'url'),
      protocol: '1.0',
      ops: { send: { state: 'completed' }, stream: { minEvents: 2 } },
    },
    {
      // 0.x slash names at an endpoint whose card says 1.0 only: 0.2 or 0.3, not told
      label: 'raw 0.3 message/send / message/stream',
      client: raw('0.3', 'rpcUrl'),
      protocol: 'none',
      ops: COMPLETES_WITH_SUMMARY,
    },
  ],
  errors: [
    unknownTaskProbe('rpcUrl'),
    httpProbe('a card fetch without assistant_id', '/.well-known/agent-card.json', {
      status: 400,
      body: /^\{"error":\{"code":-32602,"message":"Missing required query parameter: assistant_id"\}\}$/,
      span: { name: 'GetAgentCard', error: true },
    }),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe('0.3 send', 'rpcUrl', 'message/send', PROMPTS.summarize, deskSkill),
      messageProbe('0.3 stream', 'rpcUrl', 'message/stream', PROMPTS.summarize, deskSkill, {
        contentType: 'text/event-stream',
        body: /^event: message\r\ndata: /,
      }),
      unknownTaskProbe('rpcUrl', { bytes: true }),
      httpProbe('a card fetch without assistant_id', '/.well-known/agent-card.json', {
        status: 400,
      }),
    ],
  },
  variantA: {
    gone: 'studio',
    left: ['desk'],
    cardChanged: {
      na: 'the redeploy removed the graph with its assistant and card: the card URL answers 400 (no card, no card_changed)',
    },
    paths: [
      {
        label: 'raw 0.3 message/send to the removed assistant: -32602 "Assistant … not found"',
        deploy: { assistant: 'studio' },
        client: raw('0.3', 'rpcUrl'),
        ops: { send: { error: /^-32602 Assistant '[0-9a-f-]+' not found$/ } },
        says: {
          value: 'words',
          source:
            'langgraph_api/a2a.py: -32602 "Assistant \'<id>\' not found" (it names the assistant, not the skill)',
        },
        verdict: 'invalid_params',
        evidence: 'protocol',
        rpcCode: -32602,
      },
      {
        label: 'SDK JSON-RPC holding the healthy card of the removed assistant',
        deploy: { assistant: 'studio' },
        client: sdk('JSONRPC', 'card'),
        protocol: '1.0',
        // the SDK's RequestMalformedError
        ops: { send: { error: /^Assistant '[0-9a-f-]+' not found$/ } },
        says: { value: 'words', source: 'as above' },
        verdict: 'invalid_params',
        errorSpan: true,
      },
    ],
    still: sendCompletes('raw 0.3 message/send to desk, still deployed', raw('0.3', 'deskRpcUrl')),
  },
  secondAgent: {
    cardUrl: 'studioCardUrl',
    rpcUrl: 'studioRpcUrl',
    skill: 'studio',
    prompt: 'hello',
  },
  variantB: {
    skill: 'desk',
    paths: [
      {
        label: 'raw 0.3 message/send: a file part image/png where the card says JSON / text',
        client: raw('0.3', 'rpcUrl'),
        ops: { send: { state: 'completed', part: { kind: 'file', mediaType: 'image/png' } } },
        mediaType: 'image/png',
        evidence: 'protocol',
        expectedModes: ['application/json', 'text/plain'],
      },
      {
        label: 'SDK JSON-RPC 1.0 stream holding the card',
        client: sdk('JSONRPC', 'card'),
        protocol: '1.0',
        ops: { stream: { minEvents: 3 } },
        mediaType: 'image/png',
      },
    ],
  },
  recording: {
    fixture: 'langgraph-live',
    versionsOf: [
      'langgraph-api',
      'langgraph-runtime-inmem',
      'langgraph',
      'langchain-core',
      'starlette',
      'uvicorn',
    ],
    // healthy, then variant A (graph studio removed), then B (desk answers with an image), on the
    // same port; the assistants' ids (uuid5 of the graph ids) carried from the healthy deployment
    // by startLangGraph, so studio's URLs stay known once it is gone
    steps: [
      deployment('healthy', [
        cardExchange(
          'card',
          "GET /.well-known/agent-card.json?assistant_id=<desk>: a 1.0 card (+ url), version = langgraph-api's, one skill <id>-main, modes application/json + text/plain",
        ),
        getExchange('studio.card', "the same for the graph studio's assistant", (p) =>
          endpoint(p, 'studioCardUrl'),
        ),
        getExchange(
          'card.no-assistant-id',
          'GET /.well-known/agent-card.json without assistant_id: 400 {"error": {"code": -32602, ...}} (no jsonrpc, no id)',
          (p) => `${p.origin}/.well-known/agent-card.json`,
        ),
        assistantCall(
          'jsonrpc-v0.3.message-send.desk',
          '0.3 message/send: a COMPLETED 0.3 task (kind, "completed"), the answer in history and in the artifact "Assistant Response"',
          'desk',
          'message/send',
          PROMPTS.summarize,
        ),
        assistantCall(
          'jsonrpc.send-message.desk',
          '1.0 SendMessage: a hybrid, {"task": {"kind": "task", ..., "role": "ROLE_AGENT", parts with kind, "state": "TASK_STATE_COMPLETED"}}',
          'desk',
          'SendMessage',
          PROMPTS.summarize,
        ),
        assistantCall(
          'jsonrpc.send-streaming-message.desk',
          '1.0 SendStreamingMessage: `event: message` CRLF SSE; task (submitted), status-update working with the answer as its message, artifact-update, status-update completed (final)',
          'desk',
          'SendStreamingMessage',
          PROMPTS.summarize,
          true,
        ),
        assistantCall(
          'jsonrpc-v0.3.message-stream.studio',
          '0.3 message/stream to studio',
          'studio',
          'message/stream',
          'hello',
          true,
        ),
        unknownTaskExchange(
          'jsonrpc-v0.3.tasks-get.not-found',
          '0.3 tasks/get of an unknown id: -32001 "Task not found: <id>"',
          'deskRpcUrl',
        ),
      ]),
      deployment('A', [
        getExchange(
          'variant-a.studio.card',
          "studio's card URL after the A redeploy (graph removed): 400 -32602 \"Assistant '<id>' not found\"",
          (p) => endpoint(p, 'studioCardUrl'),
        ),
        assistantCall(
          'variant-a.jsonrpc-v0.3.message-send.studio',
          "variant A, 0.3 message/send to studio's endpoint: -32602 \"Assistant '<id>' not found\" (HTTP 200)",
          'studio',
          'message/send',
          'hello',
        ),
        assistantCall(
          'variant-a.jsonrpc.send-streaming-message.studio',
          'variant A, 1.0 SendStreamingMessage to studio: the same error as one SSE event',
          'studio',
          'SendStreamingMessage',
          'hello',
          true,
        ),
      ]),
      deployment('B', [
        getExchange('variant-b.card', "desk's card after the B redeploy: unchanged", (p) =>
          endpoint(p, 'cardUrl'),
        ),
        assistantCall(
          'variant-b.jsonrpc-v0.3.message-send.desk',
          'variant B, 0.3 message/send: the artifact is a file part {bytes, mimeType image/png} (an image content block) where the card says application/json, text/plain',
          'desk',
          'message/send',
          PROMPTS.summarize,
        ),
        assistantCall(
          'variant-b.jsonrpc.send-streaming-message.desk',
          'variant B, 1.0 SendStreamingMessage',
          'desk',
          'SendStreamingMessage',
          PROMPTS.summarize,
          true,
        ),
      ]),
    ],
  },
  quirks: langgraphQuirks,
};
