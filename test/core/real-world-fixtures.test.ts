/**
 * Wire samples of three Python A2A implementations (test/fixtures/{a2a-python,fasta2a,python-a2a})
 * and of Google ADK's own A2A server (test/fixtures/adk; see each README.md for how they were
 * obtained) fed to the core decoders and the judge.
 * The assertions say what the product SHOULD make of them: cards recognised, results decoded as
 * what they are, drift on the calls that show it and none on healthy traffic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCard, isAgentCard } from '../../src/core/card';
import { decodeResponse, decodeStreamEvent } from '../../src/core/protocol/results';
import { decodeJsonRpcRequest } from '../../src/core/protocol/jsonrpc';
import { decodeHttpJsonRequest } from '../../src/core/protocol/http-json';
import { SseParser, type SseEvent } from '../../src/core/sse';
import { judge, type JudgeOptions, type NegotiationContext } from '../../src/core/judge';
import { resolveConfig } from '../../src/config';
import type { DecodedCard, DecodedRequest, DecodedResult } from '../../src/core/model';
import { skillAliases, skillNamedInMessage } from '../../src/core/skill-names';

const FIXTURES = join(__dirname, '..', 'fixtures');

function raw(impl: string, name: string): string {
  return readFileSync(join(FIXTURES, impl, name), 'utf8');
}
function json(impl: string, name: string): unknown {
  return JSON.parse(raw(impl, name));
}
/** Parses a recorded SSE body; fed in small odd-sized chunks so CRLF pairs get split too. */
function sse(impl: string, name: string): SseEvent[] {
  const text = raw(impl, name);
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (let i = 0; i < text.length; i += 37) events.push(...parser.push(text.slice(i, i + 37)));
  events.push(...parser.end());
  assert.equal(parser.truncated, false, `${name}: stream ended mid-event`);
  return events;
}

const defaults = resolveConfig({});
const opts: JudgeOptions = {
  unknownSkillPatterns: defaults.unknownSkillPatterns,
  unsupportedModePatterns: defaults.unsupportedModePatterns,
  strictTextParts: defaults.strictTextParts,
};

function ctxFor(card: DecodedCard, skillId: string, cardUrl: string): NegotiationContext {
  const skill = card.skills.find((s) => s.id === skillId);
  return {
    skillId,
    cardKnown: true,
    cardUrl,
    agentName: card.name,
    cardVersion: card.version,
    skillInCard: skill !== undefined,
    outputModes: skill?.outputModes,
  };
}

function rpcRequest(body: unknown): DecodedRequest {
  const req = decodeJsonRpcRequest(body);
  assert.ok(req, 'request decodes');
  return req;
}

function noDrift(results: DecodedResult[], req: DecodedRequest, ctx: NegotiationContext): void {
  for (const r of results) {
    const j = judge(req, ctx, r, opts);
    assert.equal(
      j.drift,
      undefined,
      `unexpected ${j.drift?.kind} drift on a healthy ${r.kind} (${r.state ?? ''})`,
    );
  }
}

// ───────────────────────────────────────────── a2a-python (a2a-sdk 1.x)

const A2A = 'a2a-python';
const a2aCardUrl = 'http://127.0.0.1:41241/.well-known/agent-card.json';
const a2aCard = decodeCard(json(A2A, 'card.agent-card.json'));
const a2aUser = {
  messageId: 'msg-user-1',
  role: 'ROLE_USER',
  parts: [{ text: 'summarize the quarterly report' }],
  metadata: { skillId: 'summarize-v2' },
};
const a2aStreamReq = rpcRequest({
  jsonrpc: '2.0',
  id: 'req-1',
  method: 'SendStreamingMessage',
  params: { message: a2aUser },
});
const a2aRestStreamReq = decodeHttpJsonRequest('POST', '/a2a/rest/message:stream', {
  message: a2aUser,
});
const a2aRestSendReq = decodeHttpJsonRequest('POST', '/a2a/rest/message:send', {
  message: a2aUser,
});

