/**
 * Which skill a call is for, however the caller names it, or does not (src/core/skill-names.ts
 * skillOfRequest, src/core/protocol/common.ts metadata keys, src/core/json-path.ts bracketed
 * keys), and the judgement of a call that names no skill against the card as a whole
 * (src/core/judge.ts, scope `card`). Each test here failed on the code before: metadata keys
 * other than the configured paths were never read, a dotted key could not be configured, and a
 * call without a skill id was `no skill id for this task` whatever it answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import { compilePatterns, judge, type NegotiationContext } from '../../src/core/judge';
import type { DecodedRequest, DecodedResult, SkillInfo } from '../../src/core/model';
import { isSkillKey, requestExtensions } from '../../src/core/protocol/common';
import { decodeGrpcRequest } from '../../src/core/protocol/grpc';
import { decodeHttpJsonRequest } from '../../src/core/protocol/http-json';
import { decodeJsonRpcRequest } from '../../src/core/protocol/jsonrpc';
import { getPath, splitPath } from '../../src/core/json-path';
import { cardOutputModes, skillOfRequest } from '../../src/core/skill-names';

const opts = {
  unknownSkillPatterns: compilePatterns(['unknown skill']),
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};

function cardOf(raw: Record<string, unknown>) {
  const card = decodeCard({
    name: 'desk',
    version: '1.0.0',
    url: 'http://127.0.0.1:1/a2a',
    protocolVersion: '0.3.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    ...raw,
  });
  const skills = new Map<string, SkillInfo>(card.skills.map((s) => [s.id, s]));
  return { card, skills };
}

const twoSkills = cardOf({
  skills: [
    { id: 'summarize', name: 'Summarize', outputModes: ['text/markdown'] },
    { id: 'translate', name: 'Translate' },
  ],
});

function send(metadata: Record<string, unknown>, where: 'message' | 'params' = 'message') {
  const params: Record<string, unknown> = {
    message: {
      kind: 'message',
      messageId: 'm1',
      role: 'user',
      parts: [{ kind: 'text', text: 'hi' }],
      ...(where === 'message' ? { metadata } : {}),
    },
    ...(where === 'params' ? { metadata } : {}),
  };
  const req = decodeJsonRpcRequest({ jsonrpc: '2.0', id: 1, method: 'message/send', params });
  assert.ok(req);
  return req;
}

test('a metadata key that names a skill: the rule, not a list', () => {
  for (const k of [
    'skill',
    'skillId',
    'skill_id',
    'skill-id',
    'SKILL_ID',
    'skillID',
    'skillName',
    'skill_name',
    'a2a.skillId',
    'a2a/skill',
    'targetSkill',
    'requested_skill_id',
  ])
    assert.equal(isSkillKey(k), true, k);
  for (const k of [
    'skillLevel',
    'skills',
    'skills_count',
    'skillset',
    'skill_params',
    'a2a.skillParams',
    'skillIds',
    'noskill',
    '',
    `${'x'.repeat(80)}Skill`,
  ])
    assert.equal(isSkillKey(k), false, k);
});

test('Message.metadata["a2a.skillId"] names a skill the card lists; the source is its bracketed path', () => {
  const req = send({ 'a2a.skillId': 'translate', 'a2a.skillParams': { to: 'fr' } });
  assert.equal(req.skillId, undefined); // not a configured path: a candidate only
  assert.deepEqual(skillOfRequest(req, { skills: twoSkills.skills }), {
    skillId: 'translate',
    source: 'params.message.metadata["a2a.skillId"]',
  });
  // by the name the skill goes by, and in the request's own metadata
  assert.deepEqual(skillOfRequest(send({ skillName: 'Summarize' }, 'params'), twoSkills), {
    skillId: 'summarize',
    source: 'params.metadata.skillName',
  });
});

test('the same reading on HTTP+JSON and gRPC', () => {
  const body = {
    message: {
      messageId: 'm1',
      role: 'ROLE_USER',
      parts: [{ text: 'hi' }],
      metadata: { 'a2a.skillId': 'translate' },
    },
  };
  const rest = decodeHttpJsonRequest('POST', '/v1/message:send', body);
  assert.ok(rest);
  assert.equal(skillOfRequest(rest, twoSkills)?.source, 'params.message.metadata["a2a.skillId"]');
  const grpc = decodeGrpcRequest('/a2a.v1.A2AService/SendMessage', {
    request: {
      messageId: 'm1',
      role: 'ROLE_USER',
      content: [{ text: 'hi' }],
      metadata: { skill: 'summarize' },
    },
  });
  assert.ok(grpc);
  assert.equal(skillOfRequest(grpc, twoSkills)?.skillId, 'summarize');
});

test('a metadata name no card lists, skillLevel: 3, non-strings: no skill id', () => {
  assert.equal(skillOfRequest(send({ skill: 'nope' }), twoSkills), undefined);
  assert.equal(
    skillOfRequest(send({ skillLevel: 3, skill_count: 'translate' }), twoSkills),
    undefined,
  );
  assert.equal(
    skillOfRequest(send({ skillId: { id: 'translate' }, skill: 7 }), twoSkills),
    undefined,
  );
  assert.equal(skillOfRequest(send({ skill: 'x'.repeat(100_000) }), twoSkills), undefined);
});

test('metadata with thousands of keys: only the first 64 are looked at', () => {
  const many: Record<string, unknown> = {};
  for (let i = 0; i < 5000; i++) many[`k${i}`] = 'translate';
  many['skill'] = 'translate';
  assert.equal(send(many).metadataSkillNames, undefined);
  const early: Record<string, unknown> = { skill: 'translate' };
  for (let i = 0; i < 5000; i++) early[`k${i}`] = i;
  assert.equal(skillOfRequest(send(early), twoSkills)?.skillId, 'translate');
});

test("a skill's name that is another skill's id: the id wins", () => {
  const c = cardOf({
    skills: [
      { id: 'translate', name: 'Translate' },
      { id: 'legacy', name: 'translate' },
    ],
  });
  assert.equal(skillOfRequest(send({ skill: 'translate' }), c)?.skillId, 'translate');
});

test('configured paths keep precedence, taken as written', () => {
  const req = send({ skillId: 'not-listed', 'a2a.skillId': 'translate' });
  assert.deepEqual(skillOfRequest(req, twoSkills), {
    skillId: 'not-listed',
    source: 'params.message.metadata.skillId',
  });
});

test('an earlier card of the agent that listed the name: the skill, marked so', () => {
  const before = cardOf({ skills: [{ id: 'legacy' }, { id: 'other' }] });
  assert.deepEqual(skillOfRequest(send({ skill: 'legacy' }), twoSkills, [before]), {
    skillId: 'legacy',
    source: 'params.message.metadata.skill (earlier card)',
  });
});

test('a call that names no skill, to a card of one skill: that skill', () => {
  const one = cardOf({ skills: [{ id: 'only' }] });
  assert.deepEqual(skillOfRequest(send({}), one), {
    skillId: 'only',
    source: 'only skill in card',
  });
  assert.equal(skillOfRequest(send({}), twoSkills), undefined);
  // a read of a task this process did not see created: no skill guessed (a failed GetTask of an
  // unknown task id would otherwise raise a suspicion about the card's one skill)
  assert.equal(skillOfRequest(send({}), one, undefined, false), undefined);
  assert.equal(skillOfRequest(send({}), { skills: one.skills, truncated: true }), undefined);
});

test('skillIdPaths address a key with dots in brackets', () => {
  assert.deepEqual(splitPath('params.message.metadata["a2a.skillId"]'), [
    'params',
    'message',
    'metadata',
    'a2a.skillId',
  ]);
  assert.equal(splitPath('params["a.b"'), null);
  const req = decodeJsonRpcRequest(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { parts: [], metadata: { 'a2a.skillId': 'x' } } },
    },
    ['params.message.metadata["a2a.skillId"]'],
  );
  assert.equal(req?.skillId, 'x');
  assert.equal(getPath({ 'a.b': { c: 1 } }, '["a.b"].c'), 1);
});

test('A2A-Extensions: distinct URIs, bounded', () => {
  assert.deepEqual(
    requestExtensions('https://a.example/ext/v1, https://b.example/x ,', undefined),
    ['https://a.example/ext/v1', 'https://b.example/x'],
  );
  assert.deepEqual(requestExtensions(undefined, 'urn:x', 'urn:x'), ['urn:x']);
  assert.equal(requestExtensions(undefined, ''), undefined);
  const many = requestExtensions(Array.from({ length: 500 }, (_, i) => `urn:${i}`).join(','));
  assert.equal(many?.length, 16);
  assert.equal(requestExtensions(`urn:${'x'.repeat(1000)}`)?.[0]?.length, 256);
});

/** The negotiation of a call that names no skill, as negotiation.ts builds it. */
function wide(c: ReturnType<typeof cardOf>): NegotiationContext {
  const w = cardOutputModes(c.card, c.skills);
  return {
    cardKnown: true,
    cardUrl: 'http://127.0.0.1:1/.well-known/agent-card.json',
    fingerprint: 'f'.repeat(64),
    ...('modes' in w ? { cardOutputModes: w.modes } : { cardModesUnjudged: w.unjudged }),
  };
}

