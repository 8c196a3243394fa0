'use strict';
/**
 * The field report's fleet, live: two worker agents and the client agent, in one process.
 *
 *   round 1   both peers healthy                         nothing flagged
 *   redeploy  peer-a: summarize-v2 → translate-v1        same version "1.0"
 *             peer-b: summarize-v2 now answers text/plain (was text/markdown), same version
 *   round 2   peer-a: FAILED "unknown skill"  → unknown_skill → evict → card_changed
 *                     → retry with translate-v1 from the new card: ok, not flagged
 *             peer-b: COMPLETED text/plain    → output_mode_mismatch → evict → card_changed
 *                     → retry judged against the new card: ok, not flagged
 *   round 3   both peers healthy again                   nothing flagged
 *   round 4   the agent's side: peer-a redeployed again (translate-v1 + detect-language-v1)
 *             a caller WITHOUT the package asks peer-a for summarize-v2 → the agent sees a
 *                     stale caller: caller_skill_not_in_card (onStaleCaller)
 *             the client's next call → the answer announces the new card's fingerprint →
 *                     card_changed (suspicion announced), with revalidation off; the agent
 *                     sees the client's older card: caller_card_stale
 *
 * `runScenario()` returns the exit code: 0 when everything expected was caught.
 */
const {
  startPeer,
  describeSkills,
  SUMMARIZE_V2,
  TRANSLATE_V1,
  SUMMARIZE_V2_PLAIN,
  DETECT_LANGUAGE_V1,
} = require('./peer');
const { FleetClient, short } = require('./client-agent');
const { callWithoutPackage } = require('./plain-caller');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function envTrue(name) {
  return (
    String(process.env[name] || '')
      .trim()
      .toLowerCase() === 'true'
  );
}

function exporterList(name) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return ['otlp'];
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function signalProtocol(signal) {
  const own = process.env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`];
  const raw = own && own.trim() ? own : process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  return String(raw || 'http/protobuf')
    .trim()
    .toLowerCase() === 'grpc'
    ? 'grpc'
    : 'http';
}

function signalEndpoint(signal) {
  const grpc = signalProtocol(signal) === 'grpc';
  const specific = process.env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`];
  if (specific && specific.trim()) return specific.trim();
  const base = (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || `http://localhost:${grpc ? 4317 : 4318}`)
    .trim()
    .replace(/\/+$/, '');
  return grpc ? base : `${base}/v1/${signal}`;
}

/** Where this process's telemetry goes, as the register entry is configured by the environment. */
function telemetryDestination() {
  if (envTrue('OTEL_SDK_DISABLED')) return 'nowhere (OTEL_SDK_DISABLED=true)';
  const describe = (signal, list) => {
    if (list.includes('none') || list.length === 0) return `${signal}: not exported`;
    return `${signal}: ${list.map((e) => (e === 'otlp' ? `${signalProtocol(signal) === 'grpc' ? 'OTLP/gRPC' : 'OTLP/HTTP'} → ${signalEndpoint(signal)}` : e === 'console' ? 'console (stdout)' : e)).join(' + ')}`;
  };
  const traces = exporterList('OTEL_TRACES_EXPORTER');
  const metrics = exporterList('OTEL_METRICS_EXPORTER');
  if (traces.includes('none') && metrics.includes('none')) {
    return 'nowhere (OTEL_TRACES_EXPORTER=none, OTEL_METRICS_EXPORTER=none): findings printed above only; set OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 to send spans and the drift counter to a collector';
  }
  return `${describe('traces', traces)}; ${describe('metrics', metrics)} (service.name=${process.env.OTEL_SERVICE_NAME || 'unknown_service'})`;
}

/**
 * @param {object} o
 * @param {(cb: (event: any) => void) => () => void} o.onAgentCardDrift
 * @param {(cb: (event: any) => void) => () => void} [o.onStaleCaller]  the agent's side
 * @param {(baseUrl: string) => Promise<any>} [o.createClient]
 * @param {boolean} [o.variantB]  include peer-b (default true)
 * @param {(line: string) => void} [o.print]
 * @param {string} [o.title]
 */
