/**
 * The conformance table's rows of go-a2a-go: `goJsonRpc` and `goGrpc` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGoPeer, startGoPeer } from '../go/a2a-go/peer-process.mjs';
import { cardProbe, httpProbe, m03, messageProbe } from '../conformance/probes';
import { endpoint } from '../conformance/types';
import { goGrpcQuirks, goQuirks } from './go-a2a-go.quirks';
import type { GonePath, Row } from '../conformance/types';
import {
  PROMPTS,
  SUMMARY,
  sdk03,
  TEXT_SKILLS,
  grpcOk,
  STREAMING_NO_PUSH,
  fact,
  raw,
  sendCompletes,
  SETTLED_BY_CARD,
  rawPngFilePath03,
  grpcUnknownTask,
  legacyGrpcBytes,
  GRPC_FAILED_UNKNOWN_SKILL,
} from '../conformance/row-kit';
import {
  rpcExchange,
  postExchange,
  cardExchange,
  VARIANT_A_CARD,
  unknownTaskExchange,
  deployment,
} from '../conformance/row-recording';
import { GET_TASK_ERROR, unknownTaskProbe } from '../conformance/row-probes';

const GO_PEER = 'test/real-world/go/a2a-go/main.go';
const GO_DIR = join(__dirname, '..', 'go', 'a2a-go');
/** A recorded 0.3 JSON-RPC call of the Go peer (the skill in the message's metadata). */
function goCall(name: string, note: string, method: string, text: string, skill: string) {
  return rpcExchange(name, note, 'jsonRpcUrl', method, (r) => r.m03(text, skill), {
    stream: method === 'message/stream',
  });
}
/** A variant A path of the Go peer deployed with UNKNOWN_SKILL=`how`, called by raw 0.3 JSON-RPC. */
const goneWith = (
  how: string,
  label: string,
  path: Omit<GonePath, 'label' | 'deploy' | 'client'>,
): GonePath => ({
  label,
  deploy: { unknownSkill: how },
  client: raw('0.3', 'jsonRpcUrl'),
  ...path,
});
/** The module versions the build used (go.mod's requires) and the Go that built it. */
function goVersions(): Record<string, string> {
  const gomod = readFileSync(join(GO_DIR, 'go.mod'), 'utf8');
  const modules = Object.fromEntries(
    [...gomod.matchAll(/^\s*(?:require\s+)?([\w./-]+\.[\w./-]+) (v[^\s]+)/gm)].map((m) => [
      m[1],
      m[2],
    ]),
  );
  return { go: execFileSync('go', ['env', 'GOVERSION']).toString().trim(), ...modules };
}
/** Variant A's three ways for Execute to return an error, each a deployment. */
const GO_ERRORS: Array<[string, string]> = [
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
];
/** the build of the Go peer, once per run (cached by go.sum: instant once built) */
let goBuilt: true | string | undefined;
const goUnavailable = (): string | undefined => {
  goBuilt ??= buildGoPeer();
  return goBuilt === true ? undefined : goBuilt;
};
export const goJsonRpc: Row = {
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
      nilTags: d.opts?.nilTags === true,
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
    ...STREAMING_NO_PUSH,
    grpc: fact(true, 'GRPC=1: a2agrpc.NewHandler (the go-a2a-go-grpc deployment)'),
    variantB: fact('file', `${GO_PEER}: variant B answers summarize with an image/png file part`),
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
      client: raw('0.3', 'jsonRpcUrl'),
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
    unknownTaskProbe('jsonRpcUrl', {
      expect: {
        status: 200,
        body: /"error":\{"code":-32001,"message":"task not found","data":\{"error":"failed to get task: task not found"\}\}/,
        span: GET_TASK_ERROR,
      },
    }),
    messageProbe(
      'the skill’s own invalid params (-32602 at HTTP 200)',
      'jsonRpcUrl',
      'message/send',
      'summarize: max_words=-1',
      'summarize',
      {
        body: /"code":-32602,.*'max_words' must be a positive integer: invalid params"/,
        span: { name: 'SendMessage', error: true, drift: 'invalid_params' },
      },
    ),
  ],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe('send', 'jsonRpcUrl', 'message/send', PROMPTS.summarize, 'summarize', {
        contentType: 'text/plain; charset=utf-8',
        body: /^\{"jsonrpc":"2.0","id":7,"result"/,
      }),
      messageProbe('stream', 'jsonRpcUrl', 'message/stream', PROMPTS.translate, 'translate', {
        contentType: 'text/event-stream',
        body: /^id: UUID\ndata: /,
      }),
      messageProbe(
        'invalid params',
        'jsonRpcUrl',
        'message/send',
        'summarize: max_words=-1',
        'summarize',
        {
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
        client: raw('0.3', 'jsonRpcUrl'),
        ops: {
          send: { state: 'failed', statusText: 'unknown skill: translate' },
          stream: { state: 'failed' },
        },
        says: { value: 'words', source: 'as above' },
        verdict: 'unknown_skill',
      },
      goneWith(
        'error',
        'Execute returns fmt.Errorf("unknown skill: translate: %w", a2a.ErrInvalidParams): -32602 (send and the stream’s only event)',
        {
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
      ),
      goneWith(
        'unsupported',
        'Execute returns fmt.Errorf("unknown skill: translate: %w", a2a.ErrUnsupportedOperation): -32004, the words in data.error',
        {
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
      ),
      goneWith(
        'plain',
        'a plain errors.New("unknown skill: translate") after the submitted event: -32603 "internal error" without the text',
        {
          ops: {
            send: {
              error: /^-32603 internal error$/,
              wire: /"error":\{"code":-32603,"message":"internal error"\}/,
            },
          },
          says: {
            value: 'failure',
            source:
              'a2asrv’s JSON-RPC handler hides a plain error’s text (-32603 "internal error")',
          },
          // no text names the skill: a failure the card fetched again settles
          ...SETTLED_BY_CARD,
          suspicion: 'failure',
          rpcCode: -32603,
        },
      ),
    ],
    still: sendCompletes('SDK 0.3 mode send summarize', sdk03('card')),
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
      rawPngFilePath03('jsonRpcUrl'),
    ],
  },
  recording: {
    fixture: 'a2a-go-live',
    versionsOf: [],
    recordedWith: goVersions,
    steps: [
      deployment('healthy', [
        cardExchange('card', 'GET /.well-known/agent-card.json'),
        goCall(
          'jsonrpc.message-send.completed',
          'message/send skill summarize: completed task (history: the user message and the working status message); no Content-Type set, net/http sniffs text/plain',
          'message/send',
          PROMPTS.summarize,
          'summarize',
        ),
        rpcExchange(
          'jsonrpc.tasks-get.completed',
          'tasks/get of that task',
          'jsonRpcUrl',
          'tasks/get',
          (_r, _first, _p, previous) => ({ id: previous?.result.id }),
        ),
        goCall(
          'jsonrpc.message-stream',
          'message/stream skill translate: status-update submitted, working, artifact-update, status-update completed (final); each event `id: <uuid>` + `data:`',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
        unknownTaskExchange(
          'jsonrpc.tasks-get.not-found',
          'tasks/get of an unknown task: -32001 at HTTP 200',
          'jsonRpcUrl',
        ),
        goCall(
          'jsonrpc.message-send.invalid-params',
          'message/send, the skill returns a2a.ErrInvalidParams (wrapped) before any event: -32602, the text in data.error',
          'message/send',
          'summarize: max_words=-1',
          'summarize',
        ),
        goCall(
          'jsonrpc.message-stream.invalid-params',
          'message/stream, the same: one SSE event carrying the -32602 error',
          'message/stream',
          'summarize: max_words=-1',
          'summarize',
        ),
        goCall(
          'jsonrpc.unknown-method',
          'a 1.0 method name (SendMessage): -32601 method not found',
          'SendMessage',
          'summarize: x',
          'summarize',
        ),
        postExchange(
          'http.not-found',
          'POST to a path the mux does not serve: net/http 404 text/plain "404 page not found"',
          (p) => `${p.origin}/no-such-path`,
          (r) => r.rpc('message/send', r.m03('summarize: x', 'summarize')),
        ),
      ]),
      deployment('A', [
        VARIANT_A_CARD,
        goCall(
          'variant-a.jsonrpc.message-send.unknown-skill',
          'message/send skill translate: final status-update FAILED with the agent message "unknown skill: translate"',
          'message/send',
          PROMPTS.translate,
          'translate',
        ),
        goCall(
          'variant-a.jsonrpc.message-stream.unknown-skill',
          'message/stream skill translate: submitted, then the failed status-update',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
      ]),
      ...GO_ERRORS.map(([how, note]) =>
        deployment(
          { variant: 'A' as const, opts: { unknownSkill: how } },
          (['send', 'stream'] as const).map((op) =>
            goCall(
              `variant-a-${how}.jsonrpc.message-${op}.unknown-skill`,
              `message/${op} skill translate; ${note}`,
              `message/${op}`,
              PROMPTS.translate,
              'translate',
            ),
          ),
        ),
      ),
      deployment('B', [
        goCall(
          'variant-b.jsonrpc.message-send.image',
          'message/send skill summarize: artifact with a file part (bytes, mimeType image/png; card: text/plain)',
          'message/send',
          PROMPTS.summarize,
          'summarize',
        ),
        goCall(
          'variant-b.jsonrpc.message-stream.image',
          'message/stream skill summarize: the artifact-update carries the image/png file part',
          'message/stream',
          PROMPTS.summarize,
          'summarize',
        ),
      ]),
      deployment({ variant: 'healthy', opts: { nilTags: true } }, [
        cardExchange(
          'nil-tags.card',
          'card of a Go agent that left translate.Tags nil: "tags": null (the @a2a-js/sdk 1.3 client refuses it)',
        ),
      ]),
    ],
  },
  quirks: goQuirks,
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
export const goGrpc: Row = {
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
    ...STREAMING_NO_PUSH,
    grpc: fact(true, `${GO_PEER} GRPC=1`),
    variantB: fact('file', `${GO_PEER}: an image/png file part`),
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
    grpcUnknownTask(
      'GetTask of an unknown task: NOT_FOUND (5)',
      goFactory('card'),
      GO_GRPC,
      /^gRPC error for getTask: 5 failed to get task: task not found$/,
    ),
  ],
  sameBytes: legacyGrpcBytes(goLegacy, /task not found/),
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
          ...GRPC_FAILED_UNKNOWN_SKILL,
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
    still: sendCompletes('ClientFactory (gRPC) send summarize', goFactory('card')),
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
