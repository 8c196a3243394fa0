/**
 * What real implementations say when a requested skill is gone, and what must NOT count:
 * the judge ties the evidence to the requested skill id (texts list other tools too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missingSkillLabel, namesSkill } from '../../src/core/evidence';
import {
  compilePatterns,
  judge,
  type JudgeOptions,
  type NegotiationContext,
} from '../../src/core/judge';
import type { DecodedRequest, DecodedResult } from '../../src/core/model';
import { MISSING_SKILL_PHRASES } from '../../src/core/dialects/index';

const seed = compilePatterns(['unknown skill']);
const opts: JudgeOptions = {
  unknownSkillPatterns: seed,
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};

const send: DecodedRequest = {
  operation: 'SendMessage',
  wireMethod: 'message/send',
  binding: 'jsonrpc',
  streaming: false,
  skillId: 'translate',
  skillIdSource: 'params.metadata.skillId',
};
const ctx: NegotiationContext = {
  skillId: 'translate',
  cardKnown: true,
  cardUrl: 'http://peer/.well-known/a/agent-card.json',
  fingerprint: 'f'.repeat(64),
  skillInCard: true,
  outputModes: ['text'],
};

function r(p: Partial<DecodedResult>): DecodedResult {
  return { kind: 'task', artifacts: [], ...p };
}

test('framework phrasings name the requested skill: each counts for that id only', () => {
  const cases: Array<[string, string]> = [
    ['Tool "translate" not found', 'tool not found'], // Mastra tool executor
    ['Handler failed: Tool "translate" not found', 'tool not found'],
    [
      "Model tried to call unavailable tool 'translate'. Available tools: summarize-v2.",
      'unavailable tool',
    ], // ai NoSuchToolError
    ['unknown skill: translate', 'unknown skill'], // the Python SDK's 0.3 layer
    ['No such tool: translate', 'no such skill'],
    ["Skill 'translate' does not exist", 'skill not found'],
    [
      'Agent run failed: Function translate is not found in the toolsDict.',
      'function not found in tools',
    ], // Google ADK JS
    ['Function translate is not found in the tools_dict.', 'function not found in tools'], // ADK Python
    ["Tool 'translate' not found.\nAvailable tools: summarize", 'tool not found'], // ADK Python 1.x
    ['Error: Requested function "translate" not found.', 'requested function not found'], // Microsoft Agent Framework
    ['Skill not found: translate', 'not found: id'], // crewAI -32017
    ['Tool not found: translate', 'not found: id'], // python-a2a MCP
    ['Unknown function: translate', 'unknown function'], // python-a2a MCP
  ];
  for (const [text, label] of cases) {
    assert.equal(
      missingSkillLabel(text, 'translate', seed, false),
      label === 'unknown skill' ? 'unknown skill' : label,
      text,
    );
  }
});

test('the same texts about another tool are no evidence', () => {
  for (const text of [
    'Tool "summarize-v2" not found',
    'Tool "translate-v2" not found',
    "Model tried to call unavailable tool 'summarize'. Available tools: translate, summarize-v2.",
    'unknown skill: translate.fr',
    'Available tools: translate. Tool "weather" not found',
    'Function translate_v2 is not found in the toolsDict.',
    'Skill not found: translate-v2',
    'Requested function "translate2" not found.',
    'Unknown function: translated',
    'Here is your translation.',
  ]) {
    assert.equal(missingSkillLabel(text, 'translate', seed, false), undefined, text);
  }
  // no skill id known: only a failure text matched by the user's patterns counts
  assert.equal(missingSkillLabel('Tool "translate" not found', undefined, seed, false), undefined);
  assert.equal(missingSkillLabel('unknown skill', undefined, seed, true), 'unknown skill');
  assert.equal(
    missingSkillLabel('unknown skill', 'translate', seed, false),
    undefined,
    'a completed answer must name the id',
  );
});

test('namesSkill: whole tokens only', () => {
  assert.equal(namesSkill('call translate now', 'translate'), true);
  assert.equal(namesSkill('"translate"', 'translate'), true);
  assert.equal(namesSkill('translate-v2', 'translate'), false);
  assert.equal(namesSkill('retranslate', 'translate'), false);
  assert.equal(namesSkill('translate.fr', 'translate'), false);
  assert.equal(
    namesSkill('x'.repeat(200), 'x'.repeat(200)),
    false,
    'ids over 128 chars are not looked for',
  );
});

test('a completed task whose answer says the requested tool is gone → unknown_skill (status, artifact, message, history)', () => {
  for (const field of ['statusText', 'artifactText', 'messageText', 'historyText'] as const) {
    const v = judge(
      send,
      ctx,
      r({ taskId: 't', state: 'TASK_STATE_COMPLETED', [field]: 'Tool "translate" not found' }),
      opts,
    );
    assert.equal(v.drift?.kind, 'unknown_skill', field);
    assert.equal(v.drift?.matchedPattern, 'tool not found');
  }
  const other = judge(
    send,
    ctx,
    r({
      taskId: 't',
      state: 'TASK_STATE_COMPLETED',
      artifactText: 'Tool "weather" not found. Available tools: translate',
    }),
    opts,
  );
  assert.equal(other.drift, undefined);
});

test('fasta2a: a failed task with no status message, its text in the last agent message of history', () => {
  const v = judge(
    send,
    ctx,
    r({ taskId: 't', state: 'TASK_STATE_FAILED', historyText: 'Unknown skill requested' }),
    opts,
  );
  assert.equal(v.drift?.kind, 'unknown_skill');
});

test('errors of every code: -32603 / HTTP 400 / 500 count only when their text names the requested skill', () => {
  for (const code of [-32603, 400, 500]) {
    const yes = judge(
      send,
      ctx,
      r({ kind: 'error', error: { code, message: 'unknown skill: translate' } }),
      opts,
    );
    assert.equal(yes.drift?.kind, 'unknown_skill', String(code));
    assert.equal(yes.drift?.rpcCode, code);
    const no = judge(
      send,
      ctx,
      r({ kind: 'error', error: { code, message: 'unknown skill: summarize' } }),
      opts,
    );
    assert.equal(no.drift, undefined, String(code));
    const generic = judge(
      send,
      ctx,
      r({ kind: 'error', error: { code, message: 'Internal error' } }),
      opts,
    );
    assert.equal(generic.drift, undefined);
  }
});

test('HTTP+JSON INVALID_ARGUMENT / INVALID_PARAMS is invalid_params, like -32602', () => {
  for (const reason of ['INVALID_PARAMS', 'INVALID_ARGUMENT']) {
    const v = judge(
      send,
      ctx,
      r({ kind: 'error', error: { code: 400, reason, message: 'bad' } }),
      opts,
    );
    assert.equal(v.drift?.kind, 'invalid_params', reason);
    assert.equal(v.drift?.rpcCode, 400);
    const notInCard = judge(
      send,
      { ...ctx, skillInCard: false },
      r({ kind: 'error', error: { code: 400, reason } }),
      opts,
    );
    assert.equal(notInCard.drift?.kind, 'skill_not_in_card');
  }
  const other = judge(
    send,
    ctx,
    r({ kind: 'error', error: { code: 404, reason: 'NOT_FOUND' } }),
    opts,
  );
  assert.equal(other.drift, undefined);
});

test('hostile texts: long, regex-heavy, whitespace floods never match falsely (cost: bench/micro.ts)', () => {
  const flood = 'unknown skill' + ' '.repeat(100_000) + 'translate';
  assert.equal(
    missingSkillLabel(flood, 'translate', seed, false),
    undefined,
    'the text is cut at 4096 characters',
  );
  assert.equal(missingSkillLabel('tool '.repeat(5000), 'translate', seed, false), undefined);
  assert.equal(
    missingSkillLabel('Tool "a.b*c" not found', 'a.b*c', seed, false),
    'tool not found',
    'ids are escaped',
  );
  assert.equal(
    missingSkillLabel('Tool "aXb" not found', 'a.b', seed, false),
    undefined,
    'a dot in an id is literal',
  );
});

test('evidence about a skill the card in use never listed is skill_not_in_card (the client, not a stale card)', () => {
  const fresh = { ...ctx, skillInCard: false, outputModes: undefined };
  const v = judge(
    send,
    fresh,
    r({
      taskId: 't',
      state: 'TASK_STATE_COMPLETED',
      statusText: "Model tried to call unavailable tool 'translate'.",
    }),
    opts,
  );
  assert.equal(v.drift?.kind, 'skill_not_in_card');
  const e = judge(
    send,
    fresh,
    r({ kind: 'error', error: { code: -32603, message: 'unknown skill: translate' } }),
    opts,
  );
  assert.equal(e.drift?.kind, 'skill_not_in_card');
});

test("-32602 on a request whose parts the card in use already rules out is the client's mistake, not drift", () => {
  const dataSend: DecodedRequest = { ...send, messageParts: [{ kind: 'data' }] };
  const textOnly = { ...ctx, inputModes: ['text'] };
  const v = judge(
    dataSend,
    textOnly,
    r({
      kind: 'error',
      error: { code: -32602, message: 'Only plain text message parts are supported' },
    }),
    opts,
  );
  assert.equal(v.drift, undefined);
  assert.match(v.unjudged ?? '', /input modes/);
  // the same error on a request that fits the card: the card is stale
  const textSend: DecodedRequest = { ...send, messageParts: [{ kind: 'text' }] };
  assert.equal(
    judge(textSend, textOnly, r({ kind: 'error', error: { code: -32602 } }), opts).drift?.kind,
    'invalid_params',
  );
});

test('the phrases as one alternation: same answer as each phrase in order, the first listed giving the label', () => {
  // Built-in phrases only (no user pattern): a completed answer's text.
  const order = (text: string, id: string): string | undefined => {
    for (const p of MISSING_SKILL_PHRASES) {
      const re = new RegExp(
        p.template.split('SKILL').join(id.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')),
        'i',
      );
      if (re.test(text)) return p.label;
    }
    return undefined;
  };
  const texts = [
    'Tool translate not found. Also: unknown skill translate',
    'tool "translate" was not found',
    'no such tool: translate',
    'Unknown tool name: translate',
    'the skill translate is not available',
    '## translate (3/97)\n\n- result from **translate**\n',
    'translate-v2 not found; unknown skill translate-v2',
    'unknown skill translatex',
    '',
  ];
  for (const t of texts)
    assert.equal(missingSkillLabel(t, 'translate', [], false), order(t, 'translate'), t);
  // Two phrases, the one listed later leftmost in the text: the label is still the first listed's
  // (the alternation only says whether one matches).
  const two = 'Unknown skill translate. Tool translate not found.';
  assert.equal(missingSkillLabel(two, 'translate', [], false), order(two, 'translate'));
  assert.equal(missingSkillLabel(two, 'translate', [], false), 'tool not found');
});
