/**
 * The checks every live peer of the real-world suite gets, written once: the card at
 * the path the peer really serves → one GetAgentCard span with the fingerprint, skill count and
 * protocol version, no drift, and the seed's Python fingerprint of the same bytes (the machine's
 * python3 and the peer's own interpreter) agreeing; the healthy card cached by the app before a
 * redeploy on the SAME port; card_changed on re-fetch; and the app's bytes compared with and
 * without the instrumentation. Used by python-agent-framework.test.ts; the conformance suite takes its harness and wire normalisation.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode } from '@opentelemetry/api';
import { setupOtel, type Harness } from '../helpers/otel';
import { pythonSeedFingerprint } from '../helpers/seed-fingerprint';
import { skillFingerprint } from '../../src/index';
import { getCard, spanChecks, type Json } from './lib';

/** uuids, hex ids, tool-call ids and timestamps: what differs between two runs of the same exchanges */
export function normaliseWire(text: string, tag: string): string {
  return (
    text
      .split(tag)
      .join('MSG')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      .replace(/\b[0-9a-f]{32}\b/g, 'HEX')
      // the tool-call ids a mock model numbers per process (Mastra's `call-N`)
      .replace(/\bcall-\d+\b/g, 'CALL')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?/g, 'TS')
  );
}

/** The test file's harness: created in a file-level `before`, shut down in `after`. */
export function liveHarness(): () => Harness {
  let h: Harness | undefined;
  before(() => {
    h = setupOtel();
  });
  after(async () => {
    await h?.shutdown();
  });
  return () => h as Harness;
}

/** The skip reason of a live suite whose venv is not installed (false when it is). */
export function venvSkip(impl: string, installed: boolean): false | string {
  return installed
    ? false
    : `test/real-world/python/${impl}/.venv missing: REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh`;
}

interface Stoppable {
  port: number;
  stop(): Promise<void>;
}