test('a2a-python card: 1.0 card with 0.3 compat fields; interfaces and skills recognised', () => {
  const body = json(A2A, 'card.agent-card.json');
  assert.equal(isAgentCard(body), true);
  assert.equal(a2aCard.problem, undefined);
  assert.equal(a2aCard.name, 'Docs Agent');
  assert.equal(a2aCard.version, '1.0.0');
  assert.equal(a2aCard.streaming, true);
  const eps = a2aCard.endpoints.map((e) => `${e.binding} ${e.protocolVersion} ${e.url}`);
  assert.ok(eps.includes('JSONRPC 1.0 http://127.0.0.1:41241/a2a/jsonrpc'), eps.join(' | '));
  assert.ok(eps.includes('HTTP+JSON 1.0 http://127.0.0.1:41241/a2a/rest'), eps.join(' | '));
  assert.ok(
    eps.some((e) => e.startsWith('JSONRPC 0.3 ')),
    eps.join(' | '),
  );
  assert.deepEqual(
    a2aCard.skills.map((s) => s.id),
    ['summarize-v2', 'translate'],
  );
  assert.deepEqual(a2aCard.skills[0]?.outputModes, ['text', 'task-status']);
});

test('a2a-python JSON-RPC SendStreamingMessage (CRLF SSE): four events decoded, no drift', () => {
  const events = sse(A2A, 'jsonrpc.send-streaming-message.sse');
  assert.equal(events.length, 4);
  const results = events.map((e) => decodeStreamEvent(JSON.parse(e.data), a2aStreamReq, e.event));
  assert.deepEqual(
    results.map((r) => r.kind),
    ['task', 'status-update', 'artifact-update', 'status-update'],
  );
  assert.deepEqual(
    results.map((r) => r.state),
    ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', undefined, 'TASK_STATE_COMPLETED'],
  );
  assert.equal(results[0]?.taskId, '3f6c1b1e-8f0a-4f5e-9d1c-2b7a4e9c0d11');
  assert.equal(results[2]?.artifacts.length, 1);
  assert.equal(results[3]?.final, true);
  noDrift(results, a2aStreamReq, ctxFor(a2aCard, 'summarize-v2', a2aCardUrl));
});

test('a2a-python HTTP+JSON message:stream (CRLF SSE, bare StreamResponse): decoded, no drift', () => {
  assert.ok(a2aRestStreamReq);
  const events = sse(A2A, 'rest.message-stream.sse');
  assert.equal(events.length, 4);
  const results = events.map((e) =>
    decodeStreamEvent(JSON.parse(e.data), a2aRestStreamReq, e.event),
  );
  assert.deepEqual(
    results.map((r) => r.kind),
    ['task', 'status-update', 'artifact-update', 'status-update'],
  );
  assert.equal(results[3]?.state, 'TASK_STATE_COMPLETED');
  noDrift(results, a2aRestStreamReq, ctxFor(a2aCard, 'summarize-v2', a2aCardUrl));
});

test('a2a-python healthy GetTask: completed task with its artifact, no drift', () => {
  const getReq = rpcRequest({
    jsonrpc: '2.0',
    id: 'req-2',
    method: 'GetTask',
    params: { id: '3f6c1b1e-8f0a-4f5e-9d1c-2b7a4e9c0d11' },
  });
  const r = decodeResponse(json(A2A, 'jsonrpc.get-task.completed.response.json'), getReq, 200);
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(r.artifacts.length, 1);
  noDrift([r], getReq, ctxFor(a2aCard, 'summarize-v2', a2aCardUrl));
});

test('a2a-python HTTP+JSON 400 google.rpc.Status body: error with reason INVALID_PARAMS → invalid_params', () => {
  assert.ok(a2aRestSendReq);
  const r = decodeResponse(
    json(A2A, 'rest.message-send.invalid-params.response.json'),
    a2aRestSendReq,
    400,
  );
  assert.equal(r.kind, 'error');
  assert.equal(r.error?.reason, 'INVALID_PARAMS');
  const j = judge(a2aRestSendReq, ctxFor(a2aCard, 'summarize-v2', a2aCardUrl), r, opts);
  assert.equal(j.drift?.kind, 'invalid_params');
});

test('a2a-python HTTP+JSON stream with CRLF `event: error`: error result with reason INVALID_PARAMS → invalid_params', () => {
  assert.ok(a2aRestStreamReq);
  const events = sse(A2A, 'rest.message-stream.invalid-params.sse');
  assert.equal(events.length, 2);
  assert.equal(events[1]?.event, 'error');
  const first = decodeStreamEvent(JSON.parse(events[0]!.data), a2aRestStreamReq, events[0]!.event);
  assert.equal(first.kind, 'task');
  const r = decodeStreamEvent(JSON.parse(events[1]!.data), a2aRestStreamReq, events[1]!.event);
  assert.equal(r.kind, 'error');
  assert.equal(r.error?.reason, 'INVALID_PARAMS');
  assert.equal(
    judge(a2aRestStreamReq, ctxFor(a2aCard, 'summarize-v2', a2aCardUrl), r, opts).drift?.kind,
    'invalid_params',
  );
});

