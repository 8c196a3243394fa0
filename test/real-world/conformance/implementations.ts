/**
 * The table of live implementations the real-world suite runs: one row per agent, saying how to
 * start it and redeploy it in place, what it serves, where its client puts the skill id and what
 * it can express — each fact with the source that says so. The checks (checks.ts) run against
 * every row that declares what they need; conformance.test.ts runs them; docs/real-world.md is
 * generated from this table (`npm run docs:real-world`).
 *
 * Adding an implementation: its agent code in its own folder (a peer that prints {"port":N} and
 * reads VARIANT / PORT from its environment, e.g. python/<impl>/peer.py + peer-process.mjs), and
 * one row here.
 */
import { existsSync } from 'node:fs';
import { post, sse, V03, V10 as V10REC, type Recorder } from '../record-lib.mjs';
import { join } from 'node:path';
import { FOX, type Json } from '../lib';
import {
  VENV_PYTHON as SDK_PYTHON,
  startPythonSdkPeer,
  venvInstalled as sdkInstalled,
} from '../python/a2a-sdk/peer-process.mjs';
import {
  VENV_PYTHON as ADK_PYTHON,
  startPythonAdkPeer,
  venvInstalled as adkInstalled,
} from '../python/google-adk/peer-process.mjs';
import { buildGoPeer, startGoPeer } from '../go/a2a-go/peer-process.mjs';
import {
  VENV_PYTHON as LANGGRAPH_PYTHON,
  assistantUrls,
  startLangGraphPeer,
  venvInstalled as langgraphInstalled,
} from '../python/langgraph/peer-process.mjs';
import {
  VENV_PYTHON as MAF_PYTHON,
  startAgentFrameworkPeer,
  venvInstalled as mafInstalled,
} from '../python/agent-framework/peer-process.mjs';
import {
  VENV_PYTHON as FASTA2A_PYTHON,
  startFastA2APeer,
  venvInstalled as fasta2aInstalled,
} from '../python/fasta2a/peer-process.mjs';
import {
  VENV_PYTHON as PYTHON_A2A_PYTHON,
  startPythonA2aPeer,
  venvInstalled as pythonA2aInstalled,
} from '../python/python-a2a/peer-process.mjs';
import {
  VENV_PYTHON as STRANDS_PYTHON,
  startStrandsPeer,
  venvInstalled as strandsInstalled,
} from '../python/strands/peer-process.mjs';
import {
  VENV_PYTHON as CREWAI_PYTHON,
  startCrewAIPeer,
  venvInstalled as crewaiInstalled,
} from '../python/crewai/peer-process.mjs';
import {
  VENV_PYTHON as AGNO_PYTHON,
  startAgnoPeer,
  venvInstalled as agnoInstalled,
} from '../python/agno/peer-process.mjs';
import { cardProbe, httpProbe, m03, m10, rpcProbe, V10 } from './probes';
import { endpoint, type Peer, type RecordedExchange } from './types';
import { a2aSdkQuirks } from '../rows/python-a2a-sdk.quirks';
import { googleAdkQuirks } from '../rows/python-google-adk.quirks';
import { agentFrameworkQuirks } from '../rows/python-agent-framework.quirks';
import { langgraphQuirks } from '../rows/python-langgraph.quirks';
import { goGrpcQuirks, goQuirks } from '../rows/go-a2a-go.quirks';
import { adkJsQuirks } from '../rows/node-adk.quirks';
import { voltagentQuirks } from '../rows/node-voltagent.quirks';
import { mastraQuirks } from '../rows/node-mastra.quirks';
import { node22, startMastraPeer } from '../mastra/peer-process.mjs';
import { startVoltAgentPeer } from '../voltagent/peer-process.mjs';
import { startAdkPeer } from '../adk/peer-process.mjs';
import { pythonA2aQuirks } from '../rows/python-python-a2a.quirks';
import { crewaiQuirks } from '../rows/python-crewai.quirks';
import { agnoQuirks } from '../rows/python-agno.quirks';
import type { DocOnlyRow, Row } from './types';

/** The reason a Node row cannot run while its package under test/real-world/<dir> is not installed. */
function packageMissing(dir: string, pkg: string): () => string | undefined {
  return () =>
    existsSync(join(__dirname, '..', dir, 'node_modules', pkg, 'package.json'))
      ? undefined
      : `test/real-world/${dir}/node_modules missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh`;
}

/** The reason a Python row cannot run while its venv is missing. */
function venvMissing(impl: string, installed: () => boolean): () => string | undefined {
  return () =>
    installed()
      ? undefined
      : `test/real-world/python/${impl}/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh`;
}

const PROMPTS = { summarize: `summarize: ${FOX}`, translate: 'translate: hello' };
const SUMMARY = 'Summary: The quick brown fox jumps over.';
const sdk03 = (from: 'url' | 'card') =>
  ({ kind: 'sdk', transport: 'JSONRPC', legacy: true, from }) as const;
const sdk = (transport: 'JSONRPC' | 'HTTP+JSON', from: 'url' | 'card', legacy = false) =>
  ({ kind: 'sdk', transport, from, legacy, stripInterfaces: legacy }) as const;
const TRANSPORTS = ['JSONRPC', 'HTTP+JSON'] as const;

/** A recorded exchange: GET a URL of the peer. */
function getExchange(name: string, note: string, url: (p: Peer) => string): RecordedExchange {
  return { name, note, request: (p) => ({ url: url(p) }) };
}
/** A recorded JSON-RPC exchange: POST `method` to the peer's `endpointName` (1.0 headers, SSE). */
function rpcExchange(
  name: string,
  note: string,
  endpointName: string,
  method: string,
  params: (r: Recorder) => Json,
  o: { v10?: boolean; stream?: boolean } = {},
): RecordedExchange {
  const headers = o.v10 ? V10REC : V03;
  return {
    name,
    note,
    request: (p, r) => ({
      url: endpoint(p, endpointName),
      init: post(o.stream ? sse(headers) : headers, r.rpc(method, params(r))),
    }),
  };
}

