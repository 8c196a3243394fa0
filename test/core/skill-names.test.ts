/**
 * The names a skill goes by (src/core/skill-names.ts) and evidence that names the skill by them
 * (src/core/evidence.ts), and the skill a client names in a data part of its message
 * (src/core/protocol/common.ts). Cards as Google ADK's `toA2a` generates them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import { compilePatterns, judge, type NegotiationContext } from '../../src/core/judge';
import { missingSkillLabel } from '../../src/core/evidence';
import type { SkillInfo } from '../../src/core/model';
import { decodeJsonRpcRequest } from '../../src/core/protocol/jsonrpc';
import { decodeHttpJsonRequest } from '../../src/core/protocol/http-json';
import { skillAliases, skillNamedInMessage } from '../../src/core/skill-names';

const adkCard = decodeCard({
  name: 'desk',
  description: 'desk agent',
  protocolVersion: '0.3.0',
  version: '1.0.0',
  url: 'http://127.0.0.1:1/desk/jsonrpc',
  preferredTransport: 'JSONRPC',
  capabilities: { streaming: true },
  defaultInputModes: ['text'],
  defaultOutputModes: ['text'],
  skills: [
    { id: 'desk', name: 'model', description: 'x', tags: ['llm'] },
    { id: 'desk-summarize', name: 'summarize', description: 'x', tags: ['llm', 'tools'] },
    { id: 'desk-translate', name: 'translate', description: 'x', tags: ['llm', 'tools'] },
  ],
});

function skillsOf(card: { skills: SkillInfo[] }): Map<string, SkillInfo> {
  return new Map(card.skills.map((s) => [s.id, s]));
}

const patterns = compilePatterns(['unknown skill']);
const ADK_FAILURE = 'Agent run failed: Function translate is not found in the toolsDict.';

test("ADK's card: a tool skill is also known by its name (the tool)", () => {
  const skills = skillsOf(adkCard);
  assert.deepEqual(skillAliases(adkCard, skills, 'desk-translate'), ['translate']);
  assert.deepEqual(skillAliases(adkCard, skills, 'desk-summarize'), ['summarize']);
  assert.deepEqual(skillAliases(adkCard, skills, 'desk'), ['model']);
  assert.equal(skillAliases(adkCard, skills, 'not-listed'), undefined);
});

test("ADK's convention alone derives the tool from the id (<agent>-<tool>) when the name says nothing", () => {
  const card = decodeCard({
    ...rawCard(),
    skills: [{ id: 'desk-translate', name: 'Translate text' }],
  });
  assert.deepEqual(skillAliases(card, skillsOf(card), 'desk-translate'), [
    'Translate text',
    'translate',
  ]);
});

test('a name that is another skill of the card is never an alias', () => {
  const card = decodeCard({
    ...rawCard(),
    skills: [
      { id: 'desk-translate', name: 'translate' },
      { id: 'translate', name: 'Translate v1' }, // another skill's id
      { id: 'desk-summarize', name: 'summary' },
      { id: 'digest', name: 'Summary' }, // another skill's name (any case)
    ],
  });
  const skills = skillsOf(card);
  assert.equal(skillAliases(card, skills, 'desk-translate'), undefined);
  assert.deepEqual(skillAliases(card, skills, 'desk-summarize'), ['summarize']);
  assert.equal(skillAliases(card, skills, 'digest'), undefined);
});

test("ADK's missing tool is evidence for the skill whose tool it names, and for no other", () => {
  assert.equal(missingSkillLabel(ADK_FAILURE, 'desk-translate', patterns, true), undefined);
  assert.equal(
    missingSkillLabel(ADK_FAILURE, 'desk-translate', patterns, true, ['translate']),
    'function not found in tools',
  );
  assert.equal(
    missingSkillLabel(ADK_FAILURE, 'desk-summarize', patterns, true, ['summarize']),
    undefined,
  );
  // the Python ADK's spelling
  assert.equal(
    missingSkillLabel('Function translate is not found in the tools_dict.', 'x', patterns, false, [
      'translate',
    ]),
    'function not found in tools',
  );
  // a longer tool name that starts with the alias is another tool
  assert.equal(
    missingSkillLabel(
      'Function translate_v2 is not found in the toolsDict.',
      'desk-translate',
      patterns,
      true,
      ['translate'],
    ),
    undefined,
  );
});

test('judge: a failed ADK task naming the tool is unknown_skill for the skill the card derives from it', () => {
  const ctx: NegotiationContext = {
    skillId: 'desk-translate',
    cardKnown: true,
    skillInCard: true,
    outputModes: ['text'],
    skillAliases: skillAliases(adkCard, skillsOf(adkCard), 'desk-translate'),
  };
  const opts = {
    unknownSkillPatterns: patterns,
    unsupportedModePatterns: [],
    strictTextParts: false,
  };
  const v = judge(
    undefined,
    ctx,
    { kind: 'status-update', artifacts: [], state: 'TASK_STATE_FAILED', statusText: ADK_FAILURE },
    opts,
  );
  assert.equal(v.drift?.kind, 'unknown_skill');
  assert.equal(v.drift?.skillId, 'desk-translate');
  assert.equal(v.drift?.matchedPattern, 'function not found in tools');
  const without = judge(
    undefined,
    { ...ctx, skillAliases: undefined },
    { kind: 'status-update', artifacts: [], state: 'TASK_STATE_FAILED', statusText: ADK_FAILURE },
    opts,
  );
  assert.equal(without.drift, undefined);
});

test('a client that names the skill in a data part: candidates from the request', () => {
  const req = decodeJsonRpcRequest({
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: 'm',
        parts: [
          { kind: 'text', text: 'get them' },
          { kind: 'data', data: { skill: 'get_products', parameters: { q: 'x' } } },
        ],
      },
    },
  });
  assert.equal(req?.skillId, undefined);
  assert.deepEqual(req?.partSkillNames, [
    { name: 'get_products', source: 'message.parts[].data.skill' },
  ]);
  // 1.0 HTTP+JSON: a part with `data` and no kind; skillId key
  const rest = decodeHttpJsonRequest('POST', '/v1/message:send', {
    message: {
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ data: { skillId: 'desk-summarize' } }],
    },
  });
  assert.deepEqual(rest?.partSkillNames, [
    { name: 'desk-summarize', source: 'message.parts[].data.skillId' },
  ]);
});

test('skillNamedInMessage: the card must list the name (by id, or as exactly one skill name)', () => {
  const skills = skillsOf(adkCard);
  const c = (name: unknown) => [{ name: name as string, source: 'message.parts[].data.skill' }];
  assert.deepEqual(skillNamedInMessage(c('desk-summarize'), skills), {
    skillId: 'desk-summarize',
    source: 'message.parts[].data.skill',
  });
  assert.deepEqual(skillNamedInMessage(c('summarize'), skills)?.skillId, 'desk-summarize');
  assert.equal(
    skillNamedInMessage(c('get_products'), skills),
    undefined,
    'not in the card: no skill id',
  );
  assert.equal(skillNamedInMessage(c(42), skills), undefined);
  assert.equal(skillNamedInMessage(undefined, skills), undefined);
  const twins = new Map<string, SkillInfo>([
    ['a', { id: 'a', name: 'same', inputModes: [], outputModes: [] }],
    ['b', { id: 'b', name: 'same', inputModes: [], outputModes: [] }],
  ]);
  assert.equal(
    skillNamedInMessage(c('same'), twins),
    undefined,
    'two skills of that name: no guess',
  );
});

function rawCard(): Record<string, unknown> {
  return {
    name: 'desk',
    version: '1.0.0',
    url: 'http://127.0.0.1:1/desk/jsonrpc',
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
  };
}