test('a2a-python JSON-RPC stream with `event: error` (-32602 + ErrorInfo data) → invalid_params', () => {
  const events = sse(A2A, 'jsonrpc.send-streaming-message.invalid-params.sse');
  assert.equal(events[1]?.event, 'error');
  const r = decodeStreamEvent(JSON.parse(events[1]!.data), a2aStreamReq, events[1]!.event);
  assert.equal(r.kind, 'error');
  assert.equal(r.error?.code, -32602);
  assert.equal(r.error?.reason, 'INVALID_PARAMS');
  assert.equal(
    judge(a2aStreamReq, ctxFor(a2aCard, 'summarize-v2', a2aCardUrl), r, opts).drift?.kind,
    'invalid_params',
  );
});

for (const [name, method] of [
  ['jsonrpc-v0.3.message-send.unknown-skill.response.json', 'message/send'],
  ['jsonrpc.send-message.unknown-skill.response.json', 'SendMessage'],
] as const) {
  test(`a2a-python ${method}: -32603 "unknown skill: summarize-v2" is unknown_skill for summarize-v2, no drift for translate`, () => {
    const body = json(A2A, name);
    const message =
      method === 'message/send'
        ? { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'x' }] }
        : { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] };
    for (const [skill, expected] of [
      ['summarize-v2', 'unknown_skill'],
      ['translate', undefined],
    ] as const) {
      const req = rpcRequest({
        jsonrpc: '2.0',
        id: 'req-3',
        method,
        params: { message: { ...message, metadata: { skillId: skill } } },
      });
      assert.equal(req.skillId, skill);
      const r = decodeResponse(body, req, 200);
      assert.equal(r.kind, 'error');
      assert.equal(r.error?.code, -32603);
      const j = judge(req, ctxFor(a2aCard, skill, a2aCardUrl), r, opts);
      assert.equal(j.drift?.kind, expected, `requested ${skill}`);
    }
  });
}

// ───────────────────────────────────────────── fasta2a

const FA = 'fasta2a';
const faCardUrl = 'http://127.0.0.1:8000/.well-known/agent.json';
const faCard = decodeCard(json(FA, 'card.well-known-agent.json'));

function faSend(skill: string): DecodedRequest {
  return rpcRequest({
    jsonrpc: '2.0',
    id: 'req-1',
    method: 'message/send',
    params: {
      message: {
        role: 'user',
        kind: 'message',
        messageId: 'm1',
        parts: [{ kind: 'text', text: 'x' }],
        metadata: { skillId: skill },
      },
    },
  });
}
const faGet = rpcRequest({
  jsonrpc: '2.0',
  id: 'req-1-get',
  method: 'tasks/get',
  params: { id: 't' },
});

test('fasta2a card (/.well-known/agent.json, protocolVersion 0.2.5): recognised with url and skills', () => {
  const body = json(FA, 'card.well-known-agent.json');
  assert.equal(isAgentCard(body), true);
  assert.equal(faCard.problem, undefined);
  assert.equal(faCard.name, 'Docs Agent');
  assert.equal(faCard.version, '1.4.0');
  assert.match(faCard.protocolVersion ?? '', /^0\.2/);
  assert.equal(faCard.streaming, false);
  assert.ok(
    faCard.endpoints.some((e) => e.url === 'http://127.0.0.1:8000'),
    JSON.stringify(faCard.endpoints),
  );
  assert.deepEqual(
    faCard.skills.map((s) => s.id),
    ['summarize', 'translate'],
  );
  assert.deepEqual(faCard.defaultOutputModes, ['application/json']);
});

test('fasta2a message/send response: a task (state as the worker left it)', () => {
  const r = decodeResponse(
    json(FA, 'unknown-skill.message-send.response.json'),
    faSend('translate'),
    200,
  );
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_SUBMITTED');
  assert.equal(r.taskId, 'cb71c309-a1cb-4479-9881-45f2f0d05c88');
  assert.equal(
    judge(faSend('translate'), ctxFor(faCard, 'translate', faCardUrl), r, opts).drift,
    undefined,
  );
});