/** The two skills most agents here serve, both `text/plain`. */
const TEXT_SKILLS: Array<[string, string[]]> = [
  ['summarize', ['text/plain']],
  ['translate', ['text/plain']],
];
/** tasks/get of a task the agent never had: -32001 at HTTP 200, an error span (or, `bytes`, its tagged id for the bytes compared). */
function unknownTaskProbe(endpointName: string, bytes = false) {
  return rpcProbe(
    bytes ? 'tasks/get unknown' : 'tasks/get of an unknown task',
    endpointName,
    'tasks/get',
    (tag) => ({ id: bytes ? `${tag}-none` : 'no-such-task' }),
    { status: 200, body: /-32001/, ...(bytes ? {} : { span: { name: 'GetTask', error: true } }) },
  );
}
/** The a2a-sdk 1.3 routes: a REST GET of an unknown task (404, an error span). */
const REST_UNKNOWN_TASK = httpProbe(
  'REST GET of an unknown task',
  '/tasks/no-such-task',
  { status: 404, span: { name: 'GetTask', error: true } },
  { base: 'restUrl', headers: V10 },
);
/** The a2a-sdk 1.3 routes: an HTTP+JSON 1.0 stream, its first event the Task. */
const REST_STREAM = httpProbe(
  'HTTP+JSON stream',
  '/message:stream',
  { status: 200, contentType: 'text/event-stream; charset=utf-8', body: /^data: \{"task"/ },
  {
    base: 'restUrl',
    headers: { ...V10, accept: 'text/event-stream' },
    body: (tag) => m10(PROMPTS.translate, 'translate', tag),
  },
);

/** Strands' one text of a task whose agent raised (executor.py `StrandsA2AExecutor.execute`) */
const STRANDS_FAILED = 'Agent execution failed';
/** its failed status: that one agent text part; the history only the client's message */
const STRANDS_FAILED_WIRE =
  /"history":\[\{[^[]*"parts":\[\{"kind":"text","text":"translate: hello"\}\],"role":"user"[^\]]*\],.*"status":\{"message":\{[^[]*"parts":\[\{"kind":"text","text":"Agent execution failed"\}\],"role":"agent"/;
const strands: Row = {
  id: 'python-strands',
  name: 'Strands Agents (`strands-agents[a2a]` 1.62.0 `A2AServer`, on `a2a-sdk` 0.3.26; a `Model` subclass)',
  agentCode: 'test/real-world/python/strands/',
  unavailable: venvMissing('strands', strandsInstalled),
  start: (d, same) =>
    startStrandsPeer({
      // opts.a 'fail': variant A whose model raises (peer.py VARIANT=A-fail)
      variant:
        d.variant === 'A' && d.opts?.a === 'fail' ? 'A-fail' : (d.variant as 'healthy' | 'A'),
      port: same?.port,
      streaming: d.opts?.streaming as 'legacy' | 'compliant' | undefined,
    }),
  agentPython: STRANDS_PYTHON,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/` only (no HTTP+JSON); legacy (default) and A2A-compliant streaming',
      source:
        'strands/multiagent/a2a/server.py: A2AServer builds the a2a-sdk 0.3 JSON-RPC app only; `enable_a2a_compliant_streaming`',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in its 0.3 mode and raw fetch; the skill id in `message.metadata.skillId` (raw) and the request metadata (SDK)',
      source: 'the card is 0.3-only (protocolVersion 0.3.0, no supportedInterfaces)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json` (and `agent.json`), 0.3 card, skills = the tools (id = tool name, no modes), defaults `["text"]`',
      source:
        'strands/multiagent/a2a/server.py:187-188 `default_output_modes=["text"]`; test/fixtures/strands-live/card.json',
    },
    judged: {
      value:
        'removed tool: COMPLETED with Strands\' "Unknown tool: x" repeated by the model → content evidence, confirmed by the card re-fetched without the skill → `unknown_skill`; the model raising instead (A-fail): FAILED with the fixed "Agent execution failed", naming nothing → the card fetched again decides, `unknown_skill` (evidence `card`, suspicion `failure`); `card_changed`; -32001 and a 404 on the REST path it does not serve: error spans, no verdict. Variant B not expressible (text parts only, modes fixed to `["text"]`)',
      source: 'strands/tools/executors/_executor.py:654 `f"Unknown tool: {tool_name}"`',
    },
    fixtures: 'test/fixtures/strands-live/',
  },
  card: {
    protocol: '0.3',
    skills: [
      ['summarize', undefined],
      ['translate', undefined],
    ],
    fields: (p) => ({
      protocolVersion: '0.3.0',
      supportedInterfaces: undefined,
      url: `${p.origin}/`,
      defaultOutputModes: ['text'],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: {
      value: true,
      source: 'strands/multiagent/a2a/server.py:126 `AgentCapabilities(streaming=True)`',
    },
    push: {
      value: false,
      source: 'A2AServer: no push_config_store / push_sender given (server.py:48-49)',
    },
    grpc: { value: false, source: 'A2AServer serves JSON-RPC only' },
    variantB: {
      value: 'none',
      source:
        'StrandsA2AExecutor emits only text parts (the AgentResult str()-ed) and A2AServer fixes the card’s modes to ["text"] (server.py:187-188)',
    },
  },
  healthy: [
    {
      label: 'SDK 0.3 mode from the card URL, legacy streaming',
      client: sdk03('url'),
      protocol: '0.3',
      ops: {
        // legacy: the AgentResult str()-ed (a newline per text block)
        send: { state: 'completed', part: { kind: 'text', text: `${SUMMARY}\n` } },
        stream: { state: 'completed', events: ['task', 'status', 'artifact', 'status'] },
      },
    },
    {
      label: 'SDK 0.3 mode from the card URL, A2A-compliant streaming',
      deploy: { streaming: 'compliant' },
      client: sdk03('url'),
      protocol: '0.3',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed', events: ['task', 'artifact', 'artifact', 'status'] },
      },
    },
    {
      label: 'raw 0.3 message/send and message/stream',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
      protocol: '0.3',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: `${SUMMARY}\n` } },
        stream: { state: 'completed', wire: /"kind":"artifact-update"/ },
      },
    },
  ],
  errors: [
    unknownTaskProbe('rpcUrl'),
    httpProbe(
      'a REST path it does not serve',
      '/v1/message:send',
      { status: 404, span: { name: 'SendMessage', error: true } },
      { headers: V10, body: (tag) => m10('hi', 'summarize', tag) },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe(
        'send',
        'rpcUrl',
        'message/send',
        (tag) => m03(PROMPTS.summarize, 'summarize', tag),
        {
          status: 200,
        },
      ),
      rpcProbe(
        'stream',
        'rpcUrl',
        'message/stream',
        (tag) => m03(PROMPTS.translate, 'translate', tag),
        { status: 200, contentType: 'text/event-stream; charset=utf-8', body: /^data: / },
        { stream: true },
      ),
      unknownTaskProbe('rpcUrl', true),
      httpProbe('a REST path it does not serve', '/v1/tasks/x', { status: 404 }),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'raw 0.3 message/send',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
        ops: {
          send: { state: 'completed', part: { kind: 'text', text: 'Unknown tool: translate\n' } },
        },
        says: {
          value: 'words',
          source:
            'strands/tools/executors/_executor.py:654: the tool result "Unknown tool: translate", repeated by the model; the task COMPLETES',
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      {
        label: 'SDK 0.3 mode stream, holding the healthy card',
        client: sdk03('card'),
        ops: { stream: { minEvents: 3 } },
        says: { value: 'words', source: 'as above, in the stream’s artifact' },
        verdict: 'unknown_skill',
        evidence: 'content',
        confirmed: true,
      },
      {
        label:
          'A-fail (the model raises): raw 0.3 message/send, FAILED with Strands’ fixed text, no artifact, the history only the client’s message; the card fetched again decides',
        deploy: { a: 'fail' },
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
        ops: {
          send: {
            state: 'failed',
            statusText: STRANDS_FAILED,
            artifacts: 0,
            answer: '',
            wire: STRANDS_FAILED_WIRE,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': 'changed' },
          },
        },
        says: {
          value: 'failure',
          source:
            'strands/multiagent/a2a/executor.py `StrandsA2AExecutor.execute`: `except Exception:` → `updater.failed(... TextPart(text="Agent execution failed"))`, no skill or tool named (peer.py VARIANT=A-fail: the model raises)',
        },
        verdict: 'unknown_skill',
        evidence: 'card',
        suspicion: 'failure',
        confirmed: true,
        errorSpan: true,
      },
      {
        label:
          'A-fail: SDK 0.3 mode stream holding the healthy card, task then a final status-update FAILED with the same text; judged at once against the newer card the failing send fetched',
        deploy: { a: 'fail' },
        client: sdk03('card'),
        ops: {
          stream: {
            state: 'failed',
            events: ['task', 'status'],
            statusText: STRANDS_FAILED,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': undefined },
          },
        },
        says: { value: 'failure', source: 'as above, in the final status-update' },
        verdict: 'unknown_skill',
        evidence: 'card',
        confirmed: true,
        errorSpan: true,
      },
    ],
    still: {
      label: 'SDK 0.3 mode send summarize',
      client: sdk03('card'),
      ops: { send: { state: 'completed' } },
    },
  },
  recording: {
    fixture: 'strands-live',
    versionsOf: ['strands-agents', 'a2a-sdk', 'starlette', 'uvicorn'],
    steps: [
      {
        deploy: { variant: 'healthy' },
        exchanges: [
          getExchange(
            'card',
            'GET /.well-known/agent-card.json: a 0.3 card (protocolVersion 0.3.0), defaults ["text"], skills = the tools (no modes, tags [])',
            (p) => p.cardUrl,
          ),
          getExchange(
            'card.agent-json',
            'GET /.well-known/agent.json (the a2a-sdk 0.3 server serves the older path too)',
            (p) => `${p.origin}/.well-known/agent.json`,
          ),
          rpcExchange(
            'jsonrpc-v0.3.message-send.summarize',
            '0.3 message/send skill summarize: the model calls the summarize tool; COMPLETED, artifact "agent_response" = the AgentResult str()-ed (trailing newline)',
            'rpcUrl',
            'message/send',
            (r) => r.m03(PROMPTS.summarize, 'summarize'),
          ),
          rpcExchange(
            'jsonrpc-v0.3.message-stream.translate',
            "0.3 message/stream skill translate, A2AServer's default (legacy) streaming: task, status-update working carrying the text chunk as an agent message, artifact-update, status-update completed",
            'rpcUrl',
            'message/stream',
            (r) => r.m03(PROMPTS.translate, 'translate'),
            { stream: true },
          ),
          rpcExchange(
            'jsonrpc-v0.3.tasks-get.not-found',
            '0.3 tasks/get of an unknown id',
            'rpcUrl',
            'tasks/get',
            () => ({
              id: 'no-such-task',
            }),
          ),
          {
            name: 'rest.message-send.not-served',
            note: 'POST /v1/message:send: A2AServer serves no HTTP+JSON binding (404)',
            request: (p, r) => ({
              url: `${p.origin}/v1/message:send`,
              init: post(V03, JSON.stringify({ message: r.m03('hi', 'summarize').message })),
            }),
          },
        ],
      },
      {
        deploy: { variant: 'healthy', opts: { streaming: 'compliant' } },
        exchanges: [
          rpcExchange(
            'compliant.jsonrpc-v0.3.message-stream.translate',
            'enable_a2a_compliant_streaming=True: task, artifact-update (the chunk), artifact-update (append, lastChunk, empty text), status-update completed',
            'rpcUrl',
            'message/stream',
            (r) => r.m03(PROMPTS.translate, 'translate'),
            { stream: true },
          ),
        ],
      },
      {
        deploy: { variant: 'A' },
        exchanges: [
          getExchange(
            'variant-a.card',
            'card after the A redeploy: the translate tool removed, so the skill too; version 1.0.0',
            (p) => p.cardUrl,
          ),
          rpcExchange(
            'variant-a.jsonrpc-v0.3.message-send.translate',
            'variant A, 0.3 message/send skill translate: COMPLETED, text "Unknown tool: translate" (Strands\' tool result, repeated by the model)',
            'rpcUrl',
            'message/send',
            (r) => r.m03(PROMPTS.translate, 'translate'),
          ),
          rpcExchange(
            'variant-a.jsonrpc-v0.3.message-stream.translate',
            'variant A, 0.3 message/stream skill translate: COMPLETED with the same text',
            'rpcUrl',
            'message/stream',
            (r) => r.m03(PROMPTS.translate, 'translate'),
            { stream: true },
          ),
        ],
      },
    ],
  },
  variantB: {
    na: 'not expressible: StrandsA2AExecutor emits only text parts and A2AServer fixes the card’s output modes to ["text"]',
  },
};

const A2A_SDK_PEER = 'test/real-world/python/a2a-sdk/peer.py';
const pythonSdk: Row = {
  id: 'python-a2a-sdk',
  name: 'Python `a2a-sdk` 1.3.0 (the reference SDK: its Starlette routes on uvicorn, a deterministic `AgentExecutor`)',
  agentCode: 'test/real-world/python/a2a-sdk/',
  unavailable: venvMissing('a2a-sdk', sdkInstalled),
  start: (d, same) =>
    startPythonSdkPeer({
      variant: d.variant,
      port: same?.port,
      unknownSkill: d.opts?.unknownSkill as 'status' | 'raise' | undefined,
    }),
  agentPython: SDK_PYTHON,
  facts: {
    bindings: {
      value:
        '1.0 JSON-RPC (`/a2a/jsonrpc`) and HTTP+JSON (`/a2a/rest`), and its 0.3 compat layer on both',
      source: `${A2A_SDK_PEER}: the SDK's JSON-RPC and REST Starlette routes; test/fixtures/a2a-python-live/README.md`,
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, REST; 1.0 from the card URL, 0.3 mode from the card without its 1.0 interfaces) and raw fetch; the skill id in the request metadata (1.0) or `message.metadata` (0.3)',
      source: 'test/peers/sdk-client.ts (how the SDK client puts a skill id on the wire)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json` (1.0 card + 0.3 fields merged: `supportedInterfaces` ×4, `url`, `protocolVersion: "0.3"`), skills `text/plain`, version 1.0.0 in every variant',
      source: 'test/fixtures/a2a-python-live/card.json',
    },
    judged: {
      value:
        'healthy send/stream on both bindings and both versions: no drift; removed skill: FAILED `unknown skill: x` (task, 0.3 `failed`, or a raised `ValueError` → -32603 / stream `event: error`) → `unknown_skill`; raised over HTTP+JSON → 500 `unknown exception` (the text lost): a failure the card fetched again settles → `unknown_skill` (evidence `card`); `image/png` raw part for a `text/plain` skill → `output_mode_mismatch`; `card_changed`; the skill’s own InvalidParamsError → `invalid_params`',
      source: `${A2A_SDK_PEER}:166-181`,
    },
    fixtures: 'test/fixtures/a2a-python-live/',
  },
  card: {
    protocol: '1.0',
    skills: TEXT_SKILLS,
    fields: (p) => ({
      version: '1.0.0',
      protocolVersion: '0.3',
      url: `${p.origin}/a2a/jsonrpc`,
      supportedInterfaces: [
        { protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: { value: true, source: `${A2A_SDK_PEER}: AgentCapabilities(streaming=True)` },
    push: { value: false, source: `${A2A_SDK_PEER}: no push config store` },
    grpc: {
      value: false,
      source: 'served by the python-a2a-sdk-grpc deployment (GRPC=1), not this one',
    },
    variantB: {
      value: 'raw',
      source: `${A2A_SDK_PEER}:180-181 new_raw_part(PNG, media_type="image/png")`,
    },
  },
  healthy: [
    ...TRANSPORTS.map((transport) => ({
      label: `SDK ${transport} 1.0 from the card URL`,
      client: sdk(transport, 'url'),
      protocol: '1.0' as const,
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: SUMMARY, mediaType: 'text/plain' },
        },
        stream: { state: 'completed', events: ['task', 'status', 'artifact', 'status'] },
      },
    })),
    ...TRANSPORTS.map((transport) => ({
      label: `SDK ${transport} 0.3 mode on the compat layer (the card without its 1.0 interfaces)`,
      client: sdk(transport, 'card', true),
      protocol: '0.3' as const,
      ops: { send: { state: 'completed' }, stream: { state: 'completed', minEvents: 3 } },
    })),
    {
      label: 'raw JSON-RPC 1.0 SendMessage / SendStreamingMessage',
      client: { kind: 'jsonrpc', version: '1.0', endpoint: 'jsonRpcUrl' },
      protocol: '1.0',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed' },
      },
    },
    {
      label: 'raw 0.3 message/send / message/stream on the same endpoint',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
      protocol: '0.3',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed' },
      },
    },
  ],
  errors: [
    REST_UNKNOWN_TASK,
    httpProbe(
      'a REST body with no parts (the 1.0 parser rejects it)',
      '/message:send',
      { status: 400, body: /INVALID_ARGUMENT/, span: { name: 'SendMessage', error: true } },
      {
        base: 'restUrl',
        headers: V10,
        body: (tag) => ({ message: { messageId: tag, role: 'ROLE_USER', parts: [] } }),
      },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe(
        'JSON-RPC 1.0 send',
        'jsonRpcUrl',
        'SendMessage',
        (tag) => m10(PROMPTS.summarize, 'summarize', tag),
        { status: 200 },
        { v10: true },
      ),
      REST_STREAM,
      httpProbe(
        'the skill’s own InvalidParamsError (400)',
        '/message:send',
        { status: 400, contentType: 'application/json' },
        {
          base: 'restUrl',
          headers: V10,
          body: (tag) => m10('summarize: max_words=-1', 'summarize', tag),
        },
      ),
      httpProbe(
        'REST GET of an unknown task',
        '/tasks/no-such-task',
        { status: 404, contentType: 'application/json' },
        { base: 'restUrl', headers: V10 },
      ),
    ],
    // the skill's own InvalidParamsError (HTTP+JSON 400 INVALID_ARGUMENT / INVALID_PARAMS)
    drift: [['SendMessage', 'invalid_params']],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      ...TRANSPORTS.map((transport) => ({
        label: `SDK ${transport} holding the healthy card: a FAILED task`,
        client: sdk(transport, 'card'),
        ops: { send: { state: 'failed', statusText: 'unknown skill: translate' } },
        says: {
          value: 'words' as const,
          source: `${A2A_SDK_PEER}:166 the FAILED status message "unknown skill: translate"`,
        },
        verdict: 'unknown_skill' as const,
        errorSpan: true,
      })),
      {
        label: 'raw 0.3 message/send: a failed task',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: { send: { state: 'failed', statusText: 'unknown skill: translate' } },
        says: { value: 'words', source: `${A2A_SDK_PEER}:166` },
        verdict: 'unknown_skill',
      },
      ...(['1.0', '0.3'] as const).map((version) => ({
        label: `the executor raises ValueError: raw JSON-RPC ${version} send → -32603 with the text`,
        deploy: { unknownSkill: 'raise' },
        client: { kind: 'jsonrpc', version, endpoint: 'jsonRpcUrl' } as const,
        ops: { send: { error: /unknown skill: translate/ } },
        says: {
          value: 'words' as const,
          source: `${A2A_SDK_PEER}:167-168 raise ValueError(reason); the JSON-RPC handler sends its text`,
        },
        verdict: 'unknown_skill' as const,
        errorSpan: true,
      })),
      {
        label: 'the executor raises: JSON-RPC 1.0 stream → Task event, then event: error -32603',
        deploy: { unknownSkill: 'raise' },
        client: { kind: 'jsonrpc', version: '1.0', endpoint: 'jsonRpcUrl' },
        ops: {
          stream: {
            error: /unknown skill: translate/,
            wire: /\r\nevent: error\r\ndata: \{"error": \{"code": -32603, "message": "unknown skill: translate"\}/,
          },
        },
        says: { value: 'words', source: `${A2A_SDK_PEER}:167-168` },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label: 'the executor raises: HTTP+JSON send → 500 "unknown exception" (the text is lost)',
        deploy: { unknownSkill: 'raise' },
        client: sdk('HTTP+JSON', 'card'),
        ops: { send: { error: /./ } },
        says: {
          value: 'failure',
          source: 'a2a/utils/error_handlers.py:130 `message="unknown exception"`',
        },
        // the text is lost: a failure for a listed skill, which the card fetched again settles
        verdict: 'unknown_skill',
        evidence: 'card',
        suspicion: 'failure',
        confirmed: true,
        errorSpan: true,
      },
    ],
    still: {
      label: 'SDK JSON-RPC send summarize',
      client: sdk('JSONRPC', 'card'),
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: [
      ...TRANSPORTS.map((transport) => ({
        label: `SDK ${transport} holding the healthy card: a raw image/png part`,
        client: sdk(transport, 'card'),
        ops: {
          send: { state: 'completed', part: { kind: 'raw', mediaType: 'image/png' } },
          stream: {},
        },
        mediaType: 'image/png',
      })),
      {
        label: 'raw 0.3 message/send: a file part image/png',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: { send: { state: 'completed', part: { kind: 'file', mediaType: 'image/png' } } },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: a2aSdkQuirks,
};

const ADK_PEER = 'test/real-world/python/google-adk/peer.py';
const ADK_NO_TOOL =
  'Invoking `translate()` failed as no tool with that name is available. The tools you can call are: summarize. You could retry, but it is IMPORTANT that you only call a tool from that list.';
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pythonAdk: Row = {
  id: 'python-google-adk',
  name: 'Google ADK Python (`google-adk` 2.13.0 `to_a2a`, on `a2a-sdk` 1.3.0; `BaseLlm` subclass)',
  agentCode: 'test/real-world/python/google-adk/',
  unavailable: venvMissing('google-adk', adkInstalled),
  start: (d, same) => startPythonAdkPeer({ variant: d.variant, port: same?.port }),
  agentPython: ADK_PYTHON,
  facts: {
    bindings: {
      value:
        '1.0 JSON-RPC + 0.3 compat at `/`; tool calls as `adk_type` data parts in WORKING status messages',
      source:
        'google/adk/a2a (to_a2a on the a2a-sdk 1.3.0 routes); test/fixtures/google-adk-python-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, 1.0 from the card URL) and raw fetch (JSON-RPC 1.0 and 0.3 on the same endpoint); the skill id in the request metadata',
      source: 'test/peers/sdk-client.ts',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, pure 1.0 card, version `0.0.1`, skills `<agent>-<tool>` without modes, defaults `text/plain`',
      source: 'test/fixtures/google-adk-python-live/card.json',
    },
    judged: {
      value:
        'healthy tool calls: no drift; `card_changed`; JSON-RPC error. Removed tool: the task COMPLETES, the function_response says "Invoking `x()` failed as no tool with that name is available…", the model repeats it → content evidence, confirmed by the card re-fetched without the skill → `unknown_skill`. Variant B: the model answers with an image (`inline_data`), which ADK’s part converter sends as a file part `image/png` (1.0: `raw` + `mediaType`) where the card says `text/plain` → `output_mode_mismatch`; the card unchanged, no `card_changed`',
      source: `${ADK_PEER}:79-81, 132`,
    },
    fixtures: 'test/fixtures/google-adk-python-live/',
  },
  card: {
    protocol: '1.0',
    skills: [
      ['desk', undefined],
      ['desk-summarize', undefined],
      ['desk-translate', undefined],
    ],
    fields: (p) => ({
      version: '0.0.1',
      protocolVersion: undefined,
      supportedInterfaces: [{ url: p.origin, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      defaultOutputModes: ['text/plain'],
      skills: [{ name: 'model' }, { name: 'summarize' }, { name: 'translate' }],
    }),
  },
  skills: {
    send: 'desk-summarize',
    stream: 'desk-summarize',
    prompts: { 'desk-summarize': PROMPTS.summarize, 'desk-translate': PROMPTS.translate },
  },
  capabilities: {
    streaming: {
      value: true,
      source: 'google/adk/a2a/utils/agent_card_builder.py:95 `AgentCapabilities(streaming=True)`',
    },
    push: { value: false, source: 'to_a2a sets no push notification store' },
    grpc: { value: false, source: 'to_a2a builds the JSON-RPC Starlette app only' },
    variantB: {
      value: 'file',
      source: `${ADK_PEER}:79-81 an inline_data image/png Part, converted to a file part`,
    },
  },
  healthy: [
    {
      label: 'SDK JSON-RPC 1.0 from the card URL',
      client: sdk('JSONRPC', 'url'),
      protocol: '1.0',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed' },
      },
    },
    {
      label: 'raw JSON-RPC 1.0 SendMessage / SendStreamingMessage',
      client: { kind: 'jsonrpc', version: '1.0', endpoint: 'rpcUrl' },
      protocol: '1.0',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
    {
      // the pure 1.0 card offers no 0.3 to take a version from: none is claimed, not 1.0
      label: 'raw 0.3 message/send / message/stream on the 1.0 endpoint',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
      protocol: 'none',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
  ],
  errors: [
    rpcProbe(
      'GetTask of an unknown task',
      'rpcUrl',
      'GetTask',
      () => ({ id: 'no-such-task' }),
      { status: 200, body: /-32001/, span: { name: 'GetTask', error: true } },
      { v10: true },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe(
        'JSON-RPC 1.0 send',
        'rpcUrl',
        'SendMessage',
        (tag) => m10(PROMPTS.summarize, 'desk-summarize', tag),
        { status: 200 },
        { v10: true },
      ),
      rpcProbe(
        'GetTask unknown',
        'rpcUrl',
        'GetTask',
        (tag) => ({ id: `${tag}-none` }),
        { status: 200, body: /-32001/ },
        { v10: true },
      ),
    ],
  },
  variantA: {
    gone: 'desk-translate',
    left: ['desk', 'desk-summarize'],
    paths: [
      {
        label: 'raw JSON-RPC 1.0 SendMessage: COMPLETED, the function_response carries ADK’s error',
        client: { kind: 'jsonrpc', version: '1.0', endpoint: 'rpcUrl' },
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'text', text: `The tool translate failed: ${ADK_NO_TOOL}` },
            wire: new RegExp(escapeRe(JSON.stringify({ error: ADK_NO_TOOL }).slice(1, -1))),
          },
        },
        says: {
          value: 'words',
          source:
            'google/adk/flows/llm_flows/tools/_error_handler.py:94: the function_response error "Invoking `x()` failed as no tool with that name is available"',
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      {
        label: 'SDK holding the healthy card',
        client: sdk('JSONRPC', 'card'),
        ops: { send: { state: 'completed' } },
        says: { value: 'words', source: 'as above; the scripted model repeats it' },
        verdict: 'unknown_skill',
        evidence: 'content',
        confirmed: true,
      },
    ],
    still: {
      label: 'SDK send desk-summarize',
      client: sdk('JSONRPC', 'card'),
      ops: { send: { state: 'completed' } },
    },
  },
  recording: {
    fixture: 'google-adk-python-live',
    versionsOf: ['google-adk', 'google-genai', 'a2a-sdk', 'starlette', 'sse-starlette', 'uvicorn'],
    steps: [
      {
        deploy: { variant: 'healthy' },
        exchanges: [
          getExchange(
            'card',
            'GET /.well-known/agent-card.json: a pure 1.0 card',
            (p) => p.cardUrl,
          ),
          rpcExchange(
            'jsonrpc.send-message.summarize',
            'JSON-RPC 1.0 SendMessage skill desk-summarize: COMPLETED; function_call / function_response data parts (metadata.adk_type) in history, the final text in the artifact',
            'rpcUrl',
            'SendMessage',
            (r) => r.m10(`summarize: ${FOX}`, 'desk-summarize'),
            { v10: true },
          ),
          rpcExchange(
            'jsonrpc.send-streaming-message.summarize',
            'JSON-RPC 1.0 SendStreamingMessage: task, WORKING status-updates (empty, function_call, function_response, text), artifactUpdate, COMPLETED',
            'rpcUrl',
            'SendStreamingMessage',
            (r) => r.m10(`summarize: ${FOX}`, 'desk-summarize'),
            { v10: true, stream: true },
          ),
          rpcExchange(
            'jsonrpc-v0.3.message-send.translate',
            'JSON-RPC 0.3 message/send (compat layer, same endpoint) skill desk-translate',
            'rpcUrl',
            'message/send',
            (r) => r.m03('translate: hello', 'desk-translate'),
          ),
          rpcExchange(
            'jsonrpc-v0.3.message-stream.translate',
            'JSON-RPC 0.3 message/stream skill desk-translate',
            'rpcUrl',
            'message/stream',
            (r) => r.m03('translate: hello', 'desk-translate'),
            { stream: true },
          ),
          rpcExchange(
            'jsonrpc.get-task.not-found',
            'JSON-RPC 1.0 GetTask of an unknown id',
            'rpcUrl',
            'GetTask',
            () => ({ id: 'no-such-task' }),
            { v10: true },
          ),
        ],
      },
      {
        deploy: { variant: 'A' },
        exchanges: [
          getExchange(
            'variant-a.card',
            'card after the A redeploy: desk-translate gone, version 0.0.1',
            (p) => p.cardUrl,
          ),
          rpcExchange(
            'variant-a.jsonrpc.send-message.translate',
            'variant A, SendMessage skill desk-translate: COMPLETED; the function_response is {"error": "Invoking `translate()` failed as no tool with that name is available. ..."}',
            'rpcUrl',
            'SendMessage',
            (r) => r.m10('translate: hello', 'desk-translate'),
            { v10: true },
          ),
          rpcExchange(
            'variant-a.jsonrpc.send-streaming-message.translate',
            'variant A, SendStreamingMessage skill desk-translate',
            'rpcUrl',
            'SendStreamingMessage',
            (r) => r.m10('translate: hello', 'desk-translate'),
            { v10: true, stream: true },
          ),
          rpcExchange(
            'variant-a.jsonrpc-v0.3.message-send.translate',
            'variant A, 0.3 message/send skill desk-translate',
            'rpcUrl',
            'message/send',
            (r) => r.m03('translate: hello', 'desk-translate'),
          ),
        ],
      },
      {
        deploy: { variant: 'B' },
        exchanges: [
          rpcExchange(
            'variant-b.jsonrpc.send-message.summarize',
            'variant B (same tools and card; the model answers with an image), SendMessage skill desk-summarize: the artifact holds a file part (raw bytes, mediaType image/png) where the card says text/plain',
            'rpcUrl',
            'SendMessage',
            (r) => r.m10(`summarize: ${FOX}`, 'desk-summarize'),
            { v10: true },
          ),
          rpcExchange(
            'variant-b.jsonrpc.send-streaming-message.summarize',
            'variant B, SendStreamingMessage skill desk-summarize',
            'rpcUrl',
            'SendStreamingMessage',
            (r) => r.m10(`summarize: ${FOX}`, 'desk-summarize'),
            { v10: true, stream: true },
          ),
        ],
      },
    ],
  },
  variantB: {
    skill: 'desk-summarize',
    paths: [
      {
        label: 'raw JSON-RPC 1.0 SendMessage: a raw image/png part (ADK’s inline_data)',
        client: { kind: 'jsonrpc', version: '1.0', endpoint: 'rpcUrl' },
        ops: { send: { state: 'completed', wire: /"mediaType":\s*"image\/png"/ } },
        mediaType: 'image/png',
        evidence: 'protocol',
        expectedModes: ['text/plain'],
      },
      {
        label: 'SDK stream holding the healthy card',
        client: sdk('JSONRPC', 'card'),
        ops: { stream: { minEvents: 3 } },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: googleAdkQuirks,
};

const FASTA2A_PEER = 'test/real-world/python/fasta2a/peer.py';
/** A-fail's polled task: a bare failed status (no message), the history only the client's message */
const FASTA2A_FAILED_WIRE =
  /"status":\{"state":"failed","timestamp":"[^"]*"\},"history":\[\{"role":"user","parts":\[\{"text":"translate: hello"\}\][^\]]*\]\}\}$/;
const raw03 = (poll = false) =>
  ({ kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl', poll }) as const;
const fasta2a: Row = {
  id: 'python-fasta2a',
  name: 'FastA2A (`fasta2a` 2.1.1 + `pydantic-ai-slim` 2.68.0 `FunctionModel`)',
  agentCode: 'test/real-world/python/fasta2a/',
  unavailable: venvMissing('fasta2a', fasta2aInstalled),
  start: (d, same) =>
    startFastA2APeer({
      // opts.a 'fail': variant A whose tool retries run out (peer.py VARIANT=A-fail)
      variant: d.variant === 'A' && d.opts?.a === 'fail' ? 'A-fail' : d.variant,
      port: same?.port,
    }),
  agentPython: FASTA2A_PYTHON,
  facts: {
    bindings: {
      value:
        '0.3 names at `/` (1.0 names translated), a send answers SUBMITTED, results by polling; 1.0-shaped results with 0.3 states',
      source: 'fasta2a/jsonrpc_v1 (the 1.0 names); test/fixtures/fasta2a-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, 1.0 from the card URL; polls GetTask) and raw fetch (0.3 names, polls tasks/get); the skill id in the request metadata (SDK) or `message.metadata` (raw)',
      source: 'blocking is not honoured: the send answers SUBMITTED (test/fixtures/fasta2a-live/)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, 1.0 card, skills `text/plain`, defaults `application/json`',
      source: 'test/fixtures/fasta2a-live/card.json',
    },
    judged: {
      value:
        'healthy send + poll / stream: no drift; `card_changed`; -32001. Removed tool: COMPLETED with "Unknown tool name: \'x\'. Available tools: …" → content evidence, confirmed by the card re-fetched without the skill → `unknown_skill`. The tool retries running out instead (A-fail): FAILED with no status message, no text at all → the card fetched again decides on the polled GetTask, `unknown_skill` (evidence `card`, suspicion `failure`). Variant B: the agent’s output made structured (`output_type`) → fasta2a sends any non-`str` output as a data part (`{"result": …}`) where the skill says `text/plain` → `output_mode_mismatch` (the polled GetTask; SDK stream). A file part cannot be expressed: fasta2a’s bridge converts only text / thinking model parts and str-or-data outputs (`fasta2a/pydantic_ai/_bridge.py` `_convert_result_to_part`, `_response_parts_to_a2a`)',
      source: `${FASTA2A_PEER}:108-131`,
    },
    fixtures: 'test/fixtures/fasta2a-live/',
  },
  card: {
    protocol: '1.0',
    skills: TEXT_SKILLS,
    fields: (p) => ({
      supportedInterfaces: [{ protocolBinding: 'JSONRPC', url: p.origin, protocolVersion: '1.0' }],
      defaultOutputModes: ['application/json'],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: {
      value: true,
      source: 'the card’s capabilities.streaming (test/fixtures/fasta2a-live/card.json)',
    },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: 'fasta2a serves JSON-RPC only' },
    variantB: {
      value: 'data',
      source:
        'fasta2a/pydantic_ai/_bridge.py `_convert_result_to_part`: a non-str output is a data part',
    },
  },
  healthy: [
    {
      label: 'SDK JSON-RPC 1.0 from the card URL: send (SUBMITTED) + GetTask polling, stream',
      client: { ...sdk('JSONRPC', 'url'), poll: true },
      protocol: '1.0',
      ops: {
        send: {
          answered: 'submitted',
          state: 'completed',
          part: { kind: 'text', text: SUMMARY },
          spanState: 'TASK_STATE_SUBMITTED',
        },
        stream: { state: 'completed', events: ['task', 'status', 'artifact', 'status'] },
      },
    },
    {
      label:
        'raw 0.3 message/send + tasks/get polling (a 1.0 `result.task` wrapper with 0.3 states), message/stream',
      client: raw03(true),
      // the card states only 1.0 and the answers mix the families: the card's version
      protocol: '1.0',
      ops: {
        send: {
          answered: 'submitted',
          state: 'completed',
          part: { kind: 'text', text: SUMMARY },
          spanState: 'TASK_STATE_SUBMITTED',
        },
        stream: { state: 'completed' },
      },
    },
  ],
  errors: [unknownTaskProbe('rpcUrl')],
  sameBytes: {
    probes: [cardProbe(), unknownTaskProbe('rpcUrl', true)],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'raw 0.3 message/send + polling: COMPLETED with pydantic-ai’s words',
        client: raw03(true),
        judgedOn: 'GetTask',
        ops: {
          send: {
            state: 'completed',
            part: {
              kind: 'text',
              text: "Unknown tool name: 'translate'. Available tools: 'summarize'",
            },
          },
        },
        says: {
          value: 'words',
          source:
            'pydantic_ai/_agent_graph.py: the tool return "Unknown tool name: …", repeated by the model; the task COMPLETES',
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      {
        label: 'SDK stream holding the healthy card',
        client: sdk('JSONRPC', 'card'),
        ops: { stream: { minEvents: 3 } },
        says: { value: 'words', source: 'as above, in the stream' },
        verdict: 'unknown_skill',
        evidence: 'content',
        confirmed: true,
      },
      {
        label:
          'A-fail (tool retries run out): raw 0.3 message/send (SUBMITTED) + polling, FAILED with no status message, no artifact, the history only the client’s message; the card fetched again decides on the polled GetTask',
        deploy: { a: 'fail' },
        client: raw03(true),
        judgedOn: 'GetTask',
        ops: {
          send: {
            answered: 'submitted',
            state: 'failed',
            statusMatch: /^$/,
            artifacts: 0,
            answer: '',
            wire: FASTA2A_FAILED_WIRE,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': 'changed' },
          },
        },
        says: {
          value: 'failure',
          source:
            'pydantic_ai tool_manager.py `_check_max_retries` raises `UnexpectedModelBehavior`; fasta2a/pydantic_ai/_bridge.py `run_task` marks the task failed and re-raises; fasta2a/worker.py ends it with a bare failed status: no text at all (peer.py VARIANT=A-fail)',
        },
        verdict: 'unknown_skill',
        evidence: 'card',
        suspicion: 'failure',
        confirmed: true,
        errorSpan: true,
      },
      {
        label:
          'A-fail: SDK stream holding the healthy card, task, WORKING, FAILED with no message; judged at once against the newer card the failing poll fetched',
        deploy: { a: 'fail' },
        client: sdk('JSONRPC', 'card'),
        ops: {
          stream: {
            state: 'failed',
            events: ['task', 'status', 'status'],
            statusMatch: /^$/,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': undefined },
          },
        },
        says: { value: 'failure', source: 'as above, in the final status-update' },
        verdict: 'unknown_skill',
        evidence: 'card',
        confirmed: true,
        errorSpan: true,
      },
    ],
    still: {
      label: 'SDK send summarize, polled',
      client: { ...sdk('JSONRPC', 'card'), poll: true },
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label:
          'raw 0.3 message/send + polling: a data part (no `kind`) where the skill says text/plain',
        client: raw03(true),
        judgedOn: 'GetTask',
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'data' },
            wire: /"data":\s*\{"result":\s*\{"summary":\s*"Summary: The quick brown fox jumps over\."\}\}/,
          },
        },
        mediaType: 'application/json',
        expectedModes: ['text/plain'],
      },
      {
        label: 'SDK stream holding the healthy card',
        client: sdk('JSONRPC', 'card'),
        ops: { stream: { minEvents: 3 } },
        mediaType: 'application/json',
      },
    ],
  },
};

const PYTHON_A2A_PEER = 'test/real-world/python/python-a2a/peer.py';
/** a python-a2a 0.1 body (its own client's shape): ids carry the tag */
const task01 = (method: string, text: string) => (tag: string) => ({
  jsonrpc: '2.0',
  id: `${tag}-rpc`,
  method,
  params: {
    id: `${tag}-task`,
    sessionId: `${tag}-session`,
    message: { role: 'user', parts: [{ type: 'text', text }] },
  },
});
const rpc01 = (skillBy: 'withSkill' | 'metadata') =>
  ({ kind: 'jsonrpc01', send: 'sendUrl', stream: 'streamUrl', skillBy }) as const;
const pythonA2a: Row = {
  id: 'python-python-a2a',
  name: 'python-a2a 0.5.9 (an `@agent` `A2AServer` with `@skill` methods on its own Flask app, werkzeug; a deterministic handler)',
  agentCode: 'test/real-world/python/python-a2a/',
  unavailable: venvMissing('python-a2a', pythonA2aInstalled),
  start: (d, same) =>
    startPythonA2aPeer({ variant: d.variant as 'healthy' | 'A' | 'B', port: same?.port }),
  agentPython: PYTHON_A2A_PYTHON,
  facts: {
    bindings: {
      value:
        '0.1 `tasks/send` at `/tasks/send`, `tasks/sendSubscribe` at `/tasks/stream` (SSE `event: update/complete` with bare Tasks)',
      source: 'python_a2a/server/http.py (create_flask_app); test/fixtures/python-a2a-live/',
    },
    clients: {
      value:
        'raw fetch (no JS client speaks it), skill id by `withSkill` or `message.metadata.skillId`',
      source: 'its 0.1-era "Google A2A" JSON-RPC is not what @a2a-js/sdk speaks',
    },
    card: {
      value:
        '`/.well-known/agent.json`, `/agent.json`, `/a2a/agent.json`, no `protocolVersion` (the card span names none; calls say 0.1); HTML at `agent-card.json` (no card, no verdict); the decorator’s card says `streaming: false`',
      source: 'test/fixtures/python-a2a-live/card.json',
    },
    judged: {
      value:
        'healthy send / stream: no drift; removed skill: COMPLETED with a data part `{"error": "Error in message handler: Unknown skill: x"}` (send and stream) → `unknown_skill`; `image/png` file part → `output_mode_mismatch`; `card_changed`; `tasks/get` 404 (-32000) and a JSON-RPC POST to `/` (500): error spans, no verdict',
      source: 'python_a2a/server/a2a_server.py:275',
    },
    fixtures: 'test/fixtures/python-a2a-live/',
  },
  card: {
    protocol: undefined,
    skills: TEXT_SKILLS,
    fields: (p) => ({ protocolVersion: undefined, url: p.origin, version: '1.0.0' }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: {
      value: false,
      source:
        'the decorator’s card says streaming: false (it streams at /tasks/stream all the same)',
    },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: 'Flask JSON-RPC only' },
    variantB: {
      value: 'file',
      source: `${PYTHON_A2A_PEER}: variant B answers summarize with an image/png file part`,
    },
  },
  healthy: [
    {
      label: 'raw 0.1, the skill declared with withSkill',
      client: rpc01('withSkill'),
      protocol: '0.1',
      skillSource: 'application',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: {
          state: 'completed',
          wire: /^event: update\nid: [\s\S]*event: complete\n[\s\S]*"text": "FR: hello"/,
        },
      },
    },
    {
      label: 'raw 0.1, the skill in message.metadata.skillId (read from the wire)',
      client: rpc01('metadata'),
      protocol: '0.1',
      skillSource: 'wire',
      // python-a2a keeps the request's metadata on the echoed message
      ops: { send: { state: 'completed', wire: /"skillId":\s*"summarize"/ } },
    },
  ],
  errors: [
    httpProbe(
      'tasks/get of an unknown task',
      '/tasks/get',
      { status: 404, span: { name: 'GetTask', error: true } },
      {
        body: () => ({ jsonrpc: '2.0', id: 'g', method: 'tasks/get', params: { id: 'no-such' } }),
      },
    ),
    httpProbe(
      'a JSON-RPC POST to the card URL /',
      '/',
      { status: 500, span: { name: 'SendMessage', error: true } },
      {
        body: () => ({
          jsonrpc: '2.0',
          id: 'm',
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: 'm-1',
              role: 'user',
              parts: [{ kind: 'text', text: 'summarize: hi' }],
            },
          },
        }),
      },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      httpProbe('the HTML page at agent-card.json', '/.well-known/agent-card.json', {
        status: 200,
      }),
      httpProbe(
        'tasks/send',
        '/tasks/send',
        { status: 200 },
        { body: task01('tasks/send', PROMPTS.summarize) },
      ),
      httpProbe(
        'tasks/sendSubscribe',
        '/tasks/stream',
        { status: 200, contentType: 'text/event-stream' },
        {
          headers: { accept: 'text/event-stream' },
          body: task01('tasks/sendSubscribe', PROMPTS.translate),
        },
      ),
      httpProbe(
        'tasks/get unknown',
        '/tasks/get',
        { status: 404 },
        {
          body: (tag) => ({
            jsonrpc: '2.0',
            id: 'g',
            method: 'tasks/get',
            params: { id: `${tag}-x` },
          }),
        },
      ),
      httpProbe(
        'tasks/send POSTed to /',
        '/',
        { status: 500 },
        { body: task01('tasks/send', 'hi') },
      ),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'tasks/send: COMPLETED with python-a2a’s error data part',
        client: rpc01('withSkill'),
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'data' },
            wire: /"data":\s*\{\s*"error":\s*"Error in message handler: Unknown skill: translate"\s*\}/,
          },
          stream: { wire: /Unknown skill: translate/ },
        },
        says: {
          value: 'words',
          source:
            'python_a2a/server/a2a_server.py:275 `f"Error in message handler: {str(e)}"` in a COMPLETED task',
        },
        verdict: 'unknown_skill',
      },
    ],
    still: {
      label: 'tasks/send summarize',
      client: rpc01('withSkill'),
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label: 'tasks/send + tasks/sendSubscribe: a file part image/png',
        client: rpc01('withSkill'),
        ops: {
          send: { part: { kind: 'file', mediaType: 'image/png' } },
          stream: { wire: /"mimeType": "image\/png"/ },
        },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: pythonA2aQuirks,
};

const MAF_NOT_FOUND = 'Error: Requested function "translate" not found.';
const MAF_TOOLS = 'agent_framework/_tools.py';
const agentFramework: Row = {
  id: 'python-agent-framework',
  name: 'Microsoft Agent Framework (`agent-framework-a2a` 1.0.0b261022 `A2AExecutor`, `agent-framework-core` 1.26.0, on `a2a-sdk` 1.3.0; a `BaseChatClient` with the framework’s `FunctionInvocationLayer` over a scripted model)',
  agentCode: 'test/real-world/python/agent-framework/',
  unavailable: venvMissing('agent-framework', mafInstalled),
  start: (d, same) =>
    startAgentFrameworkPeer({
      variant: d.variant,
      port: same?.port,
      stream: d.opts?.stream as boolean | undefined,
      unknown: d.opts?.unknown as 'result' | 'terminate' | undefined,
    }),
  agentPython: MAF_PYTHON,
  facts: {
    bindings: {
      value:
        '1.0 JSON-RPC and HTTP+JSON, the SDK’s 0.3 compat layer on JSON-RPC; `stream=False` (default: the answer is a WORKING status message, in `history`, no artifacts) and `stream=True` (artifact updates)',
      source: 'agent_framework_a2a A2AExecutor(stream=...); test/fixtures/agent-framework-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, REST; 1.0 and 0.3 modes), raw fetch and Google ADK JS `RemoteA2AAgent` (0.3 stream, a test of its own); the skill id in the request metadata or `message.metadata`',
      source: 'test/peers/sdk-client.ts; test/real-world/clients/lib.ts (putSkillId)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, the app’s own card (the framework writes none): 1.0 + the SDK’s 0.3 fields, skills = the tools, `text/plain`',
      source:
        'test/real-world/python/agent-framework/peer.py; test/fixtures/agent-framework-live/card.json',
    },
    judged: {
      value:
        'healthy tool-using send / stream on both bindings and both executor modes: no drift; `a2a.protocol.version` 1.0 / 0.3 per call; -32001 and REST 404: error spans, no verdict. Removed tool: COMPLETED with the framework’s `Error: Requested function "x" not found.` repeated by the model (history / status message) → `unknown_skill`, confirmed by the card re-served; with `terminate_on_unknown_calls` FAILED with that text → `unknown_skill`; `card_changed`. Variant B (`stream=True`): raw `image/png` artifact → `output_mode_mismatch`; under `stream=False` the image is a status message, not judged for modes (limit)',
      source: `${MAF_TOOLS}:2331, 2749`,
    },
    fixtures: 'test/fixtures/agent-framework-live/',
  },
  card: {
    protocol: '1.0',
    skills: TEXT_SKILLS,
    fields: () => ({
      version: '1.0.0',
      protocolVersion: '0.3',
      supportedInterfaces: [
        { protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: { value: true, source: 'the app’s card: AgentCapabilities(streaming=True)' },
    push: { value: false, source: 'the app’s card' },
    grpc: { value: false, source: 'the SDK’s JSON-RPC and REST routes only' },
    variantB: {
      value: 'raw',
      source:
        'variant B answers with an image/png raw part; judged only as an artifact (stream=True)',
    },
  },
  healthy: [
    ...TRANSPORTS.flatMap((transport) =>
      [false, true].map((stream) => ({
        label: `SDK ${transport} 1.0 from the card URL, A2AExecutor stream=${stream ? 'True' : 'False'}`,
        deploy: { stream },
        client: sdk(transport, 'url'),
        protocol: '1.0' as const,
        ops: {
          send: { state: 'completed', answer: SUMMARY },
          stream: { state: 'completed', minEvents: 3, firstEvent: 'task' },
        },
      })),
    ),
    {
      label: 'SDK JSON-RPC 0.3 mode on the SDK 0.3 layer (the card without its 1.0 interfaces)',
      client: sdk('JSONRPC', 'card', true),
      protocol: '0.3',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
    {
      label: 'raw JSON-RPC 1.0 SendMessage, the answer read from the history',
      client: { kind: 'jsonrpc', version: '1.0', endpoint: 'rpcUrl' },
      protocol: '1.0',
      ops: { send: { state: 'completed', answer: SUMMARY } },
    },
    {
      label: 'raw 0.3 message/send: no artifacts (stream=False), the answer a message',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
      protocol: '0.3',
      ops: { send: { state: 'completed', artifacts: 0, answer: SUMMARY } },
    },
  ],
  errors: [
    rpcProbe(
      'JSON-RPC GetTask of an unknown task',
      'rpcUrl',
      'GetTask',
      () => ({ id: 'no-such-task' }),
      { status: 200, body: /-32001/, span: { name: 'GetTask', error: true } },
      { v10: true },
    ),
    REST_UNKNOWN_TASK,
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe(
        'JSON-RPC 1.0 send',
        'rpcUrl',
        'SendMessage',
        (tag) => m10(PROMPTS.summarize, 'summarize', tag),
        { status: 200 },
        { v10: true },
      ),
      REST_STREAM,
      rpcProbe(
        'GetTask unknown',
        'rpcUrl',
        'GetTask',
        (tag) => ({ id: `${tag}-x` }),
        { status: 200, body: /-32001/ },
        { v10: true },
      ),
      httpProbe(
        'REST GET of an unknown task',
        '/tasks/probe-none',
        { status: 404, contentType: 'application/json' },
        { base: 'restUrl', headers: V10 },
      ),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'raw 0.3 message/send: COMPLETED with the framework’s words',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
        ops: { send: { state: 'completed', answer: MAF_NOT_FOUND } },
        says: {
          value: 'words',
          source: `${MAF_TOOLS}:2331 the function result "${MAF_NOT_FOUND}", repeated by the model; the task COMPLETES`,
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      ...TRANSPORTS.map((transport) => ({
        label: `SDK ${transport} holding the healthy card: send + stream`,
        client: sdk(transport, 'card'),
        ops: { send: { answer: MAF_NOT_FOUND }, stream: {} },
        says: { value: 'words' as const, source: `${MAF_TOOLS}:2331` },
        verdict: 'unknown_skill' as const,
        confirmed: true,
      })),
      {
        label:
          'terminate_on_unknown_calls: SDK send → FAILED with the text (str() of a KeyError: in quotes)',
        deploy: { unknown: 'terminate' },
        client: sdk('JSONRPC', 'card'),
        ops: {
          send: {
            state: 'failed',
            statusText: `'${MAF_NOT_FOUND}'`,
            spanState: 'TASK_STATE_FAILED',
          },
        },
        says: {
          value: 'words',
          source: `${MAF_TOOLS}:2749 _UnknownFunctionCallError, the task FAILS`,
        },
        verdict: 'unknown_skill',
      },
      {
        label:
          'terminate_on_unknown_calls: raw JSON-RPC 1.0 stream → the FAILED status update carries the text',
        deploy: { unknown: 'terminate' },
        client: { kind: 'jsonrpc', version: '1.0', endpoint: 'rpcUrl' },
        ops: {
          stream: {
            state: 'failed',
            wire: /TASK_STATE_FAILED[\s\S]*Requested function \\"translate\\" not found|Requested function \\"translate\\" not found[\s\S]*TASK_STATE_FAILED/,
          },
        },
        says: { value: 'words', source: `${MAF_TOOLS}:2749` },
        verdict: 'unknown_skill',
      },
    ],
    still: {
      label: 'SDK send summarize',
      client: sdk('JSONRPC', 'card'),
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: TRANSPORTS.map((transport) => ({
      label: `A2AExecutor stream=True, SDK ${transport}: a raw image/png artifact`,
      deploy: { stream: true },
      client: sdk(transport, 'card'),
      ops: {
        send: { state: 'completed', part: { kind: 'raw', mediaType: 'image/png' } },
        stream: {},
      },
      mediaType: 'image/png',
    })),
  },
  quirks: agentFrameworkQuirks,
};

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
/** desk's skill id on a LangGraph peer */
function deskSkill(p: Peer): string {
  return `${(p as unknown as { assistantIds: Record<string, string> }).assistantIds.desk}-main`;
}
const langgraph: Row = {
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
    streaming: { value: true, source: 'the card’s capabilities.streaming' },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: 'JSON-RPC only' },
    variantB: {
      value: 'file',
      source: 'graphs.py: variant B answers with an image content block, sent as a file part',
    },
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
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
      protocol: 'none',
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed' },
      },
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
      rpcProbe(
        '0.3 send',
        'rpcUrl',
        'message/send',
        (tag, p) => m03(PROMPTS.summarize, deskSkill(p), tag),
        { status: 200 },
      ),
      rpcProbe(
        '0.3 stream',
        'rpcUrl',
        'message/stream',
        (tag, p) => m03(PROMPTS.summarize, deskSkill(p), tag),
        { status: 200, contentType: 'text/event-stream', body: /^event: message\r\ndata: / },
        { stream: true },
      ),
      unknownTaskProbe('rpcUrl', true),
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
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
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
    still: {
      label: 'raw 0.3 message/send to desk, still deployed',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'deskRpcUrl' },
      ops: { send: { state: 'completed' } },
    },
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
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
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
  quirks: langgraphQuirks,
};

const GO_PEER = 'test/real-world/go/a2a-go/main.go';
/** the build of the Go peer, once per run (cached by go.sum: instant once built) */
let goBuilt: true | string | undefined;
const goUnavailable = (): string | undefined => {
  goBuilt ??= buildGoPeer();
  return goBuilt === true ? undefined : goBuilt;
};
const goJsonRpc: Row = {
  id: 'go-a2a-go',
  name: 'Go `a2a-go` v0.3.3 (the official Go SDK: `a2asrv.NewJSONRPCHandler` + `NewStaticAgentCardHandler` on net/http, one request handler; a deterministic `AgentExecutor`; built by `scripts/real-world-go.sh`)',
  agentCode: 'test/real-world/go/a2a-go/',
  optional:
    'it needs the Go toolchain and the module proxy; scripts/real-world.sh builds it only where `go` is installed',
  unavailable: goUnavailable,
  start: (d, same) =>
    startGoPeer({
      variant: d.variant,
      port: same?.port,
      unknownSkill: d.opts?.unknownSkill as
        'status' | 'error' | 'unsupported' | 'plain' | undefined,
    }),
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/invoke` (v0.3.3 has no HTTP+JSON server); non-streaming answers `text/plain` (no Content-Type set), every JSON-RPC error at HTTP 200, streams start with a `status-update`',
      source: 'test/fixtures/a2a-go-live/README.md',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in 0.3 mode (JSON-RPC) and raw fetch; the skill id in `message.metadata.skillId` (raw) or the request metadata (SDK)',
      source: 'the card is a 0.3 card (protocolVersion 0.3.0)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, 0.3 card, skills `text/plain`; a nil Go slice is `"tags": null` (decoded; the `@a2a-js/sdk` client refuses it)',
      source: `${GO_PEER} (NIL_TAGS=1); test/fixtures/a2a-go-live/card.json`,
    },
    judged: {
      value:
        'healthy send/stream/get: no drift; removed skill: final `status-update` FAILED `unknown skill: x` → `unknown_skill`; an executor error wrapping `ErrUnsupportedOperation` (-32004, text in `data.error`) → `unknown_skill`, wrapping `ErrInvalidParams` (-32602) → `invalid_params`, a plain error → -32603 without text: a failure the card fetched again settles → `unknown_skill` (evidence `card`); `image/png` file part → `output_mode_mismatch`; `card_changed`; net/http 404 and -32001: error spans',
      source: `${GO_PEER} (UNKNOWN_SKILL=status|error|unsupported|plain)`,
    },
    fixtures: 'test/fixtures/a2a-go-live/',
  },
  card: {
    protocol: '0.3',
    judged: true,
    skills: TEXT_SKILLS,
    fields: (p) => ({
      version: '1.0.0',
      protocolVersion: '0.3.0',
      url: `${p.origin}/invoke`,
      preferredTransport: 'JSONRPC',
      skills: [{ tags: ['docs'] }, { tags: ['docs'] }],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: { value: true, source: 'the card’s capabilities.streaming' },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: true, source: 'GRPC=1: a2agrpc.NewHandler (the go-a2a-go-grpc deployment)' },
    variantB: {
      value: 'file',
      source: `${GO_PEER}: variant B answers summarize with an image/png file part`,
    },
  },
  healthy: [
    {
      label: 'SDK 0.3 mode on the card the app fetched',
      client: sdk03('card'),
      protocol: '0.3',
      judged: true,
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY } },
        stream: { state: 'completed', events: ['status', 'status', 'artifact', 'status'] },
      },
    },
    {
      label: 'SDK 0.3 mode from the URL (its resolver fetches the card)',
      client: sdk03('url'),
      protocol: '0.3',
      ops: { send: { state: 'completed' } },
    },
    {
      label: 'raw 0.3 message/send (answered as text/plain) and message/stream',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: SUMMARY },
          contentType: 'text/plain; charset=utf-8',
        },
        stream: {
          state: 'completed',
          contentType: 'text/event-stream',
          events: ['status', 'status', 'artifact', 'status'],
          wire: /^id: [0-9a-f-]{36}\ndata: \{"jsonrpc":"2.0"[\s\S]*"state":"submitted"[\s\S]*"state":"working"[\s\S]*"state":"completed"/,
        },
      },
    },
  ],
  errors: [
    httpProbe(
      'a path net/http does not serve',
      '/no-such-path',
      {
        status: 404,
        body: /^404 page not found\n$/,
        span: { name: 'SendMessage', error: true, httpStatus: 404 },
      },
      {
        body: (tag) => ({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: m03('summarize: x', 'summarize', tag),
        }),
      },
    ),
    rpcProbe(
      'tasks/get of an unknown task',
      'jsonRpcUrl',
      'tasks/get',
      () => ({ id: 'no-such-task' }),
      {
        status: 200,
        body: /"error":\{"code":-32001,"message":"task not found","data":\{"error":"failed to get task: task not found"\}\}/,
        span: { name: 'GetTask', error: true },
      },
    ),
    rpcProbe(
      'the skill’s own invalid params (-32602 at HTTP 200)',
      'jsonRpcUrl',
      'message/send',
      (tag) => m03('summarize: max_words=-1', 'summarize', tag),
      {
        status: 200,
        body: /"code":-32602,.*'max_words' must be a positive integer: invalid params"/,
        span: { name: 'SendMessage', error: true, drift: 'invalid_params' },
      },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe(
        'send',
        'jsonRpcUrl',
        'message/send',
        (tag) => m03(PROMPTS.summarize, 'summarize', tag),
        {
          status: 200,
          contentType: 'text/plain; charset=utf-8',
          body: /^\{"jsonrpc":"2.0","id":7,"result"/,
        },
      ),
      rpcProbe(
        'stream',
        'jsonRpcUrl',
        'message/stream',
        (tag) => m03(PROMPTS.translate, 'translate', tag),
        { status: 200, contentType: 'text/event-stream', body: /^id: UUID\ndata: / },
        { stream: true },
      ),
      rpcProbe(
        'invalid params',
        'jsonRpcUrl',
        'message/send',
        (tag) => m03('summarize: max_words=-1', 'summarize', tag),
        {
          status: 200,
          contentType: 'text/plain; charset=utf-8',
          body: /^\{"jsonrpc":"2.0","id":7,"error"/,
        },
      ),
      httpProbe(
        'a path it does not serve',
        '/nope',
        { status: 404, contentType: 'text/plain; charset=utf-8', body: /^404 page not found/ },
        {
          body: (tag) => ({
            jsonrpc: '2.0',
            id: 7,
            method: 'message/send',
            params: m03('x', 'summarize', tag),
          }),
        },
      ),
    ],
    drift: [['SendMessage', 'invalid_params']],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label:
          'SDK 0.3 mode holding the healthy card: FAILED "unknown skill: translate" (send and stream)',
        client: sdk03('card'),
        ops: { send: { state: 'failed', statusText: 'unknown skill: translate' }, stream: {} },
        says: {
          value: 'words',
          source: `${GO_PEER}:119 the final status-update FAILED "unknown skill: translate"`,
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label: 'raw 0.3 message/send and message/stream: failed',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: {
          send: { state: 'failed', statusText: 'unknown skill: translate' },
          stream: { state: 'failed' },
        },
        says: { value: 'words', source: 'as above' },
        verdict: 'unknown_skill',
      },
      {
        label:
          'Execute returns fmt.Errorf("unknown skill: translate: %w", a2a.ErrInvalidParams): -32602 (send and the stream’s only event)',
        deploy: { unknownSkill: 'error' },
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: {
          send: {
            error: /^-32602 invalid params$/,
            wire: /"error":\{"code":-32602,"message":"invalid params","data":\{"error":"unknown skill: translate: invalid params"\}\}/,
          },
          stream: { error: /^-32602 /, events: ['error'] },
        },
        says: {
          value: 'words',
          source: `${GO_PEER} UNKNOWN_SKILL=error; the contract’s verdict for -32602 on a listed skill`,
        },
        verdict: 'invalid_params',
        errorSpan: true,
      },
      {
        label:
          'Execute returns fmt.Errorf("unknown skill: translate: %w", a2a.ErrUnsupportedOperation): -32004, the words in data.error',
        deploy: { unknownSkill: 'unsupported' },
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: {
          send: {
            error: /^-32004 this operation is not supported$/,
            wire: /"data":\{"error":"unknown skill: translate: this operation is not supported"\}/,
          },
          stream: { error: /^-32004 / },
        },
        says: { value: 'words', source: `${GO_PEER} UNKNOWN_SKILL=unsupported` },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label:
          'a plain errors.New("unknown skill: translate") after the submitted event: -32603 "internal error" without the text',
        deploy: { unknownSkill: 'plain' },
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: {
          send: {
            error: /^-32603 internal error$/,
            wire: /"error":\{"code":-32603,"message":"internal error"\}/,
          },
        },
        says: {
          value: 'failure',
          source: 'a2asrv’s JSON-RPC handler hides a plain error’s text (-32603 "internal error")',
        },
        // no text names the skill: a failure the card fetched again settles
        verdict: 'unknown_skill',
        evidence: 'card',
        suspicion: 'failure',
        confirmed: true,
        rpcCode: -32603,
        errorSpan: true,
      },
    ],
    still: {
      label: 'SDK 0.3 mode send summarize',
      client: sdk03('card'),
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label: 'SDK 0.3 mode send + stream: a file part image/png',
        client: sdk03('card'),
        ops: { send: { state: 'completed', part: { mediaType: 'image/png' } }, stream: {} },
        mediaType: 'image/png',
      },
      {
        label: 'raw 0.3 message/send: a file part image/png',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'jsonRpcUrl' },
        ops: { send: { state: 'completed', part: { kind: 'file', mediaType: 'image/png' } } },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: goQuirks,
};

const PY_GRPC_10 = {
  service: 'lf.a2a.v1.A2AService',
  version: '1.0',
  agentName: 'Docs Agent',
} as const;
const PY_GRPC_03 = {
  service: 'a2a.v1.A2AService',
  version: '0.3',
  agentName: 'Docs Agent',
} as const;
const grpcOk = { 'rpc.grpc.status_code': 0 };
const pythonSdkGrpc: Row = {
  id: 'python-a2a-sdk-grpc',
  name: 'Python `a2a-sdk` 1.3.0 over gRPC (its `grpc` extra: grpcio 1.85; `GrpcHandler` and `CompatGrpcHandler` on one `grpc.aio` port, listed first in the card)',
  agentCode: 'test/real-world/python/a2a-sdk/ (GRPC=1)',
  unavailable: venvMissing('a2a-sdk', sdkInstalled),
  start: (d, same) =>
    startPythonSdkPeer({
      variant: d.variant,
      port: same?.port,
      grpc: true,
      grpcPort: (same as unknown as { grpcPort?: number } | undefined)?.grpcPort,
      unknownSkill: d.opts?.unknownSkill as 'status' | 'raise' | undefined,
    }),
  agentPython: SDK_PYTHON,
  facts: {
    bindings: {
      value:
        'gRPC 1.0 (`lf.a2a.v1.A2AService`) and 0.3 (`a2a.v1.A2AService`) on one port, beside the JSON-RPC and HTTP+JSON routes',
      source: `${A2A_SDK_PEER} (GRPC=1: GrpcHandler, CompatGrpcHandler)`,
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 `GrpcTransportFactory` (ClientFactory picks GRPC from the card) and its 0.3 `LegacyGrpcTransport`; the skill id in the request metadata',
      source: 'test/real-world/grpc-clients.ts',
    },
    card: {
      value: 'the a2a-sdk card with two GRPC interfaces (1.0, 0.3) first',
      source: `${A2A_SDK_PEER}`,
    },
    judged: {
      value:
        'healthy send/stream/GetTask: no drift; removed skill: FAILED `unknown skill: x` → `unknown_skill` (1.0 and 0.3, unary and stream); a raised `ValueError` → status `UNKNOWN` (2) whose details carry the text → `unknown_skill`; `image/png` (1.0 raw part, 0.3 file part) → `output_mode_mismatch`; GetTask of an unknown task → `NOT_FOUND` (5): error span, no verdict; `rpc.*` attributes',
      source: `${A2A_SDK_PEER}:166-181`,
    },
  },
  card: {
    protocol: '1.0',
    skills: TEXT_SKILLS,
    fields: (p) => ({
      supportedInterfaces: [
        { protocolBinding: 'GRPC', protocolVersion: '1.0', url: endpoint(p, 'grpcTarget') },
        { protocolBinding: 'GRPC', protocolVersion: '0.3', url: endpoint(p, 'grpcTarget') },
        { protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: { value: true, source: `${A2A_SDK_PEER}: AgentCapabilities(streaming=True)` },
    push: { value: false, source: `${A2A_SDK_PEER}: no push config store` },
    grpc: { value: true, source: `${A2A_SDK_PEER} GRPC=1` },
    variantB: { value: 'raw', source: `${A2A_SDK_PEER}:180-181 (over 0.3: a file part)` },
  },
  healthy: [
    {
      label: 'ClientFactory from the card URL picks gRPC 1.0: send + stream + GetTask',
      client: { kind: 'grpc', via: 'factory', from: 'url' },
      grpc: PY_GRPC_10,
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: SUMMARY, mediaType: 'text/plain' },
          spanAttributes: grpcOk,
        },
        stream: { state: 'completed', minEvents: 3, spanAttributes: grpcOk },
        get: { state: 'completed', spanAttributes: grpcOk },
      },
    },
    {
      label: 'the 0.3 gRPC client (LegacyGrpcTransport) on the CompatGrpcHandler: send + stream',
      client: { kind: 'grpc', via: 'legacy' },
      grpc: PY_GRPC_03,
      ops: {
        send: { state: 'completed', spanAttributes: grpcOk },
        stream: { minEvents: 2, spanAttributes: grpcOk },
      },
    },
  ],
  errors: { na: 'gRPC only: its errors are the client’s (errorCalls)' },
  errorCalls: [
    {
      label: 'GetTask of an unknown task over gRPC 1.0: NOT_FOUND',
      client: { kind: 'grpc', via: 'factory', from: 'card' },
      grpc: PY_GRPC_10,
      ops: {
        get: {
          taskId: 'no-such-task',
          error: /./,
          spanAttributes: { 'rpc.grpc.status_code': 5 },
          spanStatusMessage: /NOT_FOUND/,
        },
      },
    },
    {
      label: 'GetTask of an unknown task over gRPC 0.3: NOT_FOUND',
      client: { kind: 'grpc', via: 'legacy' },
      grpc: PY_GRPC_03,
      ops: {
        get: {
          taskId: 'no-such-task',
          error: /./,
          spanAttributes: { 'rpc.grpc.status_code': 5 },
          spanStatusMessage: /NOT_FOUND/,
        },
      },
    },
  ],
  sameBytes: {
    probes: [],
    calls: [
      {
        label: 'LegacyGrpcTransport: send, stream, GetTask of an unknown task',
        client: { kind: 'grpc', via: 'legacy' },
        ops: { send: {}, stream: {}, get: { taskId: 'no-such-task', error: /./ } },
      },
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'gRPC 1.0 send + stream: FAILED "unknown skill: translate" (the server’s words)',
        client: { kind: 'grpc', via: 'factory', from: 'card' },
        grpc: PY_GRPC_10,
        ops: {
          send: {
            state: 'failed',
            statusText: 'unknown skill: translate',
            spanState: 'TASK_STATE_FAILED',
          },
          stream: { spanState: 'TASK_STATE_FAILED' },
        },
        says: { value: 'words', source: `${A2A_SDK_PEER}:166` },
        verdict: 'unknown_skill',
        evidence: 'protocol',
        errorSpan: true,
      },
      {
        label: 'gRPC 0.3 (LegacyGrpcTransport) send + stream',
        client: { kind: 'grpc', via: 'legacy' },
        grpc: PY_GRPC_03,
        ops: { send: { state: 'failed' }, stream: {} },
        says: { value: 'words', source: `${A2A_SDK_PEER}:166` },
        verdict: 'unknown_skill',
      },
      ...(
        [
          ['1.0', 'transport', PY_GRPC_10],
          ['0.3', 'legacy', PY_GRPC_03],
        ] as const
      ).map(([version, via, grpc]) => ({
        label: `the executor raises: gRPC ${version} status UNKNOWN (2) whose details carry the text (unary and stream)`,
        deploy: { unknownSkill: 'raise' },
        client: { kind: 'grpc', via } as const,
        grpc,
        ops: {
          send: {
            error: /Unexpected <class 'ValueError'>: unknown skill: translate/,
            spanAttributes: { 'rpc.grpc.status_code': 2 },
          },
          stream: { error: /./, spanAttributes: { 'rpc.grpc.status_code': 2 } },
        },
        says: {
          value: 'words' as const,
          source: `${A2A_SDK_PEER}:167-168; grpc's status details carry the exception text`,
        },
        verdict: 'unknown_skill' as const,
        errorSpan: true,
      })),
    ],
    still: {
      label: 'gRPC 1.0 send summarize',
      client: { kind: 'grpc', via: 'factory', from: 'card' },
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label: 'gRPC 1.0 send + stream: a raw image/png part',
        client: { kind: 'grpc', via: 'factory', from: 'card' },
        grpc: PY_GRPC_10,
        ops: { send: { part: { kind: 'raw', mediaType: 'image/png' } }, stream: {} },
        mediaType: 'image/png',
        expectedModes: ['text/plain'],
      },
      {
        label: 'gRPC 0.3: a file part with mimeType image/png',
        client: { kind: 'grpc', via: 'legacy' },
        grpc: PY_GRPC_03,
        ops: { send: {}, stream: {} },
        mediaType: 'image/png',
      },
    ],
  },
};

