import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compilePatterns,
  judge,
  judgeCardChange,
  type JudgeOptions,
  type NegotiationContext,
} from '../../src/core/judge';
import { ArtifactSchemaDriftError, StaleAgentCardError } from '../../src/core/errors';
import type { DecodedRequest, DecodedResult } from '../../src/core/model';
import { decodeGrpcStatus } from '../../src/core/protocol/grpc';

const opts: JudgeOptions = {
  unknownSkillPatterns: compilePatterns(['unknown skill']),
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};

const send: DecodedRequest = {
  operation: 'SendMessage',
  wireMethod: 'tasks/send',
  binding: 'jsonrpc',
  streaming: false,
  skillId: 'summarize-v2',
  skillIdSource: 'params.skillId',
};

const FP = '66eb6a79ac58b8a83cd0cdab70ece2d2b2b1e5c97be4edb81883e78a552e5806';

const known: NegotiationContext = {
  skillId: 'summarize-v2',
  cardKnown: true,
  cardUrl: 'http://peer-a/.well-known/agent.json',
  fingerprint: FP,
  agentName: 'peer-a',
  cardVersion: '1.0',
  skillInCard: true,
  outputModes: ['text/markdown'],
};

function result(partial: Partial<DecodedResult>): DecodedResult {
  return { kind: 'task', artifacts: [], ...partial };
}

test('variant A: a failed task whose status says "unknown skill" is unknown_skill drift', () => {
  const v = judge(
    send,
    known,
    result({ taskId: 't1', state: 'TASK_STATE_FAILED', statusText: 'Unknown Skill: summarize-v2' }),
    opts,
  );
  assert.equal(v.drift?.kind, 'unknown_skill');
  assert.ok(v.drift?.error instanceof StaleAgentCardError);
  assert.equal(v.drift?.error.name, 'StaleAgentCardError');
  assert.equal(v.drift?.taskId, 't1');
  assert.equal(v.drift?.skillId, 'summarize-v2');
  assert.equal(v.drift?.matchedPattern, 'unknown skill');
  assert.match(v.drift!.error.message, /re-fetch the Agent Card from http:\/\/peer-a/);
  assert.match(v.drift!.error.message, /66eb6a79ac58/);
  // The message carries the configured pattern, never the peer's text.
  assert.doesNotMatch(v.drift!.error.message, /Unknown Skill: summarize-v2/);
});

test('unsupported mode in the status text, and JSON-RPC -32005, are unsupported_mode', () => {
  assert.equal(
    judge(
      send,
      known,
      result({ state: 'TASK_STATE_FAILED', statusText: 'UNSUPPORTED MODE text/x' }),
      opts,
    ).drift?.kind,
    'unsupported_mode',
  );
  const rpc = judge(
    send,
    known,
    result({ kind: 'error', error: { code: -32005, message: 'Content type not supported' } }),
    opts,
  );
  assert.equal(rpc.drift?.kind, 'unsupported_mode');
  assert.equal(rpc.drift?.rpcCode, -32005);
});

test('-32602 on a skill the card lists is invalid_params; on one it does not, skill_not_in_card', () => {
  const listed = judge(
    send,
    known,
    result({ kind: 'error', error: { code: -32602, message: 'Invalid params' } }),
    opts,
  );
  assert.equal(listed.drift?.kind, 'invalid_params');
  const notListed = judge(
    send,
    { ...known, skillInCard: false, outputModes: undefined },
    result({ kind: 'error', error: { code: -32602 } }),
    opts,
  );
  assert.equal(notListed.drift?.kind, 'skill_not_in_card');
  // Without a skill id, -32602 is an ordinary protocol error.
  assert.deepEqual(
    judge(
      { ...send, skillId: undefined },
      { cardKnown: true },
      result({ kind: 'error', error: { code: -32602 } }),
      opts,
    ),
    {},
  );
  // Without a card, it cannot be judged.
  assert.ok(
    judge(
      send,
      { cardKnown: false, skillId: 'summarize-v2' },
      result({ kind: 'error', error: { code: -32602 } }),
      opts,
    ).unjudged,
  );
});

