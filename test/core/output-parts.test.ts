/**
 * What counts as output (src/core/output-parts.ts): parts a framework marks as intermediate work
 * are not judged against the card's output modes; the rest are, and the most telling mismatch is
 * reported with every mismatching media type. Wire shapes are Google ADK's `toA2a` server's
 * (test/fixtures/adk/), and marks of frameworks not seen yet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePatterns, judge, type NegotiationContext } from '../../src/core/judge';
import { intermediateMark } from '../../src/core/output-parts';
import { decodeResponse, decodeStreamEvent } from '../../src/core/protocol/results';
import { decodeJsonRpcRequest } from '../../src/core/protocol/jsonrpc';

const opts = {
  unknownSkillPatterns: compilePatterns(['unknown skill']),
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};

/** ADK's generated card: `defaultOutputModes: ["text"]`, skill `desk-summarize`. */
const adkCtx: NegotiationContext = {
  skillId: 'desk-summarize',
  cardKnown: true,
  cardUrl: 'http://127.0.0.1:1/desk/.well-known/agent-card.json',
  fingerprint: 'f'.repeat(64),
  agentName: 'desk',
  cardVersion: '1.0.0',
  skillInCard: true,
  outputModes: ['text'],
};

const request = decodeJsonRpcRequest({
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: {
    message: {
      kind: 'message',
      role: 'user',
      messageId: 'm1',
      parts: [{ kind: 'text', text: 'summarize this' }],
      metadata: { skillId: 'desk-summarize' },
    },
  },
});

const functionCall = {
  kind: 'data',
  data: { id: 'call-1', name: 'summarize', args: { text: 'x' } },
  metadata: { adk_type: 'function_call' },
};
const functionResponse = {
  kind: 'data',
  data: { id: 'call-1', name: 'summarize', response: { summary: 'y' } },
  metadata: { adk_type: 'function_response' },
};
const png = { kind: 'file', file: { bytes: 'iVBORw0KGgo=', mimeType: 'image/png' }, metadata: {} };

function task(artifacts: unknown[]): unknown {
  return {
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'task',
      id: 't1',
      contextId: 'c1',
      status: { state: 'completed' },
      artifacts,
    },
  };
}

function artifactUpdate(parts: unknown[], metadata?: unknown): unknown {
  return {
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'artifact-update',
      taskId: 't1',
      contextId: 'c1',
      artifact: { artifactId: 'a1', parts, ...(metadata ? { metadata } : {}) },
    },
  };
}

test("ADK's healthy tool call (function_call, function_response, text answer) is no drift", () => {
  const r = decodeResponse(
    task([
      { artifactId: 'a1', parts: [functionCall] },
      { artifactId: 'a2', parts: [functionResponse] },
      { artifactId: 'a3', parts: [{ kind: 'text', text: 'The summary.' }] },
    ]),
    request,
  );
  assert.equal(r.artifacts[0].parts[0].intermediate, 'adk_type=function_call');
  assert.equal(r.artifacts[1].parts[0].intermediate, 'adk_type=function_response');
  assert.equal(r.artifacts[2].parts[0].intermediate, undefined);
  const v = judge(request, adkCtx, r, opts);
  assert.equal(v.drift, undefined);
  assert.equal(v.unjudged, undefined);
});

test('ADK streamed: each artifact-update with a marked part alone is no drift', () => {
  for (const p of [functionCall, functionResponse]) {
    const r = decodeStreamEvent(artifactUpdate([p]), request);
    assert.equal(judge(request, adkCtx, r, opts).drift, undefined);
  }
  const thought = {
    kind: 'text',
    text: 'I should call summarize',
    metadata: { adk_thought: true },
  };
  const r = decodeStreamEvent(artifactUpdate([thought]), request);
  assert.equal(r.artifacts[0].parts[0].intermediate, 'adk_thought=true');
  assert.equal(judge(request, adkCtx, r, opts).drift, undefined);
});

test('variant B on ADK: a PNG where the card says text is reported as image/png, not the marked JSON', () => {
  const r = decodeResponse(
    task([
      { artifactId: 'a1', parts: [functionCall] },
      { artifactId: 'a2', parts: [functionResponse] },
      { artifactId: 'a3', parts: [png] },
    ]),
    request,
  );
  const v = judge(request, adkCtx, r, opts);
  assert.equal(v.drift?.kind, 'output_mode_mismatch');
  assert.equal(v.drift?.actualMediaType, 'image/png');
  assert.deepEqual(v.drift?.actualMediaTypes, ['image/png']);
});