const GO_GRPC = {
  service: 'a2a.v1.A2AService',
  version: '0.3',
  agentName: 'Docs Agent',
  methodOf: { SubscribeToTask: 'TaskSubscription' },
} as const;
const goFactory = (from: 'url' | 'card') =>
  ({ kind: 'grpc', via: 'factory', from, legacyCompat: true }) as const;
const goLegacy = { kind: 'grpc', via: 'legacy' } as const;
const goGrpc: Row = {
  id: 'go-a2a-go-grpc',
  name: 'Go `a2a-go` v0.3.3 over gRPC (`GRPC=1`: `a2agrpc.NewHandler(...).RegisterWith` on a `grpc.Server` (google.golang.org/grpc v1.73.0) beside the JSON-RPC handler, one request handler behind both)',
  agentCode: 'test/real-world/go/a2a-go/ (GRPC=1)',
  optional: goJsonRpc.optional,
  unavailable: goUnavailable,
  start: (d, same) =>
    startGoPeer({
      variant: d.variant,
      port: same?.port,
      grpc: true,
      grpcPort: (same as unknown as { grpcPort?: number } | undefined)?.grpcPort,
      unknownSkill: d.opts?.unknownSkill as
        'status' | 'error' | 'unsupported' | 'plain' | undefined,
    }),
  facts: {
    bindings: {
      value: '0.3 gRPC (`a2a.v1.A2AService`) beside 0.3 JSON-RPC',
      source: `${GO_PEER} (GRPC=1)`,
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in 0.3 mode through `ClientFactory` with `GrpcTransportFactory({legacyCompat})`, which picks GRPC from the card, and `LegacyGrpcTransport`',
      source: 'test/real-world/grpc-clients.ts',
    },
    card: {
      value:
        '0.3 card: `url` = the gRPC target, `preferredTransport: "GRPC"`, `additionalInterfaces` [GRPC, JSONRPC]',
      source: `${GO_PEER}`,
    },
    judged: {
      value:
        'healthy send/stream/get: no drift; removed skill: FAILED `unknown skill: x` → `unknown_skill` (also on the GetTask poll); `ErrUnsupportedOperation` → `UNIMPLEMENTED` with the text → `unknown_skill`; `ErrInvalidParams` → `INTERNAL` "…: invalid params" → `invalid_params`; a plain error → `INTERNAL` with the text → `unknown_skill`; `image/png` file part → `output_mode_mismatch`; `NOT_FOUND`: error spans, no verdict; `rpc.*` attributes; the same results with and without the instrumentation',
      source: `${GO_PEER}:44-49 (toGRPCError)`,
    },
    fixtures: 'test/fixtures/a2a-go-live/',
  },
  card: {
    protocol: '0.3',
    skills: TEXT_SKILLS,
    fields: (p) => ({
      protocolVersion: '0.3.0',
      preferredTransport: 'GRPC',
      url: endpoint(p, 'grpcTarget'),
      additionalInterfaces: [
        { transport: 'GRPC', url: endpoint(p, 'grpcTarget') },
        { transport: 'JSONRPC', url: endpoint(p, 'jsonRpcUrl') },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: { value: true, source: 'the card’s capabilities.streaming' },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: true, source: `${GO_PEER} GRPC=1` },
    variantB: { value: 'file', source: `${GO_PEER}: an image/png file part` },
  },
  healthy: [
    {
      label: 'ClientFactory (0.3 mode) from the card URL picks gRPC: send + stream + GetTask',
      client: goFactory('url'),
      grpc: GO_GRPC,
      judged: true,
      ops: {
        send: { state: 'completed', part: { kind: 'text', text: SUMMARY }, spanAttributes: grpcOk },
        stream: {
          state: 'completed',
          events: ['status', 'status', 'artifact', 'status'],
          spanAttributes: grpcOk,
        },
        get: { state: 'completed', spanAttributes: grpcOk },
      },
    },
    {
      label: 'LegacyGrpcTransport on the target: send + stream + GetTask',
      client: goLegacy,
      grpc: GO_GRPC,
      ops: {
        send: { state: 'completed', spanAttributes: grpcOk },
        stream: { events: ['status', 'status', 'artifact', 'status'], spanAttributes: grpcOk },
        get: { state: 'completed', spanAttributes: grpcOk },
      },
    },
  ],
  errors: { na: 'gRPC only: its errors are the client’s (errorCalls)' },
  errorCalls: [
    {
      label: 'GetTask of an unknown task: NOT_FOUND (5)',
      client: goFactory('card'),
      grpc: GO_GRPC,
      ops: {
        get: {
          taskId: 'no-such-task',
          error: /^gRPC error for getTask: 5 failed to get task: task not found$/,
          spanAttributes: { 'rpc.grpc.status_code': 5 },
          spanStatusMessage: /NOT_FOUND/,
        },
      },
    },
  ],
  sameBytes: {
    probes: [],
    calls: [
      {
        label: 'LegacyGrpcTransport: send, stream, GetTask of an unknown task',
        client: goLegacy,
        ops: { send: {}, stream: {}, get: { taskId: 'no-such-task', error: /task not found/ } },
      },
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label:
          'ClientFactory (gRPC) send + stream: FAILED "unknown skill: translate"; the GetTask of that task judged under its skill',
        client: goFactory('card'),
        grpc: GO_GRPC,
        ops: {
          send: {
            state: 'failed',
            statusText: 'unknown skill: translate',
            spanState: 'TASK_STATE_FAILED',
          },
          stream: { spanState: 'TASK_STATE_FAILED' },
          get: {
            state: 'failed',
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.lifecycle.negotiation_known': true },
          },
        },
        says: { value: 'words', source: `${GO_PEER}:119` },
        verdict: 'unknown_skill',
        evidence: 'protocol',
      },
      {
        label: 'LegacyGrpcTransport send + stream',
        client: goLegacy,
        grpc: GO_GRPC,
        ops: { send: { state: 'failed' }, stream: {} },
        says: { value: 'words', source: `${GO_PEER}:119` },
        verdict: 'unknown_skill',
      },
      ...(
        [
          ['error', 13, 'unknown skill: translate: invalid params', 'invalid_params'],
          [
            'unsupported',
            12,
            'unknown skill: translate: this operation is not supported',
            'unknown_skill',
          ],
        ] as const
      ).map(([unknownSkill, code, details, verdict]) => ({
        label: `Execute returns the error (UNKNOWN_SKILL=${unknownSkill}): gRPC ${code} "${details}" (unary and stream)`,
        deploy: { unknownSkill },
        client: goFactory('card'),
        grpc: GO_GRPC,
        ops: {
          send: {
            error: new RegExp(details),
            spanAttributes: { 'rpc.grpc.status_code': code },
            spanStatusMessage: new RegExp(`with (error )?${code}`),
          },
          stream: { error: /./, spanAttributes: { 'rpc.grpc.status_code': code } },
        },
        says: { value: 'words' as const, source: `${GO_PEER}:48-49 toGRPCError` },
        verdict,
        evidence: 'protocol' as const,
        errorSpan: true,
      })),
      {
        label:
          'a plain errors.New("unknown skill: translate"): INTERNAL (13) with the text (JSON-RPC hides it)',
        deploy: { unknownSkill: 'plain' },
        client: goLegacy,
        grpc: GO_GRPC,
        ops: {
          send: {
            error: /^gRPC error for sendMessage: 13 unknown skill: translate$/,
            spanAttributes: { 'rpc.grpc.status_code': 13 },
          },
          stream: {
            error: /13 unknown skill: translate/,
            spanAttributes: { 'rpc.grpc.status_code': 13 },
          },
        },
        says: { value: 'words', source: 'the gRPC status carries a plain error’s text' },
        verdict: 'unknown_skill',
        rpcCode: 13,
        errorSpan: true,
      },
    ],
    still: {
      label: 'ClientFactory (gRPC) send summarize',
      client: goFactory('card'),
      ops: { send: { state: 'completed' } },
    },
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label: 'ClientFactory (gRPC) send + stream: a file part image/png',
        client: goFactory('card'),
        grpc: GO_GRPC,
        ops: { send: { state: 'completed', part: { mediaType: 'image/png' } }, stream: {} },
        mediaType: 'image/png',
        expectedModes: ['text/plain'],
      },
      {
        label: 'LegacyGrpcTransport send + stream',
        client: goLegacy,
        grpc: GO_GRPC,
        ops: { send: {}, stream: {} },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: goGrpcQuirks,
};

const ADK_JS_FUNCTIONS = '@google/adk 2.0.0 dist/cjs/agents/functions.js:396';
const ADK_TOOLS_DICT = 'Function translate is not found in the toolsDict.';
/** Google ADK's JS peer seen through its agent `desk` (studio at its own base path beside it). */
async function startAdkJs(d: { variant: string }, same?: Peer): Promise<Peer> {
  const p = await startAdkPeer({ variant: d.variant as 'healthy' | 'A' | 'B', port: same?.port });
  return {
    ...p,
    baseUrl: p.baseUrl('desk'),
    cardUrl: p.cardUrl('desk'),
    rpcUrl: p.rpcUrl('desk'),
    studioCardUrl: p.cardUrl('studio'),
    studioRpcUrl: p.rpcUrl('studio'),
  } as Peer;
}
const adkJs: Row = {
  id: 'node-adk',
  name: 'Google ADK server (`@google/adk` 2.0.0 `toA2a` / `A2AAgentExecutor`, two LlmAgents on a scripted `BaseLlm`)',
  agentCode: 'test/real-world/adk/',
  unavailable: packageMissing('adk', '@google/adk'),
  start: startAdkJs,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC send / stream at `{basePath}/jsonrpc` (`@a2a-js/sdk` 0.3 server); tool calls and results streamed as artifacts, data parts marked `adk_type`',
      source: 'test/fixtures/adk/README.md',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in 0.3 mode and raw fetch; the skill id in `message.metadata.skillId`, or named in a data part (a test of its own)',
      source: 'the card is a 0.3 card',
    },
    card: {
      value:
        '`{basePath}/.well-known/agent-card.json` per agent, skills `<agent>` ("model") + `<agent>-<tool>` named after the tool, defaults `["text"]`',
      source: 'test/fixtures/adk/card.json',
    },
    judged: {
      value:
        'healthy tool calls: no drift (the marked parts are intermediate); removed tool: FAILED `Function translate is not found in the toolsDict.` → `unknown_skill` for `desk-translate` (the tool named by the skill’s name); an image where the card says text → `output_mode_mismatch` `image/png`; `card_changed` on re-fetch; skill named in a data part; the second agent judged against its own card',
      source: ADK_JS_FUNCTIONS,
    },
    fixtures: 'test/fixtures/adk/',
  },
  card: {
    protocol: '0.3',
    skills: [
      ['desk', undefined],
      ['desk-summarize', undefined],
      ['desk-translate', undefined],
    ],
    fields: (p) => ({
      protocolVersion: '0.3.0',
      version: '1.0.0',
      url: `${p.origin}/desk/jsonrpc`,
      defaultOutputModes: ['text'],
      skills: [{ name: 'model' }, { name: 'summarize' }, { name: 'translate' }],
    }),
  },
  skills: {
    send: 'desk-summarize',
    stream: 'desk-summarize',
    prompts: { 'desk-summarize': PROMPTS.summarize, 'desk-translate': 'translate: Hello world' },
  },
  capabilities: {
    streaming: { value: true, source: 'the card’s capabilities.streaming' },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: 'toA2a serves JSON-RPC (and REST) only' },
    variantB: {
      value: 'file',
      source:
        'test/real-world/adk/peer.mjs: variant B answers with an image/png inline part, sent as a file part',
    },
  },
  healthy: [
    {
      label:
        'raw 0.3 message/send + message/stream: function_call / function_response data parts, then the text',
      client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          artifacts: 3,
          part: { kind: 'text', text: SUMMARY },
          wire: /"adk_type":"function_call"[\s\S]*"adk_type":"function_response"/,
        },
        stream: {
          state: 'completed',
          // task, working, function_call, function_response, two partial texts, the aggregated text, completed
          events: [
            'task',
            'status',
            'artifact',
            'artifact',
            'artifact',
            'artifact',
            'artifact',
            'status',
          ],
        },
      },
    },
    {
      label: 'SDK 0.3 mode on the card the app fetched',
      client: sdk03('card'),
      protocol: '0.3',
      ops: {
        send: { state: 'completed', artifacts: 3 },
        stream: { state: 'completed', minEvents: 6 },
      },
    },
  ],
  errors: [
    rpcProbe(
      'tasks/get of an unknown task',
      'rpcUrl',
      'tasks/get',
      () => ({ id: 'no-such-task' }),
      {
        status: 200,
        body: /"error"/,
        span: { name: 'GetTask', error: true },
      },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe('tasks/get unknown', 'rpcUrl', 'tasks/get', (tag) => ({ id: `${tag}-none` }), {
        status: 200,
        body: /"error"/,
      }),
    ],
  },
  variantA: {
    gone: 'desk-translate',
    left: ['desk', 'desk-summarize'],
    paths: [
      {
        label: 'SDK 0.3 mode holding the healthy card: FAILED with ADK’s words',
        client: sdk03('card'),
        ops: { send: { state: 'failed', statusText: ADK_TOOLS_DICT } },
        says: {
          value: 'words',
          source: `${ADK_JS_FUNCTIONS}: "Function <tool> is not found in the toolsDict." (the tool name, not the skill id)`,
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label: 'raw 0.3 message/stream: the failed final status-update',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
        ops: {
          stream: {
            state: 'failed',
            wire: /"parts":\[\{"kind":"text","text":"Function translate is not found in the toolsDict\."\}\][\s\S]*"adk_error_code":"UNKNOWN_ERROR"/,
          },
        },
        says: { value: 'words', source: ADK_JS_FUNCTIONS },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
    ],
    still: {
      label: 'SDK send desk-summarize',
      client: sdk03('card'),
      ops: { send: { state: 'completed' } },
    },
  },
  secondAgent: {
    cardUrl: 'studioCardUrl',
    rpcUrl: 'studioRpcUrl',
    skill: 'studio-render',
    prompt: 'render: a red house',
  },
  variantB: {
    skill: 'desk-summarize',
    paths: [
      {
        label: 'SDK 0.3 mode holding the healthy card: an image/png artifact',
        client: sdk03('card'),
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'raw', mediaType: 'image/png' },
            spanAttributes: { 'a2a.drift.actual_media_types': ['image/png'] },
          },
        },
        mediaType: 'image/png',
      },
      {
        label: 'raw 0.3 message/stream: a file part image/png',
        client: { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' },
        ops: {
          stream: {
            state: 'completed',
            wire: /"kind":"artifact-update"[^\n]*"parts":\[\{"kind":"file","file":\{[^}]*"mimeType":"image\/png"/,
            spanAttributes: { 'a2a.drift.actual_media_types': ['image/png'] },
          },
        },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: adkJsQuirks,
};

const VOLT_PEER = 'test/real-world/voltagent/peer.mjs';
const VOLT_NO_TOOL =
  "Model tried to call unavailable tool 'translate'. Available tools: summarize-v2.";
/** A VoltAgent server seen through its agent `summarizer` (`helper` beside it on the origin). */
async function startVoltAgent(d: { variant: string }, same?: Peer): Promise<Peer> {
  const p = await startVoltAgentPeer({
    variant: d.variant as 'healthy' | 'A' | 'B',
    port: same?.port,
  });
  return {
    ...p,
    cardUrl: p.cardUrl('summarizer'),
    baseUrl: p.cardUrl('summarizer'),
    cardPath: '',
    rpcUrl: p.rpcUrl('summarizer'),
    helperCardUrl: p.cardUrl('helper'),
    helperRpcUrl: p.rpcUrl('helper'),
  } as Peer;
}
const raw03volt = { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' } as const;
/** the record separator VoltAgent puts before each SSE event's JSON */
const RS = String.fromCharCode(0x1e);
const voltagent: Row = {
  id: 'node-voltagent',
  name: 'VoltAgent (`@voltagent/core` 2.10, `@voltagent/a2a-server` 2.0.3)',
  agentCode: 'test/real-world/voltagent/',
  unavailable: packageMissing('voltagent', '@voltagent/core'),
  start: startVoltAgent,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/a2a/{agentId}`, kind-less Tasks, `\\x1e` SSE snapshots, JSON-RPC errors over HTTP 400',
      source: 'test/fixtures/voltagent/README.md',
    },
    clients: {
      value:
        'raw fetch with 0.2/0.3 bodies (the skill id in `message.metadata.skillId`); the `@a2a-js/sdk` client refuses its kind-less Task (a test of its own)',
      source: 'test/fixtures/voltagent/',
    },
    card: {
      value:
        '`/.well-known/{agentId}/agent-card.json`, no `protocolVersion`, skills = the agent’s tools without modes, defaults `["text"]`',
      source: 'test/fixtures/voltagent/card.json',
    },
    judged: {
      value:
        "COMPLETED `unavailable tool 'x'`, -32603 over HTTP 400, stream error event, the FAILED task polled later → `unknown_skill`; words naming another tool: no verdict; `card_changed`; then `skill_not_in_card`; the second agent never judged against the first’s card. Variant B not expressible (no per-skill modes)",
      source: 'ai/src/error/no-such-tool-error.ts (the AI SDK’s NoSuchToolError text)',
    },
    fixtures: 'test/fixtures/voltagent/',
  },
  card: {
    protocol: undefined,
    skills: [
      ['summarize-v2', undefined],
      ['translate', undefined],
    ],
    fields: () => ({
      protocolVersion: undefined,
      defaultOutputModes: ['text'],
      defaultInputModes: ['text'],
    }),
  },
  skills: {
    send: 'summarize-v2',
    stream: 'summarize-v2',
    prompts: { 'summarize-v2': 'The quick brown fox jumps', translate: 'Hello world' },
  },
  capabilities: {
    streaming: { value: true, source: 'the card’s capabilities.streaming' },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: '@voltagent/a2a-server serves JSON-RPC only' },
    variantB: {
      value: 'none',
      source:
        'no skill has inputModes/outputModes; defaultOutputModes is always ["text"]; text parts carry no media type',
    },
  },
  healthy: [
    {
      label: 'raw 0.3 message/send + message/stream (`data: \\x1e{json}` events)',
      client: raw03volt,
      ops: {
        send: {
          state: 'completed',
          statusMatch: /^# Summary/,
          spanAttributes: { 'gen_ai.agent.name': 'summarizer', 'a2a.method.name': 'SendMessage' },
        },
        stream: { state: 'completed', wire: new RegExp(`^data: ${RS}\\{`), countsEvents: true },
      },
    },
  ],
  errors: [
    rpcProbe(
      'a data part where the CURRENT card says text only: -32602 over HTTP 400 (a client error, not drift)',
      'rpcUrl',
      'message/send',
      (tag) => ({
        message: {
          kind: 'message',
          role: 'user',
          messageId: `${tag}-data`,
          parts: [{ kind: 'data', data: { text: 'x' } }],
          metadata: { skillId: 'summarize-v2' },
        },
      }),
      {
        status: 400,
        body: /^\{"jsonrpc":"2.0","id":7,"error":\{"code":-32602,"message":"Only plain text message parts are supported","data":\{\}\}\}$/,
        span: { name: 'SendMessage', error: true, attributes: { 'error.type': '-32602' } },
      },
    ),
    rpcProbe(
      'tasks/get of an unknown task: -32001 over HTTP 400',
      'rpcUrl',
      'tasks/get',
      () => ({ id: 'missing' }),
      {
        status: 400,
        body: /"code":-32001/,
        span: { name: 'GetTask', error: true, attributes: { 'error.type': '-32001' } },
      },
    ),
    rpcProbe(
      'tasks/resubscribe (it has none): a JSON -32601 (HTTP 400) where a stream was expected',
      'rpcUrl',
      'tasks/resubscribe',
      () => ({ id: 'missing' }),
      {
        status: 400,
        contentType: 'application/json',
        body: /"code":-32601/,
        span: { name: 'SubscribeToTask', error: true, attributes: { 'error.type': '-32601' } },
      },
      { stream: true },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe('send', 'rpcUrl', 'message/send', (tag) => m03('Same input', 'summarize-v2', tag), {
        status: 200,
      }),
      rpcProbe(
        'stream (its \\x1e framing kept)',
        'rpcUrl',
        'message/stream',
        (tag) => m03('Same input', 'translate', tag),
        { status: 200, body: new RegExp(`data: ${RS}\\{`) },
        { stream: true },
      ),
      rpcProbe('tasks/get unknown', 'rpcUrl', 'tasks/get', () => ({ id: 'nope' }), { status: 400 }),
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize-v2'],
    paths: [
      {
        label: 'message/send: COMPLETED, the text says the tool is unavailable',
        client: raw03volt,
        ops: {
          send: {
            state: 'completed',
            statusText: VOLT_NO_TOOL,
            spanAttributes: { 'error.type': 'StaleAgentCardError' },
          },
        },
        says: {
          value: 'words',
          source:
            'ai/src/error/no-such-tool-error.ts, the text VoltAgent puts in the COMPLETED task',
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label: 'message/stream: COMPLETED with the same words',
        client: raw03volt,
        ops: { stream: { state: 'completed', wire: /unavailable tool 'translate'/ } },
        says: { value: 'words', source: 'as above' },
        verdict: 'unknown_skill',
      },
      {
        label: 'the model fails on the missing tool: JSON-RPC -32603 over HTTP 400 naming it',
        client: raw03volt,
        prompt: '[strict] Hello world',
        ops: { send: { error: /^-32603 .*unavailable tool 'translate'/ } },
        says: {
          value: 'words',
          source: `${VOLT_PEER}: [strict] throws the AI SDK's NoSuchToolError`,
        },
        verdict: 'unknown_skill',
        rpcCode: -32603,
      },
      {
        label: 'the model fails mid-stream: error event -32603; the FAILED task polled later',
        client: raw03volt,
        prompt: '[strict] Hello world',
        ops: {
          stream: { error: /^-32603 /, minEvents: 2 },
          get: {
            state: 'failed',
            wire: /unavailable tool 'translate'/,
            spanState: 'TASK_STATE_FAILED',
          },
        },
        says: { value: 'words', source: 'as above, then the task FAILED with the text' },
        verdict: 'unknown_skill',
      },
    ],
    still: {
      label: 'message/send summarize-v2',
      client: raw03volt,
      ops: { send: { statusMatch: /^# Summary/ } },
    },
    namesAnother: [
      {
        label:
          'summarize-v2 whose model calls translate: COMPLETED naming translate, and -32603 naming it',
        client: raw03volt,
        prompt: '[call:translate] Hello world',
        ops: { send: { statusMatch: /unavailable tool 'translate'/ } },
      },
      {
        label: 'the same, [strict]: -32603 over HTTP 400 naming translate',
        client: raw03volt,
        prompt: '[strict] [call:translate] Hello world',
        ops: { send: { error: /unavailable tool 'translate'/ } },
      },
    ],
    afterRefetch: {
      label: 'message/send translate with the new card',
      client: raw03volt,
      ops: { send: {} },
    },
  },
  secondAgent: {
    cardUrl: 'helperCardUrl',
    rpcUrl: 'helperRpcUrl',
    skill: 'lookup',
    prompt: 'volt',
    agentName: 'helper',
  },
  variantB: {
    na: 'not expressible: VoltAgent cards carry no per-skill modes and defaultOutputModes is always ["text"] (only card_changed could show it; the row’s own test shows it is not flagged)',
  },
  quirks: voltagentQuirks,
};

const MASTRA_PEER = 'test/real-world/mastra/peer.mjs';
/** Mastra seen through its agent `assistant` (`helper` beside it on the origin), on Node 22. */
async function startMastra(d: { variant: string }, same?: Peer): Promise<Peer> {
  const p = await startMastraPeer({ variant: d.variant as 'healthy' | 'A', port: same?.port });
  return {
    ...p,
    cardUrl: p.cardUrl('assistant'),
    rpcUrl: p.rpcUrl('assistant'),
    helperCardUrl: p.cardUrl('helper'),
    helperRpcUrl: p.rpcUrl('helper'),
  } as Peer;
}
/** Why the Mastra row cannot run: its package, or a Node >= 22.13 (node22.sh). */
function mastraUnavailable(): string | undefined {
  const missing = packageMissing('mastra', '@mastra/core')();
  if (missing) return missing;
  try {
    node22();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
const raw03m = { kind: 'jsonrpc', version: '0.3', endpoint: 'rpcUrl' } as const;
const raw10slash = {
  kind: 'jsonrpc',
  version: '1.0',
  endpoint: 'rpcUrl',
  slashNames: true,
} as const;
const STALE = { 'error.type': 'StaleAgentCardError', 'a2a.task.state': 'TASK_STATE_COMPLETED' };
const mastra: Row = {
  id: 'node-mastra',
  name: 'Mastra (`@mastra/core` 1.71, `@mastra/server` 1.67, Node 22)',
  agentCode: 'test/real-world/mastra/',
  unavailable: mastraUnavailable,
  start: startMastra,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/api/a2a/{agentId}` (1.0 shapes with `A2A-Version: 1.0`, slash method names); its peer on Node 22 (Mastra needs >= 22.13)',
      source: 'test/fixtures/mastra/README.md; test/real-world/mastra/node22.sh',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 in 0.3 mode and raw fetch (0.3, and 1.0 shapes under the slash names); the skill id in `message.metadata.skillId`',
      source: 'test/fixtures/mastra/',
    },
    card: {
      value:
        '`/api/.well-known/{agentId}/agent-card.json`, one per agent: protocolVersion 0.3.0, version always "1.0", skills = the tools without modes, defaults `["text/plain"]`',
      source: 'test/fixtures/mastra/card.json',
    },
    judged: {
      value:
        'removed tool: COMPLETED task `Tool "x" not found` → `unknown_skill` (send; stream in word chunks; SDK client; 1.0 shapes); words naming another tool: no verdict; `card_changed` on re-fetch; then `skill_not_in_card`; another agent on the origin unaffected; -32001, -32009, HTTP 400 and a provider failure: error spans. Variant B not expressible',
      source: `${MASTRA_PEER}: Mastra's tool-not-found text in a COMPLETED task`,
    },
    fixtures: 'test/fixtures/mastra/',
  },
  card: {
    protocol: '0.3',
    skills: [
      ['summarize-v2', undefined],
      ['translate', undefined],
    ],
    fields: (p) => ({
      protocolVersion: '0.3.0',
      url: endpoint(p, 'rpcUrl'),
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
    }),
    spanAttributes: (p) => ({
      'gen_ai.agent.name': 'assistant',
      'gen_ai.agent.version': '1.0',
      'server.port': p.port,
    }),
  },
  skills: {
    send: 'translate',
    stream: 'translate',
    prompts: {
      translate: 'skill:translate hello world from Prague',
      'summarize-v2': 'skill:summarize-v2 one two three four five six',
    },
  },
  capabilities: {
    streaming: { value: true, source: 'the card’s capabilities.streaming' },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: '@mastra/server serves JSON-RPC only' },
    variantB: {
      value: 'none',
      source: 'no per-skill modes, fixed text/plain defaults, parts without a media type',
    },
  },
  healthy: [
    {
      label: 'raw 0.3 message/send, tasks/get of its task, message/stream in word chunks',
      client: raw03m,
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: 'Traduction: hello world from Prague' },
          spanAttributes: { 'gen_ai.agent.name': 'assistant' },
        },
        stream: {
          state: 'completed',
          firstEvent: 'task',
          countsEvents: true,
          wire: /"text":"Traduction: "[\s\S]*"text":"hello "[\s\S]*"text":"world "[\s\S]*"text":"from "[\s\S]*"text":"Prague"/,
        },
        get: { state: 'completed', spanAttributes: { 'a2a.lifecycle.negotiation_known': true } },
      },
    },
    {
      label: 'SDK 0.3 mode on the card the app fetched',
      client: sdk03('card'),
      ops: { send: { state: 'completed', part: { kind: 'text' } }, stream: { minEvents: 4 } },
    },
    {
      label: 'A2A-Version: 1.0 (the slash method names kept, 1.0 shapes: a part without mediaType)',
      client: raw10slash,
      ops: {
        send: {
          state: 'completed',
          wire: /"parts":\[\{"text":"Traduction: hello world from Prague"\}\]/,
        },
        stream: { state: 'completed' },
      },
    },
  ],
  errors: [
    rpcProbe(
      'tasks/get of an unknown task (-32001 at HTTP 200)',
      'rpcUrl',
      'tasks/get',
      () => ({ id: 'no-such-task' }),
      {
        status: 200,
        body: /"code":-32001/,
        span: { name: 'GetTask', error: true, attributes: { 'error.type': '-32001' } },
      },
    ),
    httpProbe(
      'A2A-Version: 2.0 (-32009)',
      '',
      {
        status: 200,
        body: /"code":-32009/,
        span: { name: 'SendMessage', error: true, attributes: { 'error.type': '-32009' } },
      },
      {
        base: 'rpcUrl',
        headers: { 'A2A-Version': '2.0' },
        body: (tag) => ({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: m03('skill:translate x', 'translate', tag),
        }),
      },
    ),
    httpProbe(
      'a schema error (role "robot"): HTTP 400',
      '',
      {
        status: 400,
        body: /"error":"Invalid request body"/,
        span: { name: 'SendMessage', error: true, attributes: { 'error.type': '400' } },
      },
      {
        base: 'rpcUrl',
        body: (tag) => ({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: { ...m03('skill:translate x', 'translate', tag).message, role: 'robot' },
          },
        }),
      },
    ),
  ],
  errorCalls: [
    {
      label: 'the agent run throws (a provider failure): -32603 on send',
      client: raw03m,
      prompt: 'model:throw skill:translate x',
      ops: {
        send: {
          error: /^-32603 mock model failure \(model:throw\)$/,
          spanAttributes: { 'error.type': '-32603' },
        },
      },
    },
    {
      label:
        'the agent run throws: a FAILED "Handler failed: …" stream (a task state, not an error status)',
      client: raw03m,
      prompt: 'model:throw skill:translate x',
      errorSpan: false,
      ops: {
        stream: {
          state: 'failed',
          wire: /"text":"Handler failed: mock model failure \(model:throw\)"/,
          spanAttributes: { 'a2a.task.state': 'TASK_STATE_FAILED' },
        },
      },
    },
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      rpcProbe(
        'send',
        'rpcUrl',
        'message/send',
        (tag) => m03('skill:translate hello world from Prague', 'translate', tag),
        { status: 200 },
      ),
      rpcProbe(
        'stream',
        'rpcUrl',
        'message/stream',
        (tag) => m03('skill:summarize-v2 one two three four five', 'summarize-v2', tag),
        { status: 200 },
        { stream: true },
      ),
      rpcProbe('tasks/get unknown', 'rpcUrl', 'tasks/get', () => ({ id: 'no-such-task' }), {
        status: 200,
      }),
    ],
    calls: [
      { label: 'SDK 0.3 mode send + stream', client: sdk03('card'), ops: { send: {}, stream: {} } },
    ],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize-v2'],
    paths: [
      {
        label: 'message/send: a COMPLETED task saying Tool "translate" not found',
        client: raw03m,
        ops: {
          send: {
            state: 'completed',
            wire: /"text":"Tool \\"translate\\" not found\. Available tools: summarize-v2\./,
            spanAttributes: STALE,
          },
        },
        says: {
          value: 'words',
          source: `${MASTRA_PEER}; test/fixtures/mastra/ (Mastra's "Tool \\"x\\" not found", no JSON-RPC error)`,
        },
        verdict: 'unknown_skill',
        errorSpan: true,
      },
      {
        label:
          'message/stream: the words in word chunks ("Tool ", "\\"translate\\" ", "not ", "found. ")',
        client: raw03m,
        ops: {
          stream: {
            state: 'completed',
            wire: /"text":"Tool "[\s\S]*"text":"\\"translate\\" "[\s\S]*"text":"not "[\s\S]*"text":"found\. "/,
            spanAttributes: STALE,
          },
        },
        says: { value: 'words', source: 'as above, streamed word by word' },
        verdict: 'unknown_skill',
      },
      {
        label: 'the SDK client holding the old card',
        client: sdk03('card'),
        ops: { send: { state: 'completed' } },
        says: { value: 'words', source: 'as above' },
        verdict: 'unknown_skill',
      },
      {
        label: 'A2A-Version: 1.0 send and stream',
        client: raw10slash,
        ops: {
          send: { state: 'completed', wire: /"text":"Tool \\"translate\\" not found/ },
          stream: {},
        },
        says: { value: 'words', source: 'as above, in 1.0 shapes' },
        verdict: 'unknown_skill',
      },
    ],
    still: {
      label: 'message/send summarize-v2',
      client: raw03m,
      ops: { send: { state: 'completed' } },
    },
    afterRefetch: {
      label: 'message/send translate with the new card',
      client: raw03m,
      ops: { send: {} },
    },
    namesAnother: [
      {
        label:
          'summarize-v2 steered to translate (gone): the text names translate, lists summarize-v2',
        client: raw03m,
        prompt: 'skill:translate hello',
        ops: {
          send: {
            wire: /"text":"Tool \\"translate\\" not found\. Available tools: summarize-v2\./,
          },
        },
      },
      {
        label:
          'on the healthy agent, summarize-v2 steered to weather: "Tool \\"weather\\" not found", send and stream',
        on: 'healthy',
        client: raw03m,
        prompt: 'skill:weather in Prague',
        ops: {
          send: {
            wire: /"text":"Tool \\"weather\\" not found\. Available tools: summarize-v2, translate\./,
          },
          stream: {},
        },
      },
    ],
  },
  secondAgent: {
    cardUrl: 'helperCardUrl',
    rpcUrl: 'helperRpcUrl',
    skill: 'lookup',
    prompt: 'skill:lookup drift',
    agentName: 'helper',
  },
  variantB: {
    na: 'not expressible: Mastra cards carry no per-skill modes and fixed text/plain defaults, and its parts carry no media type (the row’s own test shows it)',
  },
  quirks: mastraQuirks,
};

