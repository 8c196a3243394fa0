/**
 * The set-up shared by the card-revalidation test files: the drift harness with revalidation
 * on, and a per-test SDK peer offering the default and translate skills that answers card
 * requests conditionally (ETag / 304), so each background revalidation is an ordinary one.
 */
import type { Client } from '@a2a-js/sdk/client';
import type { A2AInstrumentationConfig, DriftEvent } from '../../src/index';
import type { Harness } from './otel';
import { harnessWithDriftEvents, sdkPeerPerTest } from './drift-harness';
import {
  DEFAULT_SKILL,
  TRANSLATE_SKILL,
  type SdkPeer,
  type SdkPeerBehaviour,
} from '../peers/sdk-peer';
import { createSdkClient, sendRequest } from '../peers/sdk-client';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface RevalidationFile {
  /** The file's harness (made in its `before` hook, reset before each test). */
  harness: () => Harness;
  /** The drift callbacks' events (emptied before each test). */
  events: DriftEvent[];
  /** Starts this test's peer, the behaviour merged over the conditional-card default. */
  start: (behaviour?: Partial<SdkPeerBehaviour>) => Promise<SdkPeer>;
}

/** Registers the file's hooks: call it at the top level of a test file. */
export function revalidationFile(
  peerName: string,
  config: A2AInstrumentationConfig,
): RevalidationFile {
  const { h: harness, events } = harnessWithDriftEvents(config);
  const start = sdkPeerPerTest({
    name: peerName,
    skills: [DEFAULT_SKILL, TRANSLATE_SKILL],
    behaviour: { conditionalCard: true },
  });
  return { harness, events, start };
}

/**
 * A client that called the translate skill once, then left its agent idle for `idleMs` (longer
 * than the revalidation interval, so the card is no longer in use and nothing revalidates it),
 * after which the agent is redeployed without that skill and answers with an apology. The next
 * call for the translate skill is the first after idleness for a skill the redeploy removed.
 */
export async function idleThenSkillRemoved(
  start: RevalidationFile['start'],
  idleMs: number,
): Promise<{ peer: SdkPeer; client: Client }> {
  const peer = await start({
    goneSkill: 'answer',
    artifactText: () => 'Sorry, I can only summarize.',
  });
  const client = await createSdkClient(peer, 'jsonrpc');
  await client.sendMessage(sendRequest(TRANSLATE_SKILL.id));
  await sleep(idleMs);
  peer.redeploy([DEFAULT_SKILL]);
  return { peer, client };
}