export function liveChecks(h: () => Harness) {
  const spans = spanChecks(h);
  const { only, describeSpans, spansSettled } = spans;
  /** Re-fetching the card after the redeploy: card_changed against the held card; skill ids. */
  async function cardChangedOnRefetch(url: string, held: Json): Promise<string[]> {
    const { card, raw } = await getCard(url);
    assert.equal(card.version, held.version, 'the same card version');
    await spansSettled(1);
    const get = only('GetAgentCard');
    assert.equal(
      get.attributes['a2a.agent_card.previous_fingerprint'],
      skillFingerprint(held as never),
    );
    assert.equal(get.attributes['a2a.drift.kind'], 'card_changed', describeSpans());
    assert.equal(pythonSeedFingerprint(raw), skillFingerprint(card as never));
    return card.skills.map((s: Json) => s.id as string);
  }
  return {
    ...spans,

    /**
     * GET the card at `url` (as the app does): asserts the GetAgentCard span (fingerprint, skill
     * count, `a2a.protocol.version` — undefined for a card that names none — and no drift
     * verdict) and that the seed's Python computes the same fingerprint from the bytes served,
     * with python3 and with `venvPython`.
     */
    async cardChecked(
      url: string,
      expect: { protocol: string | undefined; skills: number; venvPython: string },
    ): Promise<{ card: Json; raw: string }> {
      const got = await getCard(url);
      await spansSettled(1);
      const get = only('GetAgentCard');
      const fp = skillFingerprint(got.card as never);
      assert.equal(get.attributes['a2a.agent_card.fingerprint'], fp, describeSpans());
      assert.equal(get.attributes['a2a.agent_card.skill_count'], expect.skills);
      assert.equal(get.attributes['a2a.protocol.version'], expect.protocol, describeSpans());
      assert.equal(get.attributes['a2a.drift.kind'], undefined, describeSpans());
      assert.equal(pythonSeedFingerprint(got.raw), fp, 'python3 runs the seed on the live bytes');
      assert.equal(pythonSeedFingerprint(got.raw, expect.venvPython), fp, 'the peer’s python');
      return got;
    },

    /**
     * One span per [name, skill] of healthy calls: that skill, COMPLETED, `protocol`, not an
     * error; and no drift verdict on any span, the drift counter unmoved.
     */
    async healthyCalls(calls: Array<[string, string]>, protocol: string): Promise<void> {
      for (const [name, skill] of calls) {
        const s = only(name);
        assert.equal(s.attributes['a2a.skill.id'], skill, describeSpans());
        assert.equal(s.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED', describeSpans());
        assert.equal(s.attributes['a2a.protocol.version'], protocol, describeSpans());
        assert.notEqual(s.status.code, SpanStatusCode.ERROR, describeSpans());
      }
      assert.deepEqual(spans.driftKinds(), [], describeSpans());
      assert.equal(await h().driftCount(), 0);
    },

    /**
     * Hooks of a `describe` on a redeployed peer (`redeploy`, e.g. `redeployed(...)`): it runs
     * before the suite, the peer stops after it, the exporter is emptied before each test.
     */
    onRedeployed<P extends Stoppable>(
      redeploy: () => Promise<{ peer: P; card: Json }>,
    ): { peer(): P; card(): Json } {
      let got: { peer: P; card: Json } | undefined;
      before(async () => {
        got = await redeploy();
      });
      after(async () => {
        await got?.peer.stop();
      });
      beforeEach(() => {
        h().exporter.reset();
      });
      const current = (): { peer: P; card: Json } => {
        assert.ok(got, 'the redeployed peer is started in the suite’s before hook');
        return got;
      };
      return { peer: () => current().peer, card: () => current().card };
    },

    /**
     * The two card tests of a redeployed variant `v` (inside its describe): `removed` given
     * (variant A), re-fetching the card is card_changed and leaves the skills `removed` lists;
     * none (variant B), the card is the one the app holds and re-fetching it is no drift.
     */
    cardRefetchTest(v: { peer(): { cardUrl: string }; card(): Json }, left?: string[]): void {
      if (left !== undefined) {
        test(`re-fetching the card → card_changed (same version, skills now ${left.join(', ')})`, async () => {
          assert.deepEqual(await cardChangedOnRefetch(v.peer().cardUrl, v.card()), left);
        });
        return;
      }
      test('the card is unchanged: re-fetching it is not card_changed', async () => {
        const { card } = await getCard(v.peer().cardUrl);
        assert.deepEqual(card, v.card());
        await spansSettled(1);
        assert.equal(only('GetAgentCard').attributes['a2a.drift.kind'], undefined, describeSpans());
      });
    },

    /**
     * The app reads the card from a healthy deployment (`startHealthy`), which is then replaced
     * on the SAME port by `startVariant(port)`: the variant peer and the card the app holds.
     */
    async redeployed<P extends Stoppable>(
      startHealthy: () => Promise<P & { cardUrl: string }>,
      startVariant: (port: number) => Promise<P>,
    ): Promise<{ peer: P; card: Json }> {
      const healthy = await startHealthy();
      let card: Json;
      try {
        await h().reset();
        card = (await getCard(healthy.cardUrl)).card;
        await spansSettled(1);
      } finally {
        await healthy.stop();
      }
      return { peer: await startVariant(healthy.port), card };
    },

    cardChangedOnRefetch,

    /**
     * Runs the same exchanges with the instrumentation on, then off: `exchanges(tag, go)` calls
     * `go(url, init)` per request, with `tag` in its message ids. Asserts both runs saw the same
     * status, content type and body (normalised) and returns those lines of the instrumented run.
     */
    async sameBytesWithAndWithout(
      exchanges: (
        tag: string,
        go: (url: string, init?: RequestInit) => Promise<void>,
      ) => Promise<void>,
    ): Promise<string[]> {
      const run = async (tag: string): Promise<string[]> => {
        const out: string[] = [];
        await exchanges(tag, async (url, init) => {
          const res = await fetch(url, init);
          const text = await res.text();
          out.push(`${res.status} ${res.headers.get('content-type')} ${normaliseWire(text, tag)}`);
        });
        return out;
      };
      const on = await run('probe-instrumented');
      h().instrumentation.disable();
      let off: string[];
      try {
        off = await run('probe-bare');
      } finally {
        h().instrumentation.enable();
      }
      assert.deepEqual(on, off);
      assert.ok(h().spans().length >= on.length - 1, 'the instrumented run made spans');
      return on;
    },
  };
}