test('several unmarked mismatches: the file is reported, every media type listed', () => {
  const r = decodeResponse(
    task([
      { artifactId: 'a1', parts: [{ kind: 'data', data: { rows: [] } }] },
      {
        artifactId: 'a2',
        parts: [png, { kind: 'file', file: { uri: 'u', mimeType: 'image/png' } }],
      },
      { artifactId: 'a3', parts: [{ kind: 'file', file: { uri: 'u', mimeType: 'audio/wav' } }] },
    ]),
    request,
  );
  const v = judge(request, adkCtx, r, opts);
  assert.equal(v.drift?.actualMediaType, 'image/png');
  assert.deepEqual(v.drift?.actualMediaTypes, ['application/json', 'image/png', 'audio/wav']);
});

test('a marked FILE part is output all the same (an image is an answer whatever its metadata)', () => {
  const markedPng = { ...png, metadata: { adk_type: 'function_response' } };
  assert.equal(intermediateMark('file', markedPng.metadata), undefined);
  const r = decodeStreamEvent(artifactUpdate([markedPng]), request);
  assert.equal(judge(request, adkCtx, r, opts).drift?.actualMediaType, 'image/png');
});

test('by rule: marks of frameworks not seen yet (type/kind keys naming a work step, thought flags)', () => {
  const marked: Array<[unknown, string]> = [
    [{ type: 'tool_call' }, 'type=tool_call'],
    [{ partKind: 'toolResult' }, 'partKind=toolResult'],
    [{ 'x-part-type': 'function-call' }, 'x-part-type=function-call'],
    [{ content_type: 'reasoning' }, 'content_type=reasoning'],
    [{ isThought: true }, 'isThought=true'],
    [{ thinking: true }, 'thinking=true'],
    [{ kind: 'TOOL_USE' }, 'kind=TOOL_USE'],
  ];
  for (const [meta, mark] of marked)
    assert.equal(intermediateMark('data', meta), mark, JSON.stringify(meta));
  // and on the artifact instead of the part
  assert.equal(intermediateMark('text', {}, { type: 'thought' }), 'type=thought');
});

test('by rule: metadata that does not name a work step leaves the part output', () => {
  const output: unknown[] = [
    { type: 'summary' },
    { content_type: 'application/json' },
    { tool: 'summarize' },
    { thought: 'a string, not a flag' },
    { thought: false },
    { adk_type: 'something_else' },
    { toolCall: 'no: the key is no type key' },
    null,
    'metadata',
    [{ type: 'tool_call' }],
    { ['a'.repeat(100) + '_type']: 'tool_call' },
  ];
  for (const meta of output)
    assert.equal(intermediateMark('data', meta), undefined, JSON.stringify(meta));
  // ADK's data mark does not make a text part intermediate, nor its thought flag a data part
  assert.equal(intermediateMark('text', { adk_type: 'something' }), undefined);
});

test('hostile metadata: huge, with getters-like values, with many keys: no throw, bounded', () => {
  const many: Record<string, unknown> = {};
  for (let i = 0; i < 10_000; i++) many[`k${i}`] = i;
  many.type = 'tool_call'; // past the keys looked at
  assert.equal(intermediateMark('data', many), undefined);
  assert.equal(intermediateMark('data', { type: 'tool_call'.repeat(20) }), undefined);
  assert.equal(intermediateMark('data', Object.create(null)), undefined);
  const proto = Object.create({ type: 'tool_call' }) as Record<string, unknown>;
  assert.equal(intermediateMark('data', proto), undefined, 'inherited keys are not metadata');
});

test('a thought is not evidence: "tool summarize not found" in a marked thought is no drift', () => {
  const r = decodeResponse(
    task([
      {
        artifactId: 'a1',
        parts: [
          {
            kind: 'text',
            text: 'Tool "desk-summarize" not found?',
            metadata: { adk_thought: true },
          },
          { kind: 'text', text: 'Here is the summary.' },
        ],
      },
    ]),
    request,
  );
  assert.equal(r.artifactText, 'Here is the summary.');
  assert.equal(judge(request, adkCtx, r, opts).drift, undefined);
});