test('fasta2a tasks/get: failed task, no status message, "Unknown skill: translate" only in history → unknown_skill', () => {
  const r = decodeResponse(json(FA, 'unknown-skill.tasks-get.response.json'), faGet, 200);
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(r.statusText, undefined);
  assert.match(r.historyText ?? '', /Unknown skill: translate/);
  const j = judge(faGet, ctxFor(faCard, 'translate', faCardUrl), r, opts);
  assert.equal(j.drift?.kind, 'unknown_skill');
  assert.equal(j.drift?.skillId, 'translate');
});

test('fasta2a tasks/get: completed task with artifacts, no drift', () => {
  const r = decodeResponse(json(FA, 'completed.tasks-get.response.json'), faGet, 200);
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(r.artifacts.length, 1);
  noDrift([r], faGet, ctxFor(faCard, 'summarize', faCardUrl));
  // the synchronous message/send answer was already completed (InMemoryBroker ran the worker first)
  const s = decodeResponse(
    json(FA, 'completed.message-send.response.json'),
    faSend('summarize'),
    200,
  );
  assert.equal(s.state, 'TASK_STATE_COMPLETED');
  noDrift([s], faSend('summarize'), ctxFor(faCard, 'summarize', faCardUrl));
});

test('fasta2a: failed task with no text anywhere (worker exception) and -32001 are not drift', () => {
  const r = decodeResponse(json(FA, 'worker-exception.tasks-get.response.json'), faGet, 200);
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(judge(faGet, ctxFor(faCard, 'summarize', faCardUrl), r, opts).drift, undefined);
  const nf = decodeResponse(json(FA, 'tasks-get.not-found.response.json'), faGet, 200);
  assert.equal(nf.kind, 'error');
  assert.equal(nf.error?.code, -32001);
  assert.equal(judge(faGet, ctxFor(faCard, 'summarize', faCardUrl), nf, opts).drift, undefined);
});

// ───────────────────────────────────────────── python-a2a

const PY = 'python-a2a';
const pyCardBody = json(PY, 'card.well-known-agent.json') as { url: string };
const pyCardUrl = `${pyCardBody.url}/.well-known/agent.json`;
const pyCard = decodeCard(pyCardBody);
const pyUser = { role: 'user', parts: [{ type: 'text', text: 'summarize: the quarterly report' }] };
/** python-a2a requests carry no skill id: the application declares it (withSkill). */
function withSkill(req: DecodedRequest, skill: string): DecodedRequest {
  return { ...req, skillId: skill, skillIdSource: 'application' };
}
const pySend = rpcRequest({
  jsonrpc: '2.0',
  id: 'req-1',
  method: 'tasks/send',
  params: { id: 'task-1', sessionId: 'session-1', message: pyUser },
});
const pySub = rpcRequest({
  jsonrpc: '2.0',
  id: 'req-4',
  method: 'tasks/sendSubscribe',
  params: { id: 'task-4', sessionId: 'session-1', message: pyUser },
});

test('python-a2a card at /.well-known/agent.json and /agent.json: same bytes, recognised', () => {
  assert.equal(raw(PY, 'card.agent.json'), raw(PY, 'card.well-known-agent.json'));
  assert.equal(isAgentCard(pyCardBody), true);
  assert.equal(pyCard.problem, undefined);
  assert.equal(pyCard.name, 'Docs Agent');
  assert.equal(pyCard.version, '1.4.0');
  assert.equal(pyCard.streaming, true);
  assert.deepEqual(
    pyCard.endpoints.map((e) => e.url),
    [pyCardBody.url],
  );
  assert.deepEqual(
    pyCard.skills.map((s) => s.id),
    ['summarize', 'translate'],
  );
  assert.deepEqual(pyCard.skills[0]?.outputModes, ['text/plain']);
});

test('python-a2a /.well-known/agent-card.json answers HTML (or an index JSON): not a card', () => {
  const html = raw(PY, 'agent-card-path.accept-any.html');
  assert.match(html, /^\s*<!DOCTYPE html>/);
  assert.throws(() => JSON.parse(html));
  assert.equal(isAgentCard(json(PY, 'agent-card-path.accept-json.json')), false);
});