test('the error text in data.error (the Go SDK) or data.message counts; a bare -32603 is only a suspicion', () => {
  const go = (code: number, message: string, data?: unknown) =>
    judge(send, known, result({ kind: 'error', error: { code, message, data } }), opts);
  // a2a-go 0.3: fmt.Errorf("unknown skill: ...: %w", a2a.ErrUnsupportedOperation)
  const unsupported = go(-32004, 'this operation is not supported', {
    error: 'unknown skill: summarize-v2: this operation is not supported',
  });
  assert.equal(unsupported.drift?.kind, 'unknown_skill');
  assert.equal(
    go(-32603, 'Internal error', { message: 'unknown skill: summarize-v2' }).drift?.kind,
    'unknown_skill',
  );
  // a plain Go error: the SDK sends -32603 "internal error" without the text: no verdict, a
  // failure for a skill the card lists, for the card to settle
  for (const bare of [
    go(-32603, 'internal error'),
    go(-32603, 'internal error', { error: 42, message: null }),
  ]) {
    assert.equal(bare.drift, undefined);
    assert.equal(bare.suspicion?.suspicion, 'failure');
    assert.equal(bare.suspicion?.evidence, 'card');
    assert.equal(bare.suspicion?.rpcCode, -32603);
  }
});

test('a request naming a skill the card in use does not list is skill_not_in_card', () => {
  const v = judge(
    send,
    { ...known, skillInCard: false, outputModes: undefined },
    result({ taskId: 't', state: 'TASK_STATE_COMPLETED' }),
    opts,
  );
  assert.equal(v.drift?.kind, 'skill_not_in_card');
});

test('variant B: an artifact part outside the negotiated output modes is output_mode_mismatch', () => {
  const v = judge(
    send,
    known,
    result({
      taskId: 't2',
      state: 'TASK_STATE_COMPLETED',
      artifacts: [{ parts: [{ kind: 'text', mediaType: 'text/plain' }] }],
    }),
    opts,
  );
  assert.equal(v.drift?.kind, 'output_mode_mismatch');
  assert.ok(v.drift?.error instanceof ArtifactSchemaDriftError);
  assert.deepEqual(v.drift?.expectedModes, ['text/markdown']);
  assert.equal(v.drift?.actualMediaType, 'text/plain');
});

test('pre-1.0 text parts without a media type match any text/* mode, unless strictTextParts', () => {
  const r = result({ state: 'TASK_STATE_COMPLETED', artifacts: [{ parts: [{ kind: 'text' }] }] });
  assert.equal(judge(send, known, r, opts).drift, undefined);
  const strict = judge(send, known, r, { ...opts, strictTextParts: true });
  assert.equal(strict.drift?.kind, 'output_mode_mismatch');
  assert.equal(strict.drift?.actualMediaType, 'text/plain');
  // A typeless text part where only JSON was advertised may carry JSON (fasta2a answers so on
  // every healthy call): unjudged by default, a mismatch under the strict reading.
  assert.equal(
    judge(send, { ...known, outputModes: ['application/json'] }, r, opts).drift,
    undefined,
  );
  assert.equal(
    judge(send, { ...known, outputModes: ['application/json'] }, r, {
      ...opts,
      strictTextParts: true,
    }).drift?.kind,
    'output_mode_mismatch',
  );
  assert.equal(
    judge(send, { ...known, outputModes: ['image/png'] }, r, opts).drift?.kind,
    'output_mode_mismatch',
  );
});

test('healthy exchanges get no verdict', () => {
  const healthy: DecodedResult[] = [
    result({ taskId: 't', state: 'TASK_STATE_SUBMITTED' }),
    result({ taskId: 't', state: 'TASK_STATE_WORKING' }),
    result({
      state: 'TASK_STATE_COMPLETED',
      artifacts: [{ parts: [{ kind: 'text', mediaType: 'text/markdown; charset=utf-8' }] }],
    }),
    result({
      state: 'TASK_STATE_COMPLETED',
      artifacts: [{ parts: [{ kind: 'text', mediaType: 'TEXT/MARKDOWN' }] }],
    }),
    result({ kind: 'message', artifacts: [] }),
  ];
  for (const r of healthy) assert.deepEqual(judge(send, known, r, opts), {}, JSON.stringify(r));
  // failures are no verdict either: a suspicion for the card to settle, nothing more
  for (const r of [
    result({ state: 'TASK_STATE_FAILED', statusText: 'upstream timeout' }),
    result({ kind: 'error', error: { code: -32001, message: 'Task not found' } }),
  ]) {
    const v = judge(send, known, r, opts);
    assert.equal(v.drift, undefined, JSON.stringify(r));
    assert.equal(v.suspicion?.suspicion, 'failure', JSON.stringify(r));
  }
  // Wildcards in the advertised modes.
  const star = { ...known, outputModes: ['text/*'] };
  assert.deepEqual(
    judge(
      send,
      star,
      result({ artifacts: [{ parts: [{ kind: 'file', mediaType: 'text/csv' }] }] }),
      opts,
    ),
    {},
  );
});

test('artifacts of a failed or canceled task are not judged', () => {
  const r = result({
    state: 'TASK_STATE_CANCELED',
    artifacts: [{ parts: [{ kind: 'file', mediaType: 'image/png' }] }],
  });
  assert.deepEqual(judge(send, known, r, opts), {});
});

