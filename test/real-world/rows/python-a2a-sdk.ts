/**
 * The conformance table's rows of python-a2a-sdk: `pythonSdk` and `pythonSdkGrpc` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import {
  VENV_PYTHON as SDK_PYTHON,
  startPythonSdkPeer,
  venvInstalled as sdkInstalled,
} from '../python/a2a-sdk/peer-process.mjs';
import { cardProbe, httpProbe, m10, V10, messageProbe } from '../conformance/probes';
import { endpoint } from '../conformance/types';
import { a2aSdkQuirks } from './python-a2a-sdk.quirks';
import type { Row } from '../conformance/types';
import {
  venvMissing,
  PROMPTS,
  SUMMARY,
  sdk,
  TRANSPORTS,
  TEXT_SKILLS,
  grpcOk,
  fact,
  raw,
  sendCompletes,
  SETTLED_BY_CARD,
  COMPLETES_WITH_SUMMARY,
  rawPngFilePath03,
  grpcUnknownTask,
  legacyGrpcBytes,
  GRPC_FAILED_UNKNOWN_SKILL,
} from '../conformance/row-kit';
import type { RecordedExchange } from '../conformance/types';
import {
  getExchange,
  rpcExchange,
  postExchange,
  cardExchange,
  VARIANT_A_CARD,
  deployment,
} from '../conformance/row-recording';
import { REST_UNKNOWN_TASK, REST_STREAM } from '../conformance/row-probes';

const A2A_SDK_PEER = 'test/real-world/python/a2a-sdk/peer.py';

/** A recorded JSON-RPC call of the peer: 1.0 (`m10`, 1.0 headers) or 0.3 (the skill in the params' own metadata). */
function jsonRpc(
  name: string,
  note: string,
  method: string,
  text: string,
  skill: string,
  stream = false,
): RecordedExchange {
  const v10 = !method.includes('/');
  return rpcExchange(
    name,
    note,
    'jsonRpcUrl',
    method,
    (r) => (v10 ? r.m10(text, skill) : r.m03(text, skill, 'params')),
    { v10, stream },
  );
}
/** A recorded HTTP+JSON 1.0 POST of a send to the peer's REST `route`. */
function restSend(
  name: string,
  note: string,
  route: string,
  text: string,
  skill: string,
  stream = false,
): RecordedExchange {
  return postExchange(
    name,
    note,
    (p) => `${endpoint(p, 'restUrl')}${route}`,
    (r) => JSON.stringify(r.m10(text, skill)),
    { v10: true, stream },
  );
}
/**
 * Where both a2a-sdk rows' agent is and how they start peer.py: the `unknownSkill` option picks
 * how a removed skill fails, the gRPC row adds GRPC=1 and, when redeployed, the gRPC port it had
 * before.
 */