test('python-a2a tasks/send response echoing `message`: decoded as a task (not a Message)', () => {
  const r = decodeResponse(json(PY, 'tasks-send.response.json'), pySend, 200);
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(r.taskId, 'task-1');
  assert.equal(r.artifacts.length, 1);
  noDrift([r], withSkill(pySend, 'summarize'), ctxFor(pyCard, 'summarize', pyCardUrl));
});

test('python-a2a tasks/sendSubscribe SSE (event: update / complete, id:, bare Task data): decoded, no drift', () => {
  const events = sse(PY, 'tasks-sendSubscribe.sse');
  assert.deepEqual(
    events.map((e) => e.event),
    ['update', 'complete'],
  );
  assert.deepEqual(
    events.map((e) => e.id),
    ['req-4', 'req-4'],
  );
  const results = events.map((e) => decodeStreamEvent(JSON.parse(e.data), pySub, e.event));
  assert.deepEqual(
    results.map((r) => r.kind),
    ['task', 'task'],
  );
  assert.deepEqual(
    results.map((r) => r.state),
    ['TASK_STATE_SUBMITTED', 'TASK_STATE_COMPLETED'],
  );
  assert.equal(results[1]?.taskId, 'task-4');
  assert.equal(results[1]?.artifacts.length, 1);
  assert.equal(results[1]?.final, true);
  noDrift(results, withSkill(pySub, 'summarize'), ctxFor(pyCard, 'summarize', pyCardUrl));
});

test('python-a2a stream: failed Task whose status.message is {"error":"Unknown skill: translate"} → unknown_skill', () => {
  const events = sse(PY, 'tasks-sendSubscribe.unknown-skill.sse');
  const last = events[events.length - 1]!;
  assert.equal(last.event, 'complete');
  const req = withSkill(pySub, 'translate');
  const r = decodeStreamEvent(JSON.parse(last.data), req, last.event);
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_FAILED');
  assert.equal(
    judge(req, ctxFor(pyCard, 'translate', pyCardUrl), r, opts).drift?.kind,
    'unknown_skill',
  );
});

test('python-a2a tasks/send: handler error becomes a COMPLETED task with a data part {"error": "...Unknown skill: translate"} → unknown_skill', () => {
  const req = withSkill(pySend, 'translate');
  const r = decodeResponse(json(PY, 'tasks-send.handler-error.response.json'), req, 200);
  assert.equal(r.kind, 'task');
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(
    judge(req, ctxFor(pyCard, 'translate', pyCardUrl), r, opts).drift?.kind,
    'unknown_skill',
  );
});

test('python-a2a: -32603 "Internal error: \'tuple\' object..." (HTTP 500) and a non-envelope 500 are errors, not drift', () => {
  const req = withSkill(pySend, 'translate');
  const r = decodeResponse(json(PY, 'tasks-send.unknown-skill.response.json'), req, 500);
  assert.equal(r.kind, 'error');
  assert.equal(r.error?.code, -32603);
  assert.equal(judge(req, ctxFor(pyCard, 'translate', pyCardUrl), r, opts).drift, undefined);
  const root = decodeResponse(json(PY, 'root-post.tasks-send.response.json'), req, 500);
  assert.equal(root.kind, 'error');
  assert.equal(judge(req, ctxFor(pyCard, 'translate', pyCardUrl), root, opts).drift, undefined);
});

// ───────────────────────────────────────────── Google ADK's own A2A server (@google/adk 2.0.0 toA2a)

const ADK = 'google-adk-server';
const adkDir = 'adk';
const adkCardUrl = 'http://127.0.0.1:1/desk/.well-known/agent-card.json';
const adkCard = decodeCard(json(adkDir, 'healthy-card-desk.json'));

/** The recorded request of an exchange (its .meta.json), decoded. */
function adkRequest(name: string): DecodedRequest {
  const meta = json(adkDir, `${name}.meta.json`) as { request: { body: unknown } };
  return rpcRequest(meta.request.body);
}

/** ctxFor with what negotiation adds: the skill's other names in the card (skill-names.ts). */
function adkCtx(card: DecodedCard, skillId: string): NegotiationContext {
  const skills = new Map(card.skills.map((s) => [s.id, s]));
  return {
    ...ctxFor(card, skillId, adkCardUrl),
    skillAliases: skillAliases(card, skills, skillId),
  };
}

