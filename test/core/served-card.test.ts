/**
 * The agent's side, pure: which served card judges a route (per-agent cards of multi-agent
 * servers, per port), the card paths a process asks itself for, a stale caller judged, and the
 * skill-id label bounded. New with the agent's side (fails on main: the module does not exist).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard } from '../../src/core/card';
import {
  MAX_UNLISTED_SKILL_LABELS,
  OTHER_SKILL_LABEL,
  ServedCards,
  SkillLabels,
  cardPathCandidates,
  judgeCaller,
  type ServedCard,
} from '../../src/core/served-card';
import type { DecodedRequest } from '../../src/core/model';

function served(
  port: number | undefined,
  path: string,
  agent: string,
  skills: string[],
): ServedCard {
  const card = decodeCard({
    name: agent,
    version: '1',
    url: `http://localhost:4111/a2a/${agent}`,
    protocolVersion: '0.3.0',
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: skills.map((id) => ({ id, name: id, description: '', tags: [] })),
  });
  return {
    port,
    path,
    url: `http://localhost:4111${path}`,
    fingerprint: agent.padEnd(64, '0'),
    card,
    source: 'served',
  };
}

const request = (skillId?: string): DecodedRequest => ({
  operation: 'SendMessage',
  wireMethod: 'message/send',
  binding: 'jsonrpc',
  streaming: false,
  ...(skillId !== undefined ? { skillId, skillIdSource: 'params.metadata.skillId' } : {}),
});

test('per-agent cards judge their own agent routes; another port is another server', () => {
  const cards = new ServedCards();
  cards.set(served(4111, '/.well-known/weather/agent-card.json', 'weather', ['forecast']));
  cards.set(served(4111, '/.well-known/chef/agent-card.json', 'chef', ['recipe']));
  assert.equal(cards.forRequest(4111, '/a2a/weather')?.card.name, 'weather');
  assert.equal(cards.forRequest(4111, '/a2a/chef?x=1')?.card.name, 'chef');
  assert.equal(cards.forRequest(4111, '/a2a/unknown'), undefined, 'two cards, no root: none');
  assert.equal(cards.forRequest(5000, '/a2a/weather'), undefined, 'another port');
  assert.equal(cards.declaresRoute(4111, '/a2a/chef'), true);
  assert.equal(cards.declaresRoute(4111, '/other'), false);
});

test('the card paths asked for: the root, the per-agent card of the last segment, the prefixes', () => {
  assert.deepEqual(cardPathCandidates('/a2a/weather'), [
    '/.well-known/agent-card.json',
    '/.well-known/weather/agent-card.json',
    '/a2a/.well-known/agent-card.json',
  ]);
  assert.deepEqual(cardPathCandidates('/'), ['/.well-known/agent-card.json']);
  assert.ok(cardPathCandidates('/a/b/c/d/e/f').length <= 4);
});

test('stale callers: a skill the card does not list first, else another fingerprint announced', () => {
  const card = served(1, '/.well-known/agent-card.json', 'a', ['summarize']);
  assert.equal(judgeCaller(card, request('summarize'), undefined).drift, undefined);
  assert.equal(judgeCaller(card, request('gone'), undefined).drift, 'caller_skill_not_in_card');
  const other = 'f'.repeat(64);
  const stale = judgeCaller(card, request('summarize'), other);
  assert.equal(stale.drift, 'caller_card_stale');
  assert.equal(stale.callerFingerprint, other);
  assert.equal(judgeCaller(card, request(), card.fingerprint).drift, undefined);
  // not a fingerprint: ignored, never drift
  assert.equal(judgeCaller(card, request(), 'forged <script>').drift, undefined);
  assert.match(String(judgeCaller(undefined, request('x'), other).unjudged), /not known/);
});

test('skill-id labels: listed ids kept, the first unlisted ones too, then _OTHER', () => {
  const labels = new SkillLabels();
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) seen.add(labels.label(`made-up-${i}`, false));
  assert.equal(seen.size, MAX_UNLISTED_SKILL_LABELS + 1);
  assert.ok(seen.has(OTHER_SKILL_LABEL));
  assert.equal(labels.label('summarize', true), 'summarize');
  assert.equal(labels.label('made-up-3', false), 'made-up-3');
});