/** The rows the conformance suite runs. */
const CREWAI_PEER = 'test/real-world/python/crewai/peer.py';
/** crewAI's own client convention: the skill id in `params.message.metadata.skill_id` */
const crewRpc = {
  kind: 'jsonrpc',
  version: '0.3',
  endpoint: 'rpcUrl',
  skillKey: 'skill_id',
} as const;
/** crewAI's ToolUsage error (ReAct), up to where it appends its retry prompt */
const CREWAI_REACT_MISSING =
  "I encountered an error: Action 'translate' don't exist, these are the only available Actions:\n" +
  'Tool Name: summarize\nTool Arguments: {\n  "properties": {\n    "text": {\n      "title": "Text",\n' +
  '      "type": "string"\n    }\n  },\n  "required": [\n    "text"\n  ],\n  "title": "Summarize",\n' +
  '  "type": "object",\n  "additionalProperties": false\n}\nTool Description: Summarise a text in one sentence.';
/** a completed status with no message */
const CREWAI_BARE_STATUS = /"status":\{"state":"completed"(,"timestamp":"[^"]*")?\}/;
const crewai: Row = {
  id: 'python-crewai',
  name: 'crewAI (`crewai[a2a]` 1.15.30: its `to_agent_card` and task execution on `a2a-sdk` 0.3.26; a scripted `BaseLLM`)',
  agentCode: 'test/real-world/python/crewai/',
  unavailable: venvMissing('crewai', crewaiInstalled),
  start: (d, same) =>
    startCrewAIPeer({
      variant: d.variant as 'healthy' | 'A',
      port: same?.port,
      // the LLM mode: crewAI's ReAct text protocol (default) or native function calling
      mode: d.opts?.mode as 'react' | 'function-calling' | undefined,
    }),
  agentPython: CREWAI_PYTHON,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/` (crewAI 1.15 has no A2A HTTP app of its own: its card and task execution served by the reference a2a-sdk 0.3 Starlette app, as its users do)',
      source: `${CREWAI_PEER}; crewai/a2a/utils/task.py \`execute\``,
    },
    clients: {
      value:
        'raw fetch, the skill id where crewAI’s own client puts it: `params.message.metadata.skill_id`',
      source:
        'crewAI’s delegation API `skill_id=` argument (docs/framework-survey.md, crewAI: skill ids and client)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, 0.3 card (`to_agent_card`), skills = the tools (id = name, tags [name], no modes), defaults `text/plain`, `application/json`',
      source: 'test/fixtures/crewai-live/card.json',
    },
    judged: {
      value:
        'healthy send / stream: no drift. A removed tool never fails the task: ReAct answers COMPLETED with ToolUsage’s "Action \'translate\' don\'t exist" → the words a suspicion the card fetched again confirms, `unknown_skill` (evidence `card`, suspicion `words`); native function calling answers COMPLETED with "Tool not found", naming nothing → no verdict at the call, caught by revalidation (`card_changed`, then `skill_not_in_card`); `card_changed` on re-fetch. Variant B not built',
      source:
        'crewai/tools/tool_usage.py (ReAct: "Action \'X\' don\'t exist"); crewAI’s AgentExecutor (native function calling: the tool message "Tool not found"); test/fixtures/crewai-live/',
    },
    fixtures: 'test/fixtures/crewai-live/',
  },
  card: {
    protocol: '0.3',
    skills: [
      ['summarize', undefined],
      ['translate', undefined],
    ],
    fields: (p) => ({
      protocolVersion: '0.3.0',
      version: '1.0.0',
      url: `${p.origin}/`,
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [
        { name: 'summarize', tags: ['summarize'] },
        { name: 'translate', tags: ['translate'] },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: {
      value: true,
      source: 'the card’s capabilities (test/fixtures/crewai-live/card.json)',
    },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: 'served by the a2a-sdk 0.3 JSON-RPC Starlette app only' },
    variantB: {
      value: 'none',
      source:
        'peer.py has no variant B: crewAI sends the final answer as one text artifact (a data part for a dict / BaseModel output, not scripted here)',
    },
  },
  healthy: [
    {
      label: 'raw 0.3 message/send and message/stream, the skill in message.metadata.skill_id',
      client: crewRpc,
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: SUMMARY },
          artifacts: 1,
          answer: SUMMARY,
          wire: CREWAI_BARE_STATUS,
        },
        stream: { state: 'completed', events: ['task'] },
      },
    },
  ],
  errors: [unknownTaskProbe('rpcUrl')],
  sameBytes: { probes: [cardProbe(), unknownTaskProbe('rpcUrl', true)] },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label:
          "ReAct: raw 0.3 message/send, COMPLETED with crewAI’s \"Action 'translate' don't exist\" as the answer; the card fetched again confirms",
        deploy: { mode: 'react' },
        client: crewRpc,
        ops: {
          send: {
            state: 'completed',
            artifacts: 1,
            answer: CREWAI_REACT_MISSING,
            wire: CREWAI_BARE_STATUS,
            spanState: 'TASK_STATE_COMPLETED',
          },
        },
        says: {
          value: 'words',
          source:
            "crewai/tools/tool_usage.py `ToolUsage`: the observation \"I encountered an error: Action 'translate' don't exist, …\", repeated by the model; the task COMPLETES",
        },
        verdict: 'unknown_skill',
        evidence: 'card',
        suspicion: 'words',
        confirmed: true,
        afterRevalidation: 'unknown_skill',
      },
      {
        label:
          'native function calling: raw 0.3 message/send, COMPLETED with "Tool not found" (naming nothing): no verdict at the call',
        deploy: { mode: 'function-calling' },
        client: crewRpc,
        ops: {
          send: {
            state: 'completed',
            artifacts: 1,
            answer: 'Tool not found',
            wire: CREWAI_BARE_STATUS,
            spanState: 'TASK_STATE_COMPLETED',
          },
        },
        says: {
          value: 'silence',
          source:
            'crewAI’s AgentExecutor answers a native call of an unknown tool with the tool message "Tool not found" (no name), repeated by the model; the task COMPLETES',
        },
        verdict: 'none',
        afterRevalidation: 'skill_not_in_card',
      },
    ],
    still: {
      label: 'raw 0.3 message/send summarize',
      client: crewRpc,
      ops: { send: { state: 'completed', answer: SUMMARY } },
    },
  },
  variantB: {
    na: 'not built: peer.py has no variant B (crewAI sends the final answer as one text artifact, a data part for a dict / BaseModel output, docs/framework-survey.md; no such output is scripted here)',
  },
  quirks: crewaiQuirks,
};

