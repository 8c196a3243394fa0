'use strict';
/**
 * One instance of a client agent fleet, for test/e2e/fleet-live.test.ts. Run under the
 * register entry:
 *
 *   PEER_URL=http://127.0.0.1:<port> INSTANCE=A node --require ./dist/cjs/register.js test/e2e/fleet/instance-app.js
 *
 * It caches the peer's Agent Card (an @a2a-js/sdk client made by `createFromUrl`), makes one
 * healthy call with SKILL_ID, prints `ready`, then obeys its stdin:
 *
 *   call   send one message with the cached card: SKILL_ID if the card lists it, else the
 *          card's first skill (after a drift eviction the next call re-creates the client,
 *          which re-fetches the card)
 *   exit   end
 *
 * Its `onAgentCardDrift` callback evicts the cached card named by the event (any kind but
 * card_changed) and, like every other step, prints one JSON line on stdout:
 *   {"instance","t","type": "ready"|"call-start"|"call-end"|"drift"|"error", ...}
 * `t` is Date.now() in this process (the test compares the instances' clocks: one machine).
 */
const readline = require('node:readline');
const { onAgentCardDrift } = require('../../..'); // this package (dist/cjs/index.js)
const { ClientFactory } = require('@a2a-js/sdk/client');
const { Role, TaskState } = require('@a2a-js/sdk');

const INSTANCE = process.env.INSTANCE || String(process.pid);
const PEER_URL = String(process.env.PEER_URL || '').replace(/\/+$/, '');
const SKILL_ID = process.env.SKILL_ID || 'summarize-v2';
const CARD_URL = `${PEER_URL}/.well-known/agent-card.json`;

function emit(o) {
  process.stdout.write(`${JSON.stringify({ instance: INSTANCE, t: Date.now(), ...o })}\n`);
}

function sameUrl(a, b) {
  try {
    const x = new URL(a);
    const y = new URL(b);
    x.hash = y.hash = x.search = y.search = '';
    return x.href === y.href;
  } catch {
    return false;
  }
}

/** The card cache: { client, card } or undefined. */
let cached;
let calls = 0;

onAgentCardDrift((event) => {
  let evicted = false;
  if (event.kind !== 'card_changed' && cached && sameUrl(event.cardUrl, CARD_URL)) {
    cached = undefined;
    evicted = true;
  }
  emit({
    type: 'drift',
    source: event.source === undefined ? null : event.source,
    kind: event.kind,
    cardUrl: event.cardUrl === undefined ? null : event.cardUrl,
    skillId: event.skillId === undefined ? null : event.skillId,
    agentName: event.agentName === undefined ? null : event.agentName,
    evicted,
  });
});

async function agent() {
  if (!cached) {
    const client = await new ClientFactory().createFromUrl(PEER_URL);
    cached = { client, card: await client.getAgentCard() };
  }
  return cached;
}

async function call() {
  const n = ++calls;
  const { client, card } = await agent();
  // Negotiate from the card held: the wanted skill if it lists it, else its first skill.
  const listed = card.skills.some((s) => s.id === SKILL_ID);
  const skillId = listed ? SKILL_ID : card.skills[0] && card.skills[0].id;
  emit({ type: 'call-start', n, skillId });
  const task = await client.sendMessage({
    tenant: '',
    message: {
      messageId: `fleet-live-${INSTANCE}-${process.pid}-${n}`,
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: `call ${n} from ${INSTANCE}` },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: false,
    },
    metadata: { skillId },
  });
  const state = task && task.status ? task.status.state : undefined;
  const name = Object.keys(TaskState).find((k) => TaskState[k] === state) || String(state);
  emit({ type: 'call-end', n, skillId, state: name });
}

async function main() {
  if (!PEER_URL) throw new Error('PEER_URL is not set');
  await call(); // warm: the card is cached, one healthy call
  emit({ type: 'ready', cardUrl: CARD_URL });
  const rl = readline.createInterface({ input: process.stdin });
  let queue = Promise.resolve();
  rl.on('line', (line) => {
    const cmd = line.trim();
    if (cmd === 'exit') {
      rl.close();
      return;
    }
    if (cmd !== 'call') return;
    queue = queue
      .then(call)
      .catch((err) => emit({ type: 'error', message: String(err && err.stack ? err.stack : err) }));
  });
  // Alive until `exit` or stdin closes; the register entry's listener / poller never hold the process.
  rl.on('close', () => {
    void queue.then(() => process.exit(0));
  });
}

main().catch((err) => {
  emit({ type: 'error', message: String(err && err.stack ? err.stack : err) });
  process.exitCode = 1;
});
