/**
 * The harness of a test file that also follows the drift callbacks: created in a file-level
 * `before` (with `config`), reset before each test with the events received, shut down in
 * `after`. `events` is the array the callbacks append to (emptied before each test).
 */
import { after, afterEach, before, beforeEach } from 'node:test';
import { setupOtel, type Harness } from './otel';
import { onAgentCardDrift, type A2AInstrumentationConfig, type DriftEvent } from '../../src/index';
import {
  startSdkPeer,
  type SdkPeer,
  type SdkPeerBehaviour,
  type SdkPeerOptions,
} from '../peers/sdk-peer';

export function harnessWithDriftEvents(config: A2AInstrumentationConfig = {}): {
  h: () => Harness;
  events: DriftEvent[];
} {
  let harness: Harness | undefined;
  let remove: (() => void) | undefined;
  const events: DriftEvent[] = [];
  before(() => {
    harness = setupOtel(config);
    remove = onAgentCardDrift((e) => {
      events.push(e);
    });
  });
  after(async () => {
    remove?.();
    await harness?.shutdown();
  });
  beforeEach(async () => {
    await harness?.reset();
    events.length = 0;
  });
  return {
    h: () => {
      if (harness === undefined) throw new Error('the harness is made in the file’s before hook');
      return harness;
    },
    events,
  };
}

/**
 * A test's own SDK peer: `start(behaviour)` starts one with `options` (the behaviour merged over
 * theirs), closed after the test that started it.
 */
export function sdkPeerPerTest(
  options: SdkPeerOptions,
): (behaviour?: Partial<SdkPeerBehaviour>) => Promise<SdkPeer> {
  let peer: SdkPeer | undefined;
  afterEach(async () => {
    await peer?.close();
    peer = undefined;
  });
  return async (behaviour = {}) => {
    peer = await startSdkPeer({ ...options, behaviour: { ...options.behaviour, ...behaviour } });
    return peer;
  };
}