function a2aSdkAgent(
  grpc: boolean,
): Pick<Row, 'agentCode' | 'unavailable' | 'start' | 'agentPython'> {
  return {
    agentCode: `test/real-world/python/a2a-sdk/${grpc ? ' (GRPC=1)' : ''}`,
    unavailable: venvMissing('a2a-sdk', sdkInstalled),
    start: (d, same) =>
      startPythonSdkPeer({
        variant: d.variant,
        port: same?.port,
        ...(grpc && {
          grpc: true,
          grpcPort: (same as unknown as { grpcPort?: number } | undefined)?.grpcPort,
        }),
        unknownSkill: d.opts?.unknownSkill as 'status' | 'raise' | undefined,
      }),
    agentPython: SDK_PYTHON,
  };
}
/** What peer.py's card says on both bindings: AgentCapabilities(streaming=True), no push config store. */
const SDK_STREAMS_NO_PUSH = {
  streaming: fact(true, `${A2A_SDK_PEER}: AgentCapabilities(streaming=True)`),
  push: fact(false, `${A2A_SDK_PEER}: no push config store`),
};
/** The card's JSON-RPC and HTTP+JSON interfaces, 1.0 and 0.3 each (the gRPC row lists its two before them). */
const HTTP_INTERFACES = [
  { protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  { protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  { protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  { protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
];
const BAD_PARAMS = 'summarize: max_words=-1';
const A2A_V1 = { headers: { 'A2A-Version': '1.0' } };
export const pythonSdk: Row = {
  id: 'python-a2a-sdk',
  name: 'Python `a2a-sdk` 1.3.0 (the reference SDK: its Starlette routes on uvicorn, a deterministic `AgentExecutor`)',
  ...a2aSdkAgent(false),
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
      supportedInterfaces: [...HTTP_INTERFACES],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    ...SDK_STREAMS_NO_PUSH,
    grpc: fact(false, 'served by the python-a2a-sdk-grpc deployment (GRPC=1), not this one'),
    variantB: fact('raw', `${A2A_SDK_PEER}:180-181 new_raw_part(PNG, media_type="image/png")`),
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
      client: raw('1.0', 'jsonRpcUrl'),
      protocol: '1.0',
      ops: COMPLETES_WITH_SUMMARY,
    },
    {
      label: 'raw 0.3 message/send / message/stream on the same endpoint',
      client: raw('0.3', 'jsonRpcUrl'),
      protocol: '0.3',
      ops: COMPLETES_WITH_SUMMARY,
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
      messageProbe(
        'JSON-RPC 1.0 send',
        'jsonRpcUrl',
        'SendMessage',
        PROMPTS.summarize,
        'summarize',
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
        client: raw('0.3', 'jsonRpcUrl'),
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
        client: raw('1.0', 'jsonRpcUrl'),
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
        ...SETTLED_BY_CARD,
        suspicion: 'failure',
      },
    ],
    still: sendCompletes('SDK JSON-RPC send summarize', sdk('JSONRPC', 'card')),
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
      rawPngFilePath03('jsonRpcUrl'),
    ],
  },
  recording: {
    fixture: 'a2a-python-live',
    versionsOf: ['a2a-sdk', 'starlette', 'sse-starlette', 'uvicorn', 'protobuf', 'pydantic'],
    steps: [
      deployment('healthy', [
        cardExchange('card', 'GET /.well-known/agent-card.json, no A2A-Version header'),
        getExchange(
          'card.a2a-version-1.0',
          'the same with A2A-Version: 1.0 (same bytes)',
          (p) => p.cardUrl,
          A2A_V1,
        ),
        jsonRpc(
          'jsonrpc.send-message.completed',
          'JSON-RPC 1.0 SendMessage skill summarize: COMPLETED task (history: the user message and the WORKING status message)',
          'SendMessage',
          PROMPTS.summarize,
          'summarize',
        ),
        rpcExchange(
          'jsonrpc.get-task.completed',
          'JSON-RPC 1.0 GetTask of that task',
          'jsonRpcUrl',
          'GetTask',
          (_r, _first, _p, previous) => ({ id: previous?.result.task.id }),
          { v10: true },
        ),
        jsonRpc(
          'jsonrpc.send-streaming-message',
          'JSON-RPC 1.0 SendStreamingMessage skill translate: task, statusUpdate working, artifactUpdate, statusUpdate completed',
          'SendStreamingMessage',
          PROMPTS.translate,
          'translate',
          true,
        ),
        jsonRpc(
          'jsonrpc-v0.3.message-send.completed',
          'JSON-RPC 0.3 message/send (compat layer, same endpoint, no A2A-Version) skill translate',
          'message/send',
          PROMPTS.translate,
          'translate',
        ),
        jsonRpc(
          'jsonrpc-v0.3.message-stream',
          'JSON-RPC 0.3 message/stream skill summarize',
          'message/stream',
          PROMPTS.summarize,
          'summarize',
          true,
        ),
        restSend(
          'rest.message-send.completed',
          'HTTP+JSON 1.0 POST /message:send skill summarize (bare SendMessageResponse)',
          '/message:send',
          PROMPTS.summarize,
          'summarize',
        ),
        restSend(
          'rest.message-stream',
          'HTTP+JSON 1.0 POST /message:stream skill translate',
          '/message:stream',
          PROMPTS.translate,
          'translate',
          true,
        ),
        getExchange(
          'rest.get-task.not-found',
          'HTTP+JSON 1.0 GET /tasks/no-such-task',
          (p) => `${endpoint(p, 'restUrl')}/tasks/no-such-task`,
          A2A_V1,
        ),
        postExchange(
          'rest.message-send.empty-parts',
          'HTTP+JSON 1.0 POST /message:send with parts [] (the SDK validation)',
          (p) => `${endpoint(p, 'restUrl')}/message:send`,
          () => JSON.stringify({ message: { messageId: 'x', role: 'ROLE_USER', parts: [] } }),
          { v10: true },
        ),
        restSend(
          'rest.message-send.invalid-params',
          'HTTP+JSON 1.0 /message:send, the skill raises InvalidParamsError after the Task event',
          '/message:send',
          BAD_PARAMS,
          'summarize',
        ),
        restSend(
          'rest.message-stream.invalid-params',
          'HTTP+JSON 1.0 /message:stream, InvalidParamsError after the Task event',
          '/message:stream',
          BAD_PARAMS,
          'summarize',
          true,
        ),
        jsonRpc(
          'jsonrpc.send-streaming-message.invalid-params',
          'JSON-RPC 1.0 SendStreamingMessage, InvalidParamsError after the Task event',
          'SendStreamingMessage',
          BAD_PARAMS,
          'summarize',
          true,
        ),
        jsonRpc(
          'jsonrpc.send-message.invalid-params',
          'JSON-RPC 1.0 SendMessage, InvalidParamsError after the Task event',
          'SendMessage',
          BAD_PARAMS,
          'summarize',
        ),
      ]),
      deployment('A', [
        VARIANT_A_CARD,
        jsonRpc(
          'variant-a.jsonrpc.send-message.unknown-skill',
          'JSON-RPC 1.0 SendMessage skill translate: the executor fails the task, status message "unknown skill: translate"',
          'SendMessage',
          PROMPTS.translate,
          'translate',
        ),
        jsonRpc(
          'variant-a.jsonrpc-v0.3.message-send.unknown-skill',
          'JSON-RPC 0.3 message/send skill translate: failed task',
          'message/send',
          PROMPTS.translate,
          'translate',
        ),
        restSend(
          'variant-a.rest.message-stream.unknown-skill',
          'HTTP+JSON 1.0 /message:stream skill translate: task, then the failed statusUpdate',
          '/message:stream',
          PROMPTS.translate,
          'translate',
          true,
        ),
      ]),
      deployment({ variant: 'A', opts: { unknownSkill: 'raise' } }, [
        jsonRpc(
          'variant-a-raise.jsonrpc.send-message.unknown-skill',
          'JSON-RPC 1.0 SendMessage skill translate, the executor raises ValueError("unknown skill: translate")',
          'SendMessage',
          PROMPTS.translate,
          'translate',
        ),
        jsonRpc(
          'variant-a-raise.jsonrpc-v0.3.message-send.unknown-skill',
          'JSON-RPC 0.3 message/send, the executor raises ValueError',
          'message/send',
          PROMPTS.translate,
          'translate',
        ),
        restSend(
          'variant-a-raise.rest.message-send.unknown-skill',
          'HTTP+JSON 1.0 /message:send, the executor raises ValueError',
          '/message:send',
          PROMPTS.translate,
          'translate',
        ),
        jsonRpc(
          'variant-a-raise.jsonrpc.send-streaming-message.unknown-skill',
          'JSON-RPC 1.0 SendStreamingMessage, the executor raises ValueError',
          'SendStreamingMessage',
          PROMPTS.translate,
          'translate',
          true,
        ),
      ]),
      deployment('B', [
        jsonRpc(
          'variant-b.jsonrpc.send-message.image',
          'JSON-RPC 1.0 SendMessage skill summarize: artifact with a raw part, mediaType image/png (card: text/plain)',
          'SendMessage',
          PROMPTS.summarize,
          'summarize',
        ),
        jsonRpc(
          'variant-b.jsonrpc-v0.3.message-send.image',
          'JSON-RPC 0.3 message/send skill summarize: a file part (bytes, mimeType image/png)',
          'message/send',
          PROMPTS.summarize,
          'summarize',
        ),
      ]),
    ],
  },
  quirks: a2aSdkQuirks,
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
export const pythonSdkGrpc: Row = {
  id: 'python-a2a-sdk-grpc',
  name: 'Python `a2a-sdk` 1.3.0 over gRPC (its `grpc` extra: grpcio 1.85; `GrpcHandler` and `CompatGrpcHandler` on one `grpc.aio` port, listed first in the card)',
  ...a2aSdkAgent(true),
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
        ...HTTP_INTERFACES,
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    ...SDK_STREAMS_NO_PUSH,
    grpc: fact(true, `${A2A_SDK_PEER} GRPC=1`),
    variantB: fact('raw', `${A2A_SDK_PEER}:180-181 (over 0.3: a file part)`),
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
    grpcUnknownTask(
      'GetTask of an unknown task over gRPC 1.0: NOT_FOUND',
      { kind: 'grpc', via: 'factory', from: 'card' },
      PY_GRPC_10,
      /./,
    ),
    grpcUnknownTask(
      'GetTask of an unknown task over gRPC 0.3: NOT_FOUND',
      { kind: 'grpc', via: 'legacy' },
      PY_GRPC_03,
      /./,
    ),
  ],
  sameBytes: legacyGrpcBytes({ kind: 'grpc', via: 'legacy' }, /./),
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'gRPC 1.0 send + stream: FAILED "unknown skill: translate" (the server’s words)',
        client: { kind: 'grpc', via: 'factory', from: 'card' },
        grpc: PY_GRPC_10,
        ops: GRPC_FAILED_UNKNOWN_SKILL,
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
    still: sendCompletes('gRPC 1.0 send summarize', { kind: 'grpc', via: 'factory', from: 'card' }),
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