async function runScenario(o) {
  const print = o.print || ((line) => console.log(line));
  const withB = o.variantB !== false;
  const started = Date.now();
  const peers = [await startPeer({ name: 'peer-a', skills: [SUMMARIZE_V2] })];
  if (withB) peers.push(await startPeer({ name: 'peer-b', skills: [SUMMARIZE_V2] }));
  const fleet = new FleetClient({
    onAgentCardDrift: o.onAgentCardDrift,
    createClient: o.createClient,
    print,
  });
  const problems = [];
  const rounds = {};
  // The agent's side: what the worker agents' process is told of its stale callers.
  const staleCalls = [];
  let printedStale = 0;
  const offStale = o.onStaleCaller ? o.onStaleCaller((e) => staleCalls.push(e)) : () => {};
  const flushStale = () => {
    const fresh = staleCalls.slice(printedStale);
    printedStale = staleCalls.length;
    const groups = new Map();
    for (const e of fresh) {
      // one line per kind, agent and caller's card (a task's polls name no skill)
      const key = `${e.kind}\u0000${e.agentName}\u0000${e.callerFingerprint}`;
      const g = groups.get(key) || { e, calls: [], skills: new Set() };
      g.calls.push(e.operation);
      if (e.skillId !== undefined) g.skills.add(e.skillId);
      groups.set(key, g);
    }
    for (const { e, calls, skills } of groups.values()) {
      const caller = e.callerFingerprint ? ` caller's card=${short(e.callerFingerprint)}` : '';
      print(
        `STALE CALLER  ${e.kind}  agent=${e.agentName} skill=${[...skills].join(',') || '(none named)'} calls=${calls.length} (${[...new Set(calls)].join(', ')})${caller} served card=${short(e.fingerprint)}`,
      );
    }
  };
  try {
    print(
      o.title ||
        `A2A fleet demo: ${peers.length} worker agents (@a2a-js/sdk servers) and a client agent that caches Agent Cards for 1 h`,
    );
    for (const p of peers) {
      fleet.addAgent(p.name, p.baseUrl);
      print(
        `  ${p.name}  ${p.baseUrl}  version ${p.card.version}  skills: ${describeSkills(p.card.skills)}`,
      );
    }

    const round = async (n, title) => {
      print('');
      print(`Round ${n}: ${title}`);
      rounds[n] = {};
      for (const p of peers)
        rounds[n][p.name] = await fleet.runTask(p.name, 'summarize-v2', `round ${n}`);
    };

    await round(1, 'healthy');
    const firstCards = new Map([...fleet.cache].map(([name, e]) => [name, e.card.version]));

    print('');
    print('Redeploy in place, version left at "1.0" (no ETag, no Last-Modified change):');
    peers[0].redeploy([TRANSLATE_V1]);
    print(`  peer-a  skills: ${describeSkills(peers[0].card.skills)}`);
    if (withB) {
      peers[1].redeploy([SUMMARIZE_V2_PLAIN]);
      print(`  peer-b  skills: ${describeSkills(peers[1].card.skills)}`);
    }

    await round(2, 'the client still holds the cards it cached in round 1');
    await round(3, 'the same calls again (healthy)');
    const before4 = fleet.events.length;

    // ------------------------------------------------------------ round 4: the agent's side
    const revalidation =
      String(process.env.OTEL_INSTRUMENTATION_A2A_CARD_REVALIDATION_MS || '').trim() === '0'
        ? 'revalidation off'
        : 'no revalidation due';
    print('');
    print(
      `Round 4: the agent's side (${revalidation}). peer-a redeployed again, version left at "1.0":`,
    );
    peers[0].redeploy([TRANSLATE_V1, DETECT_LANGUAGE_V1]);
    print(`  peer-a  skills: ${describeSkills(peers[0].card.skills)}`);
    const plain = await callWithoutPackage(
      peers[0].cardUrl,
      `${peers[0].baseUrl}/a2a/jsonrpc`,
      'summarize-v2',
    );
    print(
      `[a caller without the package] fetched peer-a's card, then asked for summarize-v2 as its card from before round 2 said: ${String(plain.state).replace(/^TASK_STATE_/, '')}`,
    );
    await sleep(50);
    flushStale();
    rounds[4] = {
      'peer-a': await fleet.runTask(peers[0].name, 'translate-v1', 'round 4'),
    };
    await sleep(50);
    fleet.flushNotes();
    flushStale();

    // ------------------------------------------------------------ what was caught
    const early = fleet.events.slice(0, before4);
    const drifts = early.filter((e) => e.event.kind !== 'card_changed');
    const changes = early.filter((e) => e.event.kind === 'card_changed');
    const all = [1, 2, 3].flatMap((n) => Object.values(rounds[n]).flat());
    const expectedDrift = (r) => r.attempt === 0 && r.label === 'round 2';
    const healthy = all.filter((r) => !expectedDrift(r));
    const healthyFlagged = healthy.filter((r) => r.drift);
    const retries = all.filter((r) => r.attempt > 0);
    const retriesOk =
      retries.length > 0 && retries.every((r) => r.state === 'COMPLETED' && !r.drift);

    print('');
    if (fleet.events.length === 0) {
      // No callback at all: the instrumentation is not running in this process.
      const a2 = rounds[2]['peer-a'];
      const b2 = withB ? rounds[2]['peer-b'] : [];
      print(
        "No drift was reported: the A2A instrumentation is not active in this process, so this run is the field report's failure:",
      );
      print(
        `  peer-a: ${a2.length} attempts with the cached skill id, ${a2.filter((r) => r.state === 'FAILED').length} failed "unknown skill" (logged as a remote fault)`,
      );
      if (withB)
        print(
          `  peer-b: task ${b2[0] && b2[0].state} with ${b2[0] && b2[0].mediaType} where the card said text/markdown: accepted silently`,
        );
      print(
        `Telemetry: ${envTrue('OTEL_SDK_DISABLED') ? telemetryDestination() : 'none seen (is the register entry loaded?)'}`,
      );
      if (envTrue('OTEL_SDK_DISABLED')) {
        print('(expected: OTEL_SDK_DISABLED=true)');
        return 0;
      }
      print(
        'FAIL: expected the instrumentation to catch the drift: run with `node --require ./dist/cjs/register.js examples/fleet-demo.js` (or `npm run demo`) after `npm run build`',
      );
      return 1;
    }

    const expectKinds = [['unknown_skill', 'peer-a']];
    if (withB) expectKinds.push(['output_mode_mismatch', 'peer-b']);
    for (const [kind, agent] of expectKinds) {
      const got = drifts.filter(
        (d) => d.event.kind === kind && d.agent === agent && d.event.skillId === 'summarize-v2',
      );
      if (got.length !== 1)
        problems.push(`expected one ${kind} drift on ${agent}/summarize-v2, got ${got.length}`);
      const first = rounds[2][agent][0];
      if (!first || first.drift !== kind)
        problems.push(`round 2 on ${agent} was not flagged ${kind} (got ${first && first.drift})`);
    }
    const unexpected = drifts.filter(
      (d) => !expectKinds.some(([k, a]) => d.event.kind === k && d.agent === a),
    );
    for (const d of unexpected)
      problems.push(
        `unexpected drift ${d.event.kind} on ${d.agent} (skill ${d.event.skillId}, task ${d.event.taskId})`,
      );
    for (const p of peers) {
      const c = changes.filter((e) => e.agent === p.name);
      if (c.length !== 1) problems.push(`expected one card_changed for ${p.name}, got ${c.length}`);
      else if (
        !c[0].event.previousFingerprint ||
        c[0].event.previousFingerprint === c[0].event.fingerprint
      )
        problems.push(`card_changed for ${p.name} without two fingerprints`);
      const retry = rounds[2][p.name][1];
      if (!retry || retry.state !== 'COMPLETED' || retry.drift)
        problems.push(`the retry on ${p.name} after eviction did not succeed unflagged`);
      const version = fleet.lastVersion.get(p.name);
      if (version !== firstCards.get(p.name))
        problems.push(
          `${p.name}'s card version changed (${firstCards.get(p.name)} → ${version}): not the field report's case`,
        );
    }
    if (rounds[2]['peer-a'][1] && rounds[2]['peer-a'][1].skillId !== 'translate-v1')
      problems.push(
        `peer-a's retry negotiated ${rounds[2]['peer-a'][1].skillId}, expected translate-v1 from the new card`,
      );
    for (const r of healthyFlagged)
      problems.push(
        `a healthy call was flagged: ${r.agent} ${r.skillId} ${r.label} attempt ${r.attempt} (${r.drift})`,
      );
    for (const r of healthy.filter((x) => x.state !== 'COMPLETED'))
      problems.push(`${r.agent} ${r.skillId} ${r.label} attempt ${r.attempt} ended ${r.state}`);

    // Round 4: the agent saw its stale callers; the client learnt of the new card at its next call.
    const late = fleet.events.slice(before4);
    const announced = late.filter(
      (e) => e.event.kind === 'card_changed' && e.event.suspicion === 'announced',
    );
    if (announced.length !== 1 || announced[0].agent !== 'peer-a' || late.length !== 1)
      problems.push(
        `round 4: expected one card_changed announced by peer-a, got ${late.map((e) => `${e.event.kind}/${e.event.suspicion}@${e.agent}`).join(', ') || 'none'}`,
      );
    const r4 = rounds[4]['peer-a'][0];
    if (!r4 || r4.state !== 'COMPLETED' || r4.drift)
      problems.push(`round 4 on peer-a did not complete unflagged (${r4 && r4.state})`);
    if (o.onStaleCaller) {
      const notInCard = staleCalls.filter(
        (e) =>
          e.kind === 'caller_skill_not_in_card' &&
          e.agentName === 'peer-a' &&
          e.skillId === 'summarize-v2',
      );
      if (notInCard.length !== 1 || staleCalls.some((e) => e.agentName !== 'peer-a'))
        problems.push(
          `round 4: expected peer-a to see one caller_skill_not_in_card for summarize-v2, saw ${JSON.stringify(staleCalls.map((e) => `${e.kind}@${e.agentName}/${e.skillId}`))}`,
        );
      if (!staleCalls.some((e) => e.kind === 'caller_card_stale' && e.agentName === 'peer-a'))
        problems.push("round 4: peer-a did not see the client's older card (caller_card_stale)");
    }

    const caught = drifts.map((d) => `${d.event.kind}@${d.agent}/${d.event.skillId}`);
    const s = fleet.stats;
    print(
      `Summary: ${s.tasks} tasks (${s.attempts} attempts: ${s.sends} SendMessage, ${s.polls} GetTask polls, ${s.cardFetches} card fetches), ` +
        `${drifts.length} drift${drifts.length === 1 ? '' : 's'} caught (${caught.join(', ') || 'none'}), ` +
        `${changes.length} card change${changes.length === 1 ? '' : 's'} (${changes.map((c) => `${c.agent} ${short(c.event.previousFingerprint)} → ${short(c.event.fingerprint)}`).join(', ')}), ` +
        `${s.evictions} eviction${s.evictions === 1 ? '' : 's'}, retries after eviction ${retriesOk ? 'succeeded' : 'FAILED'}, healthy calls flagged: ${healthyFlagged.length}`,
    );
    print(
      `The agent's side: ${staleCalls.length} call${staleCalls.length === 1 ? '' : 's'} from stale callers seen by the agents (${[...new Set(staleCalls.map((e) => `${e.kind}@${e.agentName}`))].join(', ') || 'none'}), ${announced.length} new card learnt from the agent's announcement`,
    );
    print(`Telemetry: ${telemetryDestination()}`);
    if (problems.length > 0) {
      for (const p of problems) print(`FAIL: ${p}`);
      return 1;
    }
    print(`OK: everything expected was caught (${Date.now() - started} ms)`);
    return 0;
  } finally {
    offStale();
    fleet.close();
    await Promise.all(peers.map((p) => p.close()));
  }
}

/** Run `runScenario` as a program: exit code set, a watchdog, errors reported. */
function main(o) {
  const watchdog = setTimeout(() => {
    console.error('FAIL: the fleet demo did not finish within 30 s');
    process.exit(1);
  }, 30_000);
  watchdog.unref();
  return runScenario(o).then(
    (code) => {
      clearTimeout(watchdog);
      // No process.exit(): the register entry flushes telemetry when the process ends naturally.
      process.exitCode = code;
    },
    (err) => {
      clearTimeout(watchdog);
      console.error('FAIL: the fleet demo crashed:', err && err.stack ? err.stack : err);
      process.exitCode = 1;
    },
  );
}

module.exports = { runScenario, main, telemetryDestination };