const noSkillSend: DecodedRequest = {
  operation: 'SendMessage',
  wireMethod: 'message/send',
  binding: 'jsonrpc',
  streaming: false,
};

function answer(...parts: DecodedResult['artifacts'][number]['parts']): DecodedResult {
  return { kind: 'task', state: 'TASK_STATE_COMPLETED', taskId: 't1', artifacts: [{ parts }] };
}

test('variant B of a call that names no skill: a type no skill of the card lists is drift, scope card', () => {
  const v = judge(
    noSkillSend,
    wide(twoSkills),
    answer({ kind: 'file', mediaType: 'image/png' }),
    opts,
  );
  assert.equal(v.drift?.kind, 'output_mode_mismatch');
  assert.equal(v.drift?.scope, 'card');
  assert.equal(v.drift?.skillId, undefined);
  assert.equal(v.drift?.actualMediaType, 'image/png');
  assert.deepEqual([...(v.drift?.expectedModes ?? [])].sort(), ['text/markdown', 'text/plain']);
});

test('healthy answers of a call that names no skill: no drift, the reason on the span', () => {
  for (const part of [
    { kind: 'text' as const }, // pre-1.0 text part without media type
    { kind: 'text' as const, mediaType: 'text/markdown' },
    { kind: 'data' as const, intermediate: 'adk_type=function_call' }, // a tool call
    { kind: 'text' as const, intermediate: 'adk_thought=true', mediaType: 'application/x-thought' },
  ]) {
    const v = judge(noSkillSend, wide(twoSkills), answer(part), opts);
    assert.equal(v.drift, undefined, JSON.stringify(part));
    assert.match(v.unjudged ?? '', /no skill id for this task/);
  }
  // a card promising `text/*` covers every text type
  const wild = cardOf({ defaultOutputModes: ['text/*'], skills: [{ id: 'a' }, { id: 'b' }] });
  assert.equal(
    judge(noSkillSend, wide(wild), answer({ kind: 'text', mediaType: 'text/csv' }), opts).drift,
    undefined,
  );
  // old cards' bare words (`text`, ADK's) are read as their type family: a PNG is outside
  const bare = cardOf({ defaultOutputModes: ['text'], skills: [{ id: 'a' }, { id: 'b' }] });
  assert.equal(
    judge(noSkillSend, wide(bare), answer({ kind: 'file', mediaType: 'image/png' }), opts).drift
      ?.scope,
    'card',
  );
  assert.equal(
    judge(noSkillSend, wide(bare), answer({ kind: 'text', mediaType: 'text/markdown' }), opts)
      .drift,
    undefined,
  );
  // a mode that is no media type at all: the card cannot be read, no verdict
  const odd = cardOf({ defaultOutputModes: ['plain words'], skills: [{ id: 'a' }, { id: 'b' }] });
  assert.equal(
    judge(noSkillSend, wide(odd), answer({ kind: 'file', mediaType: 'image/png' }), opts).drift,
    undefined,
  );
});

test('a card with no skills, or no output modes anywhere: no card-wide verdict, the reason', () => {
  const none = cardOf({ skills: [] });
  assert.match(
    judge(noSkillSend, wide(none), answer({ kind: 'file', mediaType: 'image/png' }), opts)
      .unjudged ?? '',
    /card lists no skills/,
  );
  const noModes = cardOf({ defaultOutputModes: [], skills: [{ id: 'a' }, { id: 'b' }] });
  const v = judge(
    noSkillSend,
    wide(noModes),
    answer({ kind: 'file', mediaType: 'image/png' }),
    opts,
  );
  assert.equal(v.drift, undefined);
  assert.match(v.unjudged ?? '', /card states no output modes/);
});
