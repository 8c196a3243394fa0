/**
 * The implementations whose checks still run in their own file (test/real-world/<file>), until
 * their row joins the table (implementations.ts): what the doc says of them, kept here so that
 * docs/real-world.md is generated from one place meanwhile. An entry leaves when its row is
 * migrated and its file deleted.
 */
import type { DocOnlyRow } from './types';

export const NOT_MIGRATED: DocOnlyRow[] = [
  {
    id: 'node-mastra',
    file: 'mastra.test.ts',
    name: 'Mastra (`@mastra/core` 1.71, `@mastra/server` 1.67, Node 22)',
    testedAs: 'real peer, 18 tests',
    bindings: '0.3 JSON-RPC (1.0 shapes with `A2A-Version: 1.0`, slash method names)',
    card: '`/api/.well-known/{agentId}/agent-card.json`, one per agent',
    judged:
      'removed tool: COMPLETED task `Tool "x" not found` → `unknown_skill` (send; stream in word chunks; SDK client; 1.0 shapes); `card_changed` on re-fetch; another agent on the origin unaffected',
  },
  {
    id: 'node-voltagent',
    file: 'voltagent.test.ts',
    name: 'VoltAgent (`@voltagent/core` 2.10, `@voltagent/a2a-server` 2.0.3)',
    testedAs: 'real peer, 15 tests',
    bindings: '0.3 JSON-RPC, kind-less Tasks, `\\x1e` SSE snapshots',
    card: '`/.well-known/{agentId}/agent-card.json`',
    judged:
      "COMPLETED `unavailable tool 'x'`, -32603 over HTTP 400, stream error event, the FAILED task polled later → `unknown_skill`; `card_changed`; then `skill_not_in_card`",
  },
  {
    id: 'node-adk',
    file: 'adk.test.ts',
    name: 'Google ADK server (`@google/adk` 2.0.0 `toA2a` / `A2AAgentExecutor`, two LlmAgents on a scripted `BaseLlm`)',
    testedAs: 'real peer, 11 tests',
    bindings:
      '0.3 JSON-RPC send / stream (`@a2a-js/sdk` 0.3 server); tool calls and results streamed as artifacts, data parts marked `adk_type`',
    card: '`{basePath}/.well-known/agent-card.json` per agent, skills `<agent>-<tool>` named after the tool, `["text"]`',
    judged:
      "healthy tool calls: no drift (the marked parts are intermediate); removed tool: FAILED `Function translate is not found in the toolsDict.` → `unknown_skill` for `desk-translate` (the tool named by the skill's name); an image where the card says text → `output_mode_mismatch` `image/png`; `card_changed` on re-fetch; skill named in a data part",
  },
  {
    id: 'node-adk-client',
    file: 'clients.test.ts',
    name: 'Google ADK (`@google/adk` 2.0 `RemoteA2AAgent`, client)',
    testedAs: 'real client, 6 tests',
    bindings: '0.3 JSON-RPC stream / send',
    card: '`.well-known/agent-card.json` under the URL given',
    judged:
      '`unknown_skill` on `SendStreamingMessage`; version 0.3 from a card offering 1.0 and 0.3; skill id via `withSkill` or `metadata.skillId`',
  },
  {
    id: 'node-reactive-agents',
    file: 'clients.test.ts',
    name: 'reactive-agents (`@reactive-agents/a2a` 0.9, client and server)',
    testedAs: 'real client + server, 6 tests',
    bindings: '0.3 JSON-RPC',
    card: '`{url}/agent/card` (sniffed), `/.well-known/agent.json`',
    judged: '`card_changed` on re-fetch, `skill_not_in_card`; against an SDK peer `unknown_skill`',
  },
  {
    id: 'python-a2a-sdk-grpc',
    file: 'python-a2a-sdk-grpc.test.ts',
    name: 'Python `a2a-sdk` 1.3.0 over gRPC (its `grpc` extra: grpcio 1.85; `GrpcHandler` and `CompatGrpcHandler` on one `grpc.aio` port, listed first in the card)',
    testedAs: 'real peer, 10 tests',
    bindings:
      'gRPC 1.0 (`lf.a2a.v1.A2AService`) and 0.3 (`a2a.v1.A2AService`); `@a2a-js/sdk` 1.3 `GrpcTransportFactory` (ClientFactory picks GRPC) and its 0.3 `LegacyGrpcTransport`',
    card: 'the same card with two GRPC interfaces first',
    judged:
      'healthy send/stream/GetTask: no drift; removed skill: FAILED `unknown skill: x` → `unknown_skill` (1.0 and 0.3, unary and stream); a raised `ValueError` → status `UNKNOWN` (2) whose details carry the text → `unknown_skill`; `image/png` (1.0 raw part, 0.3 file part) → `output_mode_mismatch`; GetTask of an unknown task → `NOT_FOUND` (5): error span, no verdict; `rpc.*` attributes',
  },
  {
    id: 'go-a2a-go-grpc',
    file: 'go-a2a-go-grpc.test.ts',
    name: 'Go `a2a-go` v0.3.3 over gRPC (`GRPC=1`: `a2agrpc.NewHandler(...).RegisterWith` on a `grpc.Server` (google.golang.org/grpc v1.73.0) beside the JSON-RPC handler, one request handler behind both)',
    testedAs: 'real peer, 13 tests; live fixtures `test/fixtures/a2a-go-live/`',
    bindings:
      '0.3 gRPC (`a2a.v1.A2AService`); `@a2a-js/sdk` 1.3 in 0.3 mode through `ClientFactory` with `GrpcTransportFactory({legacyCompat})`, which picks GRPC from the card, and `LegacyGrpcTransport`',
    card: '`url` = the gRPC target, `preferredTransport: "GRPC"`, `additionalInterfaces` [GRPC, JSONRPC]',
    judged:
      'healthy send/stream/get: no drift; removed skill: FAILED `unknown skill: x` → `unknown_skill`; `ErrUnsupportedOperation` → `UNIMPLEMENTED` with the text → `unknown_skill`; `ErrInvalidParams` → `INTERNAL` "…: invalid params" → `invalid_params`; `ErrUnsupportedContentType` → `INVALID_ARGUMENT` "…: incompatible content types" → `unsupported_mode`; a plain error → `INTERNAL` with the text → `unknown_skill`; `image/png` file part → `output_mode_mismatch`; `NOT_FOUND` (GetTask of an unknown task, TaskSubscription to a finished one): error spans, no verdict; `rpc.*` attributes; the same results with and without the instrumentation',
  },
];