test('what cannot be judged says why, and is no drift', () => {
  const r = result({ state: 'TASK_STATE_COMPLETED', artifacts: [{ parts: [{ kind: 'file' }] }] });
  const v = judge(send, known, r, opts);
  assert.equal(v.drift, undefined);
  assert.match(v.unjudged ?? '', /no media type/);
  assert.match(
    judge(
      { ...send, skillId: undefined },
      { cardKnown: true },
      result({ artifacts: [{ parts: [{ kind: 'text', mediaType: 'image/png' }] }] }),
      opts,
    ).unjudged ?? '',
    /no skill id/,
  );
  assert.match(
    judge(
      send,
      { cardKnown: false, skillId: 'x' },
      result({ artifacts: [{ parts: [{ kind: 'text', mediaType: 'image/png' }] }] }),
      opts,
    ).unjudged ?? '',
    /no Agent Card/,
  );
});

test('patterns: strings are case-insensitive substrings, regexps made case-insensitive, a throwing pattern matches nothing', () => {
  const m = compilePatterns(['Skill Not Found', /no such\s+skill/, '']);
  assert.equal(m.length, 2);
  assert.ok(m[0].test('error: skill not found'));
  assert.ok(m[1].test('NO SUCH SKILL'));
  const o: JudgeOptions = {
    ...opts,
    unknownSkillPatterns: [
      {
        label: 'boom',
        test: () => {
          throw new Error('x');
        },
      },
      ...m,
    ],
  };
  assert.equal(
    judge(send, known, result({ state: 'TASK_STATE_FAILED', statusText: 'No such skill' }), o).drift
      ?.kind,
    'unknown_skill',
  );
});

test('card_changed carries both fingerprints and says what to do', () => {
  const e = judgeCardChange(
    'http://peer-a/.well-known/agent.json',
    'peer-a',
    '1.0',
    FP,
    'ab1043b54dcd24986582640292c3a026184171aba215ab868d6b2607e7a2e058',
  );
  assert.equal(e.kind, 'card_changed');
  assert.equal(e.previousFingerprint, FP);
  assert.equal(e.error.name, 'StaleAgentCardError');
  assert.match(e.error.message, /66eb6a79ac58… → ab1043b54dcd…/);
  assert.match(e.error.message, /re-fetch/);
});

test('gRPC statuses as their JSON-RPC twins: reason INVALID_PARAMS (a2a-go INTERNAL + sentinel) → invalid_params, CONTENT_TYPE_NOT_SUPPORTED → unsupported_mode, a plain INTERNAL → no verdict', () => {
  const grpcSend: DecodedRequest = { ...send, binding: 'grpc', wireMethod: 'SendMessage' };
  const invalid = judge(
    grpcSend,
    known,
    decodeGrpcStatus(
      13,
      `skill "summarize-v2": 'max_words' must be a positive integer: invalid params`,
    ),
    opts,
  );
  assert.equal(invalid.drift?.kind, 'invalid_params');
  assert.equal(invalid.drift?.rpcCode, 13);
  assert.match(
    invalid.drift!.error.message,
    /with 13 INVALID_PARAMS error although the cached card lists/,
  );
  assert.doesNotMatch(invalid.drift!.error.message, /max_words/);
  const content = judge(
    grpcSend,
    known,
    decodeGrpcStatus(
      3,
      'skill "summarize-v2": cannot produce application/pdf: incompatible content types',
    ),
    opts,
  );
  assert.equal(content.drift?.kind, 'unsupported_mode');
  assert.equal(content.drift?.rpcCode, 3);
  assert.match(content.drift!.error.message, /with 3 CONTENT_TYPE_NOT_SUPPORTED error/);
  // the 1.0 ErrorInfo reason on the JSON bindings too
  assert.equal(
    judge(
      send,
      known,
      result({ kind: 'error', error: { reason: 'CONTENT_TYPE_NOT_SUPPORTED' } }),
      opts,
    ).drift?.kind,
    'unsupported_mode',
  );
  // INTERNAL without a sentinel: generic, judged only when its text names the skill as missing
  assert.equal(judge(grpcSend, known, decodeGrpcStatus(13, 'boom'), opts).drift, undefined);
  assert.equal(
    judge(grpcSend, known, decodeGrpcStatus(13, 'unknown skill: summarize-v2'), opts).drift?.kind,
    'unknown_skill',
  );
  // invalid params without a skill id: an ordinary error
  assert.equal(
    judge(
      { ...grpcSend, skillId: undefined },
      { ...known, skillId: undefined },
      decodeGrpcStatus(13, 'invalid params'),
      opts,
    ).drift,
    undefined,
  );
});