const AGNO_PEER = 'test/real-world/python/agno/peer.py';
const agnoSend = { kind: 'jsonrpc', version: '0.3', endpoint: 'sendUrl' } as const;
const agnoStream = { kind: 'jsonrpc', version: '0.3', endpoint: 'streamUrl' } as const;
const agno: Row = {
  id: 'python-agno',
  name: 'Agno AgentOS (`agno[os,a2a]` 3.1.10 with `a2a_interface=True`, on `a2a-sdk` 0.3.26; a scripted `Model`)',
  agentCode: 'test/real-world/python/agno/',
  unavailable: venvMissing('agno', agnoInstalled),
  start: (d, same) =>
    startAgnoPeer({ variant: d.variant as 'healthy' | 'A' | 'B', port: same?.port }),
  agentPython: AGNO_PYTHON,
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC per agent under `/a2a/agents/<id>/`: `…/v1/message:send` (JSON) and `…/v1/message:stream` (SSE `event: <Name>` blocks), each its own route',
      source: 'agno/os/interfaces/a2a/router.py; test/fixtures/agno-live/',
    },
    clients: {
      value:
        'raw fetch to each route, the skill id (`desk`) in `message.metadata.skillId`; `@a2a-js/sdk` 1.3 in its 0.3 mode from the card (its send posts to the card’s streaming `url` and gets HTTP 400: a row quirk)',
      source: 'the card’s `url` is the streaming route (test/fixtures/agno-live/card.json)',
    },
    card: {
      value:
        '`/a2a/agents/desk/.well-known/agent-card.json` (none at the origin), 0.3 card, `url` = `…/v1/message:stream`; ONE skill, the agent (`desk`, outputModes `["application/json"]`), not its tools',
      source: 'agno/os/interfaces/a2a/router.py; test/fixtures/agno-live/card.json',
    },
    judged: {
      value:
        'the card’s `url` names one operation route, so it speaks for its sibling `…/v1/message:send`: both routes carry the fingerprint and are judged. Healthy: no drift. Variant B (an image FILE part, `image/jpeg` on send, `image/*` on stream, where the skill says `application/json`) → `output_mode_mismatch` on both routes. Variant A not caught: the answer names no tool and the card (one skill, the agent) never changes',
      source: `${AGNO_PEER}; test/fixtures/agno-live/`,
    },
    fixtures: 'test/fixtures/agno-live/',
  },
  card: {
    protocol: '0.3',
    skills: [['desk', ['application/json']]],
    fields: (p) => ({
      url: endpoint(p, 'streamUrl'),
      protocolVersion: '0.3.0',
      version: '1.0.0',
      preferredTransport: 'JSONRPC',
      defaultInputModes: ['text'],
      defaultOutputModes: ['text'],
      skills: [{ tags: ['agno'] }],
    }),
    seedRaises: {
      value: /TypeError: 'NoneType' object is not iterable/,
      source:
        'the card’s skill says `"inputModes": null` (test/fixtures/agno-live/card.json): the field report’s Python `sorted(s.get("inputModes", []))` gets None, which the key’s presence does not default; the instrumentation reads null as absent',
    },
  },
  skills: { send: 'desk', stream: 'desk', prompts: { desk: PROMPTS.summarize } },
  capabilities: {
    streaming: {
      value: true,
      source: 'the card’s capabilities (test/fixtures/agno-live/card.json)',
    },
    push: { value: false, source: 'the card’s capabilities' },
    grpc: { value: false, source: 'AgentOS serves JSON-RPC routes only' },
    variantB: {
      value: 'file',
      source: `${AGNO_PEER} VARIANT=B: the agent’s output an image, which AgentOS sends as a file part`,
    },
  },
  healthy: [
    {
      label:
        'raw 0.3 message/send at `…/v1/message:send` (the card’s sibling route): COMPLETED, the text in history, no artifacts',
      client: agnoSend,
      ops: { send: { state: 'completed', answer: SUMMARY, artifacts: 0 } },
      cardFingerprint: true,
    },
    {
      label:
        'raw 0.3 message/stream at the card’s `url` (`…/v1/message:stream`): working updates naming the tool called, a Message with the text, completed, the Task',
      client: agnoStream,
      prompt: PROMPTS.translate,
      ops: {
        stream: {
          state: 'completed',
          events: ['status', 'status', 'status', 'message', 'status', 'task'],
          contentType: 'text/event-stream; charset=utf-8',
          wire: /"tool_name": "translate".*event: Message\ndata: [^\n]*"parts": \[\{"kind": "text", "text": "FR: hello"\}\]/s,
        },
      },
      cardFingerprint: true,
    },
  ],
  errors: [httpProbe('no card at the origin', '/.well-known/agent-card.json', { status: 404 })],
  sameBytes: {
    probes: [
      cardProbe(),
      httpProbe('no card at the origin', '/.well-known/agent-card.json', { status: 404 }),
    ],
  },
  variantA: {
    na: 'not expressible as a card change: the card lists ONE skill, the agent (`desk`), not its tools, so removing a tool never changes it; the answer ("Error: The requested tool does not exist or is not available.") names no tool (a row quirk keeps what it answers)',
  },
  variantB: {
    skill: 'desk',
    paths: [
      {
        label:
          'raw 0.3 message/send: an image artifact (a FILE part, image/jpeg) where the skill says application/json',
        client: agnoSend,
        ops: {
          send: {
            state: 'completed',
            artifacts: 1,
            part: { kind: 'file', mediaType: 'image/jpeg' },
            wire: /"artifacts":\[\{"artifactId":"[^"]+","description":"Generated image 0","name":"image_0","parts":\[\{"file":\{"mimeType":"image\/jpeg","uri":"https:\/\/media\.example\.invalid\/summary\.png"\},"kind":"file"\}\]\}\]/,
          },
        },
        mediaType: 'image/jpeg',
        evidence: 'protocol',
        errorSpan: true,
        cardFingerprint: true,
      },
      {
        label: 'raw 0.3 message/stream: the final Task’s artifact `image-0`, a FILE part image/*',
        client: agnoStream,
        ops: {
          stream: {
            state: 'completed',
            wire: /"name": "image-0", "parts": \[\{"file": \{"mimeType": "image\/\*", "uri": "https:\/\/media\.example\.invalid\/summary\.png"\}, "kind": "file"\}\]/,
          },
        },
        mediaType: 'image/*',
        evidence: 'protocol',
        errorSpan: true,
        cardFingerprint: true,
      },
    ],
  },
  quirks: agnoQuirks,
};

