/**
 * The drift attributes are pure functions of the drift event: the contract's names, capped
 * values, `error.type` only where the drift is a failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArtifactSchemaDriftError, StaleAgentCardError } from '../../src/core/errors';
import type { DriftEvent } from '../../src/core/judge';
import {
  cardChangedEventAttributes,
  driftAttributes,
  driftMetricAttributes,
} from '../../src/telemetry/span-attributes';

test('an output-mode drift: error.type, expected modes (16 at most, each capped), actual type', () => {
  const event: DriftEvent = {
    kind: 'output_mode_mismatch',
    error: new ArtifactSchemaDriftError('m', { kind: 'output_mode_mismatch' }),
    skillId: 's'.repeat(300),
    cardUrl: 'https://peer/.well-known/agent-card.json',
    expectedModes: Array.from({ length: 20 }, (_, i) => `text/x-${i}${'y'.repeat(300)}`),
    actualMediaType: 'image/png',
  };
  const attrs = driftAttributes(event);
  assert.equal(attrs['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(attrs['error.type'], 'ArtifactSchemaDriftError');
  const modes = attrs['a2a.drift.expected_output_modes'] as string[];
  assert.equal(modes.length, 16);
  assert.ok(modes.every((m) => m.length === 256));
  assert.equal(attrs['a2a.drift.actual_media_type'], 'image/png');
  assert.equal(attrs['a2a.drift.previous_fingerprint'], undefined);
  const metric = driftMetricAttributes(event, { host: '127.0.0.1', port: 8080 });
  assert.deepEqual(metric, {
    'a2a.drift.kind': 'output_mode_mismatch',
    'a2a.skill.id': 's'.repeat(256),
    'a2a.agent_card.url': 'https://peer/.well-known/agent-card.json',
    'server.address': '127.0.0.1',
    'server.port': 8080,
  });
  assert.equal(
    driftMetricAttributes(event, { host: undefined, port: 0 })['server.port'],
    undefined,
  );
});

test('card_changed is no failure: no error.type; both fingerprints on the span and its event', () => {
  const event: DriftEvent = {
    kind: 'card_changed',
    error: new StaleAgentCardError('m', { kind: 'card_changed' }),
    previousFingerprint: 'a'.repeat(64),
    fingerprint: 'b'.repeat(64),
  };
  const expected = {
    'a2a.drift.kind': 'card_changed',
    'a2a.drift.previous_fingerprint': 'a'.repeat(64),
    'a2a.drift.current_fingerprint': 'b'.repeat(64),
  };
  assert.deepEqual(driftAttributes(event), expected);
  assert.deepEqual(cardChangedEventAttributes(event), expected);
});
