/**
 * The card decides (pure parts): the general words of absence near a skill's name, the card
 * history the registry keeps (earlier cards, a newer card fetched by the package), a card that
 * names one operation route speaking for its siblings, the judge's rules on them, and a
 * suspicion turned into the drift the card fetched again says it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import { confirmedDrift } from '../../src/core/confirm';
import { absenceNearSkill } from '../../src/core/evidence';
import { compilePatterns, judge, type DriftEvent, type JudgeOptions } from '../../src/core/judge';
import type { DecodedCard, DecodedResult, NegotiationContext } from '../../src/core/model';
import { CardRegistry, MAX_EARLIER_CARDS } from '../../src/core/card-registry';
import { operationRoutePrefix } from '../../src/core/card-scope';
import { normaliseUrl } from '../../src/core/url';

function card(
  skills: string[],
  url = 'http://peer/a2a',
  over: Partial<DecodedCard> = {},
): DecodedCard {
  return {
    ...decodeCard({
      name: 'peer',
      version: '1.0',
      url,
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: skills.map((id) => ({ id, name: id, description: id, tags: [] })),
    }),
    ...over,
  };
}

const opts: JudgeOptions = {
  unknownSkillPatterns: compilePatterns(['unknown skill']),
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};
const send = {
  operation: 'SendMessage' as const,
  wireMethod: 'SendMessage',
  binding: 'jsonrpc' as const,
  streaming: false,
};
const known: NegotiationContext = {
  cardKnown: true,
  skillId: 'translate',
  skillInCard: true,
  cardUrl: 'http://peer/.well-known/agent-card.json',
  fingerprint: 'f'.repeat(64),
  inputModes: ['text/plain'],
  outputModes: ['text/plain'],
};
const result = (r: Partial<DecodedResult>): DecodedResult => ({
  kind: 'task',
  artifacts: [],
  ...r,
});

test('absence words near a name of the skill, in phrasings no dialect lists', () => {
  const cases: Array<[string, string, string | undefined]> = [
    // crewAI 1.15, its ReAct and function-calling paths
    [
      "I encountered an error: Action 'translate' don't exist, these are the only available Actions: x",
      'translate',
      'error',
    ],
    [
      'You tried to use the tool translate, but it doesn’t exist. You must use one of',
      'translate',
      'doesn’t exist',
    ],
    [
      'Function create_media_buy is not found in the toolsDict.',
      'create_media_buy',
      'is not found',
    ],
    ['Sorry, I cannot find a tool called translate.', 'translate', 'cannot find'],
    ['translate is unavailable right now', 'translate', 'unavailable'],
    ['There is no such action: translate', 'translate', 'no such'],
    // healthy answers: the name without such words, such words without the name
    ['Here is your translation (translate): bonjour', 'translate', undefined],
    ['No flights found for Paris', 'book_flight', undefined],
    ['translate errors fixed', 'translate', undefined], // `errors` is not `error`
    ['translate-v2 does not exist', 'translate', undefined], // another id
    ['the unknown-lookup skill answered', 'unknown-lookup', undefined], // the name's own words
    [`translate ${'x'.repeat(400)} not found`, 'translate', undefined], // too far
  ];
  for (const [text, skill, expected] of cases)
    assert.equal(absenceNearSkill(text, skill), expected, text);
  assert.equal(
    absenceNearSkill('Tool translator was removed', 'translate', ['translator']),
    'removed',
  );
  assert.equal(absenceNearSkill(undefined, 'translate'), undefined);
  assert.equal(absenceNearSkill('x not found', undefined), undefined);
  // a hostile text repeating the name: bounded work, no answer past the looked-at occurrences
  assert.equal(absenceNearSkill(`${'translate '.repeat(2000)} not found`, 'translate'), undefined);
});

test('the judge: a failure, or absence words, for a skill the card lists is a suspicion, never a drift', () => {
  const failedSilently = judge(send, known, result({ state: 'TASK_STATE_FAILED' }), opts);
  assert.equal(failedSilently.drift, undefined);
  assert.equal(failedSilently.suspicion?.suspicion, 'failure');
  assert.equal(failedSilently.suspicion?.evidence, 'card');
  const words = judge(
    send,
    known,
    result({
      state: 'TASK_STATE_COMPLETED',
      artifactText: "You tried to use the tool translate, but it doesn't exist",
    }),
    opts,
  );
  assert.equal(words.drift, undefined);
  assert.equal(words.suspicion?.suspicion, 'words');
  assert.equal(words.suspicion?.matchedPattern, "doesn't exist");
  // a refused cancel says nothing of the skill
  const cancel = { ...send, operation: 'CancelTask' as const, wireMethod: 'CancelTask' };
  assert.deepEqual(
    judge(cancel, known, result({ kind: 'error', error: { code: -32002 } }), opts),
    {},
  );
  // no card URL to fetch again: nothing to settle it
  assert.deepEqual(
    judge(send, { ...known, cardUrl: undefined }, result({ state: 'TASK_STATE_FAILED' }), opts),
    {},
  );
  // the phrase lists stay stronger evidence: a failed task saying "unknown skill" is a drift at once
  assert.equal(
    judge(
      send,
      known,
      result({ state: 'TASK_STATE_FAILED', statusText: 'unknown skill: translate' }),
      opts,
    ).drift?.kind,
    'unknown_skill',
  );
});

test('the judge: a skill the card in use does not list is reported whatever the answer', () => {
  const notListed = { ...known, skillInCard: false };
  for (const r of [
    result({ state: 'TASK_STATE_COMPLETED' }),
    result({ state: 'TASK_STATE_FAILED' }),
    result({ kind: 'error', error: { code: -32603, message: 'Internal error' } }),
    result({ kind: 'error', error: { code: 500 } }),
  ]) {
    const v = judge(send, notListed, r, opts);
    assert.equal(v.drift?.kind, 'skill_not_in_card', JSON.stringify(r));
    assert.equal(v.drift?.evidence, 'protocol');
  }
  // listed by an earlier card of the agent: the history is the evidence; a failure is unknown_skill
  const earlier = { ...notListed, skillInEarlierCard: true };
  const failed = judge(send, earlier, result({ kind: 'error', error: { code: -32602 } }), opts);
  assert.equal(failed.drift?.kind, 'unknown_skill');
  assert.equal(failed.drift?.evidence, 'card');
  assert.equal(failed.drift?.suspicion, 'history');
  assert.equal(failed.drift?.rpcCode, -32602);
  const ok = judge(send, earlier, result({ state: 'TASK_STATE_COMPLETED' }), opts);
  assert.equal(ok.drift?.kind, 'skill_not_in_card');
  assert.equal(ok.drift?.suspicion, 'history');
});

test('the judge: a newer card the package fetched that dropped the skill decides every later call', () => {
  const ctx = {
    ...known,
    droppedByNewerCard: { fingerprint: 'a'.repeat(64), cause: 'revalidation' as const },
  };
  const ok = judge(send, ctx, result({ state: 'TASK_STATE_COMPLETED' }), opts);
  assert.equal(ok.drift?.kind, 'skill_not_in_card');
  assert.equal(ok.drift?.evidence, 'card');
  assert.equal(ok.drift?.suspicion, 'revalidation');
  assert.equal(ok.drift?.currentFingerprint, 'a'.repeat(64));
  assert.equal(ok.drift?.fingerprint, known.fingerprint, 'the negotiated card’s fingerprint');
  const failed = judge(send, ctx, result({ state: 'TASK_STATE_FAILED' }), opts);
  assert.equal(failed.drift?.kind, 'unknown_skill');
});

test('confirmedDrift: gone → unknown_skill; other input modes → unsupported_mode; other output modes → output_mode_mismatch', () => {
  const suspicion = judge(send, known, result({ state: 'TASK_STATE_FAILED' }), opts)
    .suspicion as DriftEvent;
  const held = { inputModes: ['text/plain'], outputModes: ['text/plain'] };
  const gone = confirmedDrift(suspicion, held, {
    fingerprint: 'b'.repeat(64),
    card: card(['summarize']),
  });
  assert.equal(gone?.kind, 'unknown_skill');
  assert.equal(gone?.evidence, 'card');
  assert.equal(gone?.suspicion, 'failure');
  assert.equal(gone?.currentFingerprint, 'b'.repeat(64));
  assert.equal(gone?.error.name, 'StaleAgentCardError');
  assert.match(gone?.error.message ?? '', /no longer lists it/);
  const input = card(['translate']);
  input.skills[0].inputModes = ['application/json'];
  assert.equal(
    confirmedDrift(suspicion, held, { fingerprint: 'c', card: input })?.kind,
    'unsupported_mode',
  );
  const output = card(['translate']);
  output.skills[0].outputModes = ['image/png'];
  const mismatch = confirmedDrift(suspicion, held, { fingerprint: 'd', card: output });
  assert.equal(mismatch?.kind, 'output_mode_mismatch');
  assert.equal(mismatch?.error.name, 'ArtifactSchemaDriftError');
  // unchanged, or no card: no drift
  assert.equal(
    confirmedDrift(suspicion, held, { fingerprint: 'e', card: card(['translate']) }),
    undefined,
  );
  assert.equal(confirmedDrift(suspicion, held, { fingerprint: 'e' }), undefined);
  assert.equal(confirmedDrift(suspicion, held, undefined), undefined);
});

test('the registry remembers the skills of the earlier cards of an agent, at most MAX_EARLIER_CARDS', () => {
  const r = new CardRegistry();
  const url = 'http://peer/.well-known/agent-card.json';
  r.put(url, card(['a', 'b']), 'f1', 1);
  assert.equal(r.get(url)?.earlier, undefined);
  r.put(url, card(['a', 'b']), 'f1', 2); // the same card again: no history entry
  assert.equal(r.get(url)?.earlier?.length ?? 0, 0);
  r.put(url, card(['a']), 'f2', 3);
  assert.deepEqual(
    r.get(url)?.earlier?.map((e) => [e.fingerprint, [...e.skills.keys()]]),
    [['f1', ['a', 'b']]],
  );
  for (let i = 3; i < 10; i++) r.put(url, card([`s${i}`]), `f${i}`, i);
  const earlier = r.get(url)?.earlier ?? [];
  assert.equal(earlier.length, MAX_EARLIER_CARDS);
  assert.deepEqual(
    earlier.map((e) => e.fingerprint),
    ['f8', 'f7', 'f6'],
  );
});

test('noteNewer: beside the card the app holds while it holds it; never replacing it', () => {
  const r = new CardRegistry();
  const url = 'http://peer/.well-known/agent-card.json';
  r.put(url, card(['a', 'b']), 'f1', 1);
  r.noteNewer(url, 'f0', 'f2', card(['a']), 2, 'failure'); // about another card: ignored
  assert.equal(r.get(url)?.newer, undefined);
  r.noteNewer(url, 'f1', 'f2', card(['a']), 2, 'failure');
  assert.equal(r.get(url)?.fingerprint, 'f1', 'the app’s card stays in use');
  assert.equal(r.get(url)?.newer?.fingerprint, 'f2');
  assert.deepEqual([...(r.get(url)?.newer?.skills.keys() ?? [])], ['a']);
  r.noteNewer(url, 'f1', 'f1', card(['a', 'b']), 3, 'revalidation'); // back to the app's card
  assert.equal(r.get(url)?.newer, undefined);
  r.noteNewer(url, 'f1', 'f2', card(['a']), 4, 'revalidation');
  r.put(url, card(['a']), 'f2', 5); // the app fetched it itself
  assert.equal(r.get(url)?.newer, undefined);
  r.noteNewer('http://other/.well-known/agent-card.json', 'f1', 'f2', card([]), 6, 'failure');
  assert.equal(r.size, 1);
});

test('a card whose url names one operation route speaks for its sibling routes (Agno AgentOS)', () => {
  const base = 'http://127.0.0.1:7777/a2a/agents/summarize/v1';
  assert.equal(operationRoutePrefix(normaliseUrl(`${base}/message:stream`) as string), base);
  assert.equal(operationRoutePrefix(normaliseUrl(`${base}/MESSAGE:SEND`) as string), base);
  assert.equal(operationRoutePrefix(normaliseUrl(`${base}`) as string), undefined);
  assert.equal(operationRoutePrefix('http://h/message:send'), undefined, 'not the origin itself');
  const r = new CardRegistry();
  const cardUrl = 'http://127.0.0.1:7777/a2a/agents/summarize/.well-known/agent-card.json';
  r.put(cardUrl, card(['summarize'], `${base}/message:stream`), 'f1', 1);
  for (const route of ['message:stream', 'message:send', 'tasks/abc', 'tasks/abc:cancel'])
    assert.equal(r.forRequestUrl(`${base}/${route}`)?.cardUrl, cardUrl, route);
  // not another agent's routes on the same origin
  assert.equal(
    r.forRequestUrl('http://127.0.0.1:7777/a2a/agents/translate/v1/message:send'),
    undefined,
  );
});