export const ROWS: Row[] = [
  pythonSdk,
  pythonAdk,
  fasta2a,
  pythonA2a,
  strands,
  agentFramework,
  langgraph,
  goJsonRpc,
  pythonSdkGrpc,
  goGrpc,
  adkJs,
  voltagent,
  mastra,
  crewai,
  agno,
];

/** Implementations known from recorded wire only (test/fixtures/), listed in the doc. */
export const RECORDED: DocOnlyRow[] = [
  {
    id: 'recorded-a2a-sdk-1x',
    name: 'Python `a2a-sdk` 1.x',
    testedAs:
      'fixtures derived from its source (PyPI was not reachable; checked against the live 1.3.0 server, `test/fixtures/a2a-python-live/`)',
    bindings: '1.0 + 0.3 JSON-RPC and HTTP+JSON, CRLF SSE',
    card: '`/.well-known/agent-card.json` (1.0 + 0.3 fields)',
    judged:
      '-32603 `unknown skill: x` → `unknown_skill` for x only; 400 google.rpc.Status `INVALID_ARGUMENT` / `INVALID_PARAMS`, also as `event: error` → `invalid_params`',
  },
  {
    id: 'recorded-fasta2a-0.5',
    name: 'fasta2a ≈0.5',
    testedAs: 'fixtures from its real app (run here; 2.1.1 live in its own row)',
    bindings: '0.2.5 JSON-RPC at `/`',
    card: '`/.well-known/agent.json`',
    judged:
      'failed task whose text is only in `history` → `unknown_skill`; typeless text against its forced `application/json` → unjudged',
  },
];