function adkStream(name: string, req: DecodedRequest): DecodedResult[] {
  return sse(adkDir, name).map((e) => decodeStreamEvent(JSON.parse(e.data), req, e.event));
}

test(`${ADK} card: 0.3 card, skills <agent>-<tool> named after the tool, modes ["text"]`, () => {
  assert.equal(isAgentCard(json(adkDir, 'healthy-card-desk.json')), true);
  assert.deepEqual(
    adkCard.skills.map((s) => [s.id, s.name]),
    [
      ['desk', 'model'],
      ['desk-summarize', 'summarize'],
      ['desk-translate', 'translate'],
    ],
  );
  assert.deepEqual(adkCard.defaultOutputModes, ['text']);
});

test(`${ADK} healthy tool calls (send and stream): function_call / function_response parts are intermediate, no drift`, () => {
  for (const name of ['healthy-send-summarize', 'healthy-send-translate']) {
    const req = adkRequest(name);
    const r = decodeResponse(json(adkDir, `${name}.json`), req);
    const marks = r.artifacts.flatMap((a) => a.parts.map((p) => p.intermediate));
    assert.deepEqual(marks, ['adk_type=function_call', 'adk_type=function_response', undefined]);
    noDrift([r], req, adkCtx(adkCard, req.skillId as string));
  }
  for (const name of ['healthy-stream-summarize', 'healthy-stream-translate']) {
    const req = adkRequest(name);
    const results = adkStream(`${name}.sse`, req);
    assert.ok(results.some((r) => r.artifacts.some((a) => a.parts.some((p) => p.intermediate))));
    noDrift(results, req, adkCtx(adkCard, req.skillId as string));
  }
});

test(`${ADK} variant A: FAILED "Function translate is not found in the toolsDict." → unknown_skill for desk-translate`, () => {
  const req = adkRequest('variant-a-send-translate');
  const r = decodeResponse(json(adkDir, 'variant-a-send-translate.json'), req);
  assert.equal(r.state, 'TASK_STATE_FAILED');
  const v = judge(req, adkCtx(adkCard, 'desk-translate'), r, opts);
  assert.equal(v.drift?.kind, 'unknown_skill');
  assert.equal(v.drift?.matchedPattern, 'function not found in tools');
  // without the skill's other names the text names no requested skill
  assert.equal(judge(req, ctxFor(adkCard, 'desk-translate', adkCardUrl), r, opts).drift, undefined);
  // the same failure is no evidence against another skill of the card
  assert.equal(judge(req, adkCtx(adkCard, 'desk-summarize'), r, opts).drift, undefined);
  const sreq = adkRequest('variant-a-stream-translate');
  const kinds = adkStream('variant-a-stream-translate.sse', sreq)
    .map((e) => judge(sreq, adkCtx(adkCard, 'desk-translate'), e, opts).drift?.kind)
    .filter((k) => k !== undefined);
  assert.deepEqual(kinds, ['unknown_skill']);
});

test(`${ADK} variant B: an image/png artifact under a card that says text → output_mode_mismatch image/png`, () => {
  const req = adkRequest('variant-b-send-summarize');
  const r = decodeResponse(json(adkDir, 'variant-b-send-summarize.json'), req);
  const v = judge(req, adkCtx(adkCard, 'desk-summarize'), r, opts);
  assert.equal(v.drift?.kind, 'output_mode_mismatch');
  assert.equal(v.drift?.actualMediaType, 'image/png');
  assert.deepEqual(v.drift?.actualMediaTypes, ['image/png']);
  const sreq = adkRequest('variant-b-stream-summarize');
  const found = adkStream('variant-b-stream-summarize.sse', sreq)
    .map((e) => judge(sreq, adkCtx(adkCard, 'desk-summarize'), e, opts).drift)
    .filter((d) => d !== undefined);
  assert.deepEqual(
    found.map((d) => [d.kind, d.actualMediaType]),
    [['output_mode_mismatch', 'image/png']],
  );
});

test(`${ADK} a client naming the skill in a data part: candidates decoded, the card's skill taken`, () => {
  const req = adkRequest('healthy-send-data-part-skill');
  assert.equal(req.skillId, undefined);
  const named = skillNamedInMessage(
    req.partSkillNames,
    new Map(adkCard.skills.map((s) => [s.id, s])),
  );
  assert.deepEqual(named, { skillId: 'desk-summarize', source: 'message.parts[].data.skill' });
});
