/**
 * The attribute builder (span-attributes.ts) as pure functions: for each moment of a call, the
 * exact attributes (and status, and event) it returns for given inputs. Cards are real registry
 * entries (CardRegistry.put of a decoded card); card URLs are reported without their query,
 * fragment or credentials wherever they appear.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { decodeCard } from '../../src/core/card';
import { ArtifactSchemaDriftError, StaleAgentCardError } from '../../src/core/errors';
import type { DriftEvent } from '../../src/core/judge';
import type { DecodedRequest, DecodedResult } from '../../src/core/model';
import { CardRegistry } from '../../src/core/card-registry';
import {
  callEndAttributes,
  cardFetchStartAttributes,
  cardResponseAttributes,
  driftMetricAttributes,
  driftUpdate,
  grpcCallAttributes,
  grpcStatusAttributes,
  httpErrorUpdate,
  negotiationAttributes,
  operationStartAttributes,
  pushPayloadAttributes,
  refetchAttributes,
  responseHeadersAttributes,
  resultUpdate,
  NO_RESULT_UPDATE,
  thrownErrorUpdate,
  unconfirmedAttributes,
  unjudgedAttributes,
} from '../../src/telemetry/span-attributes';

const CARD_URL = 'https://peer.example/.well-known/agent-card.json?assistant_id=a1#frag';
const REPORTED_CARD_URL = 'https://peer.example/.well-known/agent-card.json';
const FP1 = '1'.repeat(64);
const FP2 = '2'.repeat(64);
const LONG = 'x'.repeat(300);
const CAPPED = 'x'.repeat(256);

function cardJson(skills: string[], version = '1.0.0'): Record<string, unknown> {
  return {
    name: 'Peer',
    version,
    protocolVersion: '0.3.0',
    url: 'https://peer.example/a2a',
    description: 'd',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: skills.map((id) => ({ id, name: id, description: id, tags: [] })),
  };
}

const sendRequest: DecodedRequest = {
  operation: 'SendMessage',
  wireMethod: 'message/send',
  binding: 'jsonrpc',
  streaming: false,
  contextId: 'ctx-1',
  messageId: 'msg-1',
};

const peer = { host: '127.0.0.1', port: 8080 };

test('start of a card fetch: the peer, or nothing for an unparsed URL', () => {
  assert.deepEqual(cardFetchStartAttributes(peer), {
    'server.address': '127.0.0.1',
    'server.port': 8080,
  });
  assert.deepEqual(cardFetchStartAttributes({ host: undefined, port: undefined }), {});
});

test('start of a SendMessage with a card held: operation, ids, skill, the card (suspect), version from the card', () => {
  const cards = new CardRegistry();
  const { entry } = cards.put(CARD_URL, decodeCard(cardJson(['search'])), FP1, 0);
  cards.markSuspect(CARD_URL, 'fleet');
  const attrs = operationStartAttributes({
    url: peer,
    request: { ...sendRequest, skillId: LONG, skillIdSource: 'params.skillId' },
    push: false,
    negotiated: {
      context: { cardKnown: true, skillId: LONG },
      skillIdSource: 'params.skillId',
      entry,
    },
    versionFromCard: '0.3',
  });
  assert.deepEqual(attrs, {
    'server.address': '127.0.0.1',
    'server.port': 8080,
    'a2a.method.name': 'SendMessage',
    'a2a.binding': 'jsonrpc',
    'gen_ai.operation.name': 'invoke_agent',
    'a2a.protocol.version': '0.3',
    'gen_ai.conversation.id': 'ctx-1',
    'a2a.message.id': 'msg-1',
    'a2a.skill.id': CAPPED,
    'a2a.skill.id_source': 'params.skillId',
    'a2a.agent_card.fingerprint': FP1,
    'a2a.agent_card.url': REPORTED_CARD_URL,
    'gen_ai.agent.name': 'Peer',
    'gen_ai.agent.version': '1.0.0',
    'a2a.agent_card.suspect': true,
    'a2a.agent_card.suspect_source': 'fleet',
  });
});

test("start: the request's own version wins over the card's; a push has no method name or binding", () => {
  const attrs = operationStartAttributes({
    url: { host: undefined, port: undefined },
    request: {
      operation: 'GetTask',
      wireMethod: 'tasks/get',
      binding: 'jsonrpc',
      streaming: false,
      taskId: LONG,
      protocolVersion: '0.2',
    },
    push: true,
    negotiated: { context: { cardKnown: false } },
    versionFromCard: '0.3',
  });
  assert.deepEqual(attrs, { 'a2a.protocol.version': '0.2', 'a2a.task.id': CAPPED });
});

test('negotiation of a lifecycle call: the remembered card (URL without query) and known, or not known', () => {
  assert.deepEqual(
    negotiationAttributes({
      context: {
        cardKnown: true,
        skillId: 'search',
        cardUrl: CARD_URL,
        fingerprint: FP1,
        agentName: LONG,
        cardVersion: '2',
      },
      skillIdSource: 'application',
      lifecycleKnown: true,
    }),
    {
      'a2a.skill.id': 'search',
      'a2a.skill.id_source': 'application',
      'a2a.agent_card.fingerprint': FP1,
      'a2a.agent_card.url': REPORTED_CARD_URL,
      'gen_ai.agent.name': CAPPED,
      'gen_ai.agent.version': '2',
      'a2a.lifecycle.negotiation_known': true,
    },
  );
  assert.deepEqual(
    negotiationAttributes({
      context: { cardKnown: false },
      skillIdSource: 'params.skillId', // no skill id: no source
      lifecycleKnown: false,
    }),
    { 'a2a.lifecycle.negotiation_known': false },
  );
});

test('a card response: the card, its freshness, skill count, version; previous fingerprint and version when changed', () => {
  const cards = new CardRegistry();
  cards.put(CARD_URL, decodeCard(cardJson(['a'], '1')), FP1, 0);
  const update = cards.put(CARD_URL, decodeCard(cardJson(['a', 'b'], LONG)), FP2, 1);
  assert.deepEqual(
    cardResponseAttributes({
      update,
      fresh: { maxAge: 60, etag: '"e1"', lastModified: 'Sat, 05 Dec 2026 10:00:00 GMT' },
      skillCount: 2,
      protocolVersion: '0.3',
    }),
    {
      'a2a.agent_card.fingerprint': FP2,
      'a2a.agent_card.url': REPORTED_CARD_URL,
      'gen_ai.agent.name': 'Peer',
      'gen_ai.agent.version': CAPPED,
      'a2a.agent_card.max_age_s': 60,
      'a2a.agent_card.etag': '"e1"',
      'a2a.agent_card.last_modified': 'Sat, 05 Dec 2026 10:00:00 GMT',
      'a2a.agent_card.skill_count': 2,
      'a2a.protocol.version': '0.3',
      'a2a.agent_card.previous_fingerprint': FP1,
      'a2a.agent_card.version_changed': true,
      'a2a.agent_card.previous_version': '1',
    },
  );
  const same = cards.put(CARD_URL, decodeCard(cardJson(['a', 'b'], LONG)), FP2, 2);
  assert.deepEqual(cardResponseAttributes({ update: same, skillCount: 2 }), {
    'a2a.agent_card.fingerprint': FP2,
    'a2a.agent_card.url': REPORTED_CARD_URL,
    'gen_ai.agent.name': 'Peer',
    'gen_ai.agent.version': CAPPED,
    'a2a.agent_card.skill_count': 2,
  });
});

test('response headers and an HTTP error', () => {
  assert.deepEqual(responseHeadersAttributes(503), { 'http.response.status_code': 503 });
  assert.deepEqual(httpErrorUpdate(503), {
    attributes: { 'error.type': '503' },
    status: { code: SpanStatusCode.ERROR, message: 'HTTP 503' },
  });
});

test('a result: task id once, conversation id and state when they change, the version normalised', () => {
  const result: DecodedResult = {
    kind: 'task',
    artifacts: [],
    taskId: LONG,
    contextId: 'ctx-2',
    state: 'TASK_STATE_WORKING',
    protocolVersion: '0.3.0',
  };
  assert.deepEqual(resultUpdate(result, { drifted: false }), {
    attributes: {
      'a2a.task.id': CAPPED,
      'gen_ai.conversation.id': 'ctx-2',
      'a2a.task.state': 'TASK_STATE_WORKING',
      'a2a.protocol.version': '0.3',
    },
  });
  assert.deepEqual(
    resultUpdate(result, {
      taskId: 't0',
      contextId: 'ctx-2',
      state: 'TASK_STATE_WORKING',
      requestVersion: '0.2',
      drifted: false,
    }),
    { attributes: {} },
  );
  assert.deepEqual(
    resultUpdate(
      { kind: 'task', artifacts: [], state: 'TASK_STATE_COMPLETED', protocolVersion: 'v-next' },
      {
        taskId: 't0',
        state: 'TASK_STATE_WORKING',
        drifted: false,
      },
    ),
    { attributes: { 'a2a.task.state': 'TASK_STATE_COMPLETED', 'a2a.protocol.version': 'v-next' } },
  );
});

test('a result repeating what the span says (a stream event): the one shared, frozen empty update', () => {
  const seen = {
    taskId: 't0',
    contextId: 'ctx-2',
    state: 'TASK_STATE_WORKING',
    resultVersion: '1.0',
    drifted: false,
  };
  const repeat: DecodedResult = {
    kind: 'artifact-update',
    artifacts: [],
    taskId: 't0',
    contextId: 'ctx-2',
    state: 'TASK_STATE_WORKING',
    protocolVersion: '1.0',
  };
  assert.equal(resultUpdate(repeat, seen), NO_RESULT_UPDATE);
  assert.equal(resultUpdate({ kind: 'artifact-update', artifacts: [] }, seen), NO_RESULT_UPDATE);
  assert.ok(Object.isFrozen(NO_RESULT_UPDATE) && Object.isFrozen(NO_RESULT_UPDATE.attributes));
  assert.deepEqual(NO_RESULT_UPDATE, { attributes: {} });
  // Anything new is said as before: another version, context or state, an error.
  assert.deepEqual(resultUpdate({ ...repeat, protocolVersion: '0.3.0' }, seen), {
    attributes: { 'a2a.protocol.version': '0.3' },
  });
  assert.deepEqual(resultUpdate({ ...repeat, contextId: 'ctx-3' }, seen), {
    attributes: { 'gen_ai.conversation.id': 'ctx-3' },
  });
  assert.deepEqual(resultUpdate({ ...repeat, state: 'TASK_STATE_COMPLETED' }, seen), {
    attributes: { 'a2a.task.state': 'TASK_STATE_COMPLETED' },
  });
  assert.deepEqual(resultUpdate({ ...repeat, taskId: 't1' }, { ...seen, taskId: undefined }), {
    attributes: { 'a2a.task.id': 't1' },
  });
  assert.deepEqual(resultUpdate({ ...repeat, error: { code: 5 } }, seen), {
    attributes: { 'error.type': '5' },
    status: { code: SpanStatusCode.ERROR, message: 'A2A error 5' },
  });
});

test('an A2A error result: its code as error.type (not after drift), status with code and reason only', () => {
  const result: DecodedResult = {
    kind: 'error',
    artifacts: [],
    error: { code: -32001, reason: LONG, message: 'secret text the peer echoed' },
  };
  assert.deepEqual(resultUpdate(result, { drifted: false }), {
    attributes: { 'error.type': '-32001' },
    status: { code: SpanStatusCode.ERROR, message: `A2A error -32001 ${CAPPED}` },
  });
  assert.deepEqual(resultUpdate(result, { drifted: true }), {
    attributes: {},
    status: { code: SpanStatusCode.ERROR, message: `A2A error -32001 ${CAPPED}` },
  });
  assert.deepEqual(resultUpdate({ kind: 'error', artifacts: [], error: {} }, { drifted: false }), {
    attributes: {},
    status: { code: SpanStatusCode.ERROR, message: 'A2A error' },
  });
});

test('push payload, unjudged reason, stream end, gRPC call and status', () => {
  assert.deepEqual(pushPayloadAttributes({ kind: 'status-update', artifacts: [] }), {
    'a2a.push.payload': 'status-update',
  });
  assert.deepEqual(pushPayloadAttributes({ kind: 'other', artifacts: [] }), {});
  assert.deepEqual(unjudgedAttributes('response is text/html, not JSON'), {
    'a2a.drift.unjudged_reason': 'response is text/html, not JSON',
  });
  assert.deepEqual(callEndAttributes(0), {});
  assert.deepEqual(callEndAttributes(1), {});
  assert.deepEqual(callEndAttributes(7), { 'a2a.stream.event_count': 7 });
  assert.deepEqual(grpcCallAttributes('lf.a2a.v1.A2AService', 'SendMessage'), {
    'rpc.system': 'grpc',
    'rpc.service': 'lf.a2a.v1.A2AService',
    'rpc.method': 'SendMessage',
  });
  assert.deepEqual(grpcStatusAttributes(9), { 'rpc.grpc.status_code': 9 });
});

test('a thrown error: its name as error.type, its message without credentials or queries', () => {
  const err = new TypeError('fetch failed for https://alice:pw@peer.example/a2a?api_key=k1 now');
  assert.deepEqual(thrownErrorUpdate(err), {
    attributes: { 'error.type': 'TypeError' },
    status: {
      code: SpanStatusCode.ERROR,
      message: 'fetch failed for https://peer.example/a2a now',
    },
  });
  const nameless = new Error('x');
  nameless.name = '';
  assert.equal(thrownErrorUpdate(nameless).attributes['error.type'], 'Error');
});

test('a drift: attributes and error status; confirmed by a re-fetch; card_changed as an event, no status', () => {
  const event: DriftEvent = {
    kind: 'unknown_skill',
    error: new StaleAgentCardError('skill gone from https://peer.example/card?token=t', {
      kind: 'unknown_skill',
    }),
    skillId: 'search',
    cardUrl: CARD_URL,
    fingerprint: FP1,
    evidence: 'content',
  };
  assert.deepEqual(driftUpdate(event), {
    attributes: {
      'a2a.drift.kind': 'unknown_skill',
      'error.type': 'StaleAgentCardError',
      'a2a.drift.evidence': 'content',
    },
    status: { code: SpanStatusCode.ERROR, message: 'skill gone from https://peer.example/card' },
  });
  assert.deepEqual(driftUpdate(event, { fingerprint: FP2 }).attributes, {
    'a2a.drift.kind': 'unknown_skill',
    'error.type': 'StaleAgentCardError',
    'a2a.drift.evidence': 'content',
    'a2a.drift.refetch': 'changed',
    'a2a.drift.confirmed': true,
    'a2a.drift.current_fingerprint': FP2,
  });
  const changed: DriftEvent = {
    kind: 'card_changed',
    error: new StaleAgentCardError('m', { kind: 'card_changed' }),
    previousFingerprint: FP1,
    fingerprint: FP2,
  };
  const fingerprints = {
    'a2a.drift.kind': 'card_changed',
    'a2a.drift.previous_fingerprint': FP1,
    'a2a.drift.current_fingerprint': FP2,
  };
  assert.deepEqual(driftUpdate(changed), {
    attributes: fingerprints,
    event: { name: 'a2a.agent_card.changed', attributes: fingerprints },
  });
});

test('re-fetch and unconfirmed suspicion', () => {
  assert.deepEqual(refetchAttributes(undefined, FP1), { 'a2a.drift.refetch': 'failed' });
  assert.deepEqual(refetchAttributes(FP1, FP1), {
    'a2a.drift.refetch': 'unchanged',
    'a2a.drift.confirmed': false,
  });
  assert.deepEqual(refetchAttributes(FP2, FP1), {
    'a2a.drift.refetch': 'changed',
    'a2a.drift.confirmed': true,
    'a2a.drift.current_fingerprint': FP2,
  });
  assert.deepEqual(unconfirmedAttributes({ kind: 'unknown_skill' }, 'unchanged'), {
    'a2a.drift.unconfirmed': 'unknown_skill',
    'a2a.drift.refetch': 'unchanged',
  });
  assert.deepEqual(
    unconfirmedAttributes({ kind: 'unknown_skill', suspicion: 'failure' }, 'failed'),
    {
      'a2a.drift.unconfirmed': 'unknown_skill',
      'a2a.drift.refetch': 'failed',
      'a2a.drift.suspicion': 'failure',
    },
  );
});

test('the drift counter reports the card URL without query or fragment', () => {
  const event: DriftEvent = {
    kind: 'output_mode_mismatch',
    error: new ArtifactSchemaDriftError('m', { kind: 'output_mode_mismatch' }),
    cardUrl: 'https://peer.example/.well-known/agent-card.json?assistant_id=a1#f',
  };
  assert.equal(
    driftMetricAttributes(event, peer)['a2a.agent_card.url'],
    'https://peer.example/.well-known/agent-card.json',
  );
});
