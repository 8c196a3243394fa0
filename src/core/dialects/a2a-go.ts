/**
 * The official Go SDK, `github.com/a2aproject/a2a-go` (0.3.x). Its JSON-RPC binding maps its
 * sentinel errors (a2a/errors.go) to their codes, but its gRPC binding (a2agrpc's toGRPCError)
 * knows only some of them: `a2a.ErrInvalidParams` becomes INTERNAL (13), and
 * `a2a.ErrUnsupportedContentType` INVALID_ARGUMENT (3), like a malformed request. The status
 * details are the error's text, which ends with the sentinel's (an executor's
 * `fmt.Errorf("skill %q: ...: %w", id, a2a.ErrInvalidParams)` → `... : invalid params`), and no
 * `grpc-status-details-bin`. The sentinel's text says which A2A error it is, so the call is judged
 * as its JSON-RPC twin (-32602 → invalid_params, -32005 → unsupported_mode).
 * Live: the `go-a2a-go-grpc` row of test/real-world/conformance/implementations.ts.
 */
import type { Dialect } from './types';

export const a2aGo: Dialect = {
  name: 'a2a-go',
  errorSentinels: [
    { text: 'invalid params', reason: 'INVALID_PARAMS' },
    { text: 'incompatible content types', reason: 'CONTENT_TYPE_NOT_SUPPORTED' },
  ],
};
