'use strict';
/**
 * The field report's client agent `C`, with the instrumentation's eviction callback added.
 *
 * - It caches one SDK client per agent (`new ClientFactory().createFromUrl(baseUrl)`,
 *   which fetches the Agent Card once) in a Map with a TTL of one hour, keyed by agent
 *   name: the card it negotiates with is the cached one, exactly the field report's condition.
 * - It negotiates by skill id: the wanted skill when the cached card lists it, otherwise
 *   the first skill of the card that takes text/plain.
 * - It sends with `returnImmediately: true` (the reply is the SUBMITTED task) and polls
 *   `getTask` until the task is terminal.
 * - A failed or unusable task is retried, at most twice, as the field report's client did.
 * - `onAgentCardDrift(event => ...)` evicts the cached client of the agent whose card
 *   drifted: the next use re-creates it from the base URL, which re-fetches the card.
 *   That is the whole fix the field report asks for ("re-fetch on evidence of drift").
 *
 * The callback runs off the request path (on a later turn of the event loop), so the
 * client gives it a moment (`settle()`) before deciding about a finished task.
 */
const { TaskState, Role } = require('@a2a-js/sdk');

const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const STATE_NAMES = {
  [TaskState.TASK_STATE_SUBMITTED]: 'SUBMITTED',
  [TaskState.TASK_STATE_WORKING]: 'WORKING',
  [TaskState.TASK_STATE_COMPLETED]: 'COMPLETED',
  [TaskState.TASK_STATE_FAILED]: 'FAILED',
  [TaskState.TASK_STATE_CANCELED]: 'CANCELED',
  [TaskState.TASK_STATE_REJECTED]: 'REJECTED',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'INPUT_REQUIRED',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'AUTH_REQUIRED',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * Lets drift callbacks (dispatched with setImmediate after the response) run; 50 ms, not 15: a
 * loaded machine (2 busy cores) was seen to need more than 15.
 */
const settle = () => sleep(50);

/** What a card_changed event says changed (the event's `diff`: skill ids only). */
function whatChanged(diff) {
  if (!diff) return '';
  const parts = [];
  if (diff.removed.length) parts.push(`removed ${diff.removed.join(',')}`);
  if (diff.added.length) parts.push(`added ${diff.added.join(',')}`);
  for (const m of diff.modesChanged) {
    const out = m.output
      ? ` output ${m.output.before.join(',')} → ${m.output.after.join(',')}`
      : '';
    const inp = m.input ? ` input ${m.input.before.join(',')} → ${m.input.after.join(',')}` : '';
    parts.push(`${m.id}${out}${inp}`);
  }
  if (diff.capabilities.length) parts.push(`${diff.capabilities.join(',')} flipped`);
  if (diff.truncated) parts.push('…');
  return parts.length ? `  ${parts.join('; ')}` : '';
}
const short = (fp) =>
  typeof fp === 'string' && fp.length > 12 ? `${fp.slice(0, 12)}…` : String(fp);
const shortId = (id) =>
  typeof id === 'string' && id.length > 8 ? `${id.slice(0, 8)}…` : String(id);

function normaliseUrl(u) {
  try {
    const url = new URL(u);
    url.hash = '';
    url.search = '';
    return url.href;
  } catch {
    return String(u);
  }
}

function firstText(message) {
  for (const p of (message && message.parts) || [])
    if (p.content && p.content.$case === 'text') return p.content.value;
  return '';
}

let messageCounter = 0;
function userMessage(text) {
  return {
    messageId: `fleet-${process.pid}-${++messageCounter}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'text', value: text },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Pick the skill from the card the client holds (the field report's step 3: from the CACHED card). */
function negotiate(card, wantedSkillId) {
  const skills = (card && card.skills) || [];
  return (
    skills.find((s) => s.id === wantedSkillId) ||
    skills.find((s) => (s.inputModes || []).includes('text/plain'))
  );
}

class FleetClient {
  /**
   * @param {object} o
   * @param {(cb: (event: any) => void) => () => void} o.onAgentCardDrift  the package's export
   * @param {(baseUrl: string) => Promise<any>} [o.createClient]  default: `new ClientFactory().createFromUrl(baseUrl)`
   * @param {(line: string) => void} [o.print]
   */
  constructor(o) {
    this.print = o.print || ((line) => console.log(line));
    this.createClient =
      o.createClient ||
      ((baseUrl) => {
        const { ClientFactory } = require('@a2a-js/sdk/client');
        return new ClientFactory().createFromUrl(baseUrl);
      });
    this.cardTtlMs = o.cardTtlMs || 3600_000;
    this.maxRetries = o.maxRetries === undefined ? 2 : o.maxRetries;
    this.retryBackoffMs = o.retryBackoffMs === undefined ? 50 : o.retryBackoffMs;
    this.pollIntervalMs = o.pollIntervalMs || 20;
    this.pollTimeoutMs = o.pollTimeoutMs || 5000;
    /** name → { baseUrl, cardUrl } */
    this.agents = new Map();
    /** name → { client, card, fetchedAt }: the card cache */
    this.cache = new Map();
    /** name → the `version` of the card last cached (outlives eviction) */
    this.lastVersion = new Map();
    /** taskId → drift event */
    this.flagged = new Map();
    /** every drift event seen, in order */
    this.events = [];
    /** notes from the callback, printed at the next quiet point */
    this.notes = [];
    this.stats = { tasks: 0, attempts: 0, sends: 0, polls: 0, cardFetches: 0, evictions: 0 };
    this.unsubscribe = o.onAgentCardDrift((event) => this.onDrift(event));
  }

  addAgent(name, baseUrl) {
    this.agents.set(name, {
      baseUrl,
      cardUrl: normaliseUrl(`${baseUrl.replace(/\/$/, '')}/.well-known/agent-card.json`),
    });
  }

  agentForCardUrl(cardUrl) {
    if (!cardUrl) return undefined;
    const key = normaliseUrl(cardUrl);
    for (const [name, a] of this.agents) if (a.cardUrl === key) return name;
    return undefined;
  }

  /** The drift callback: evict the cached card of the agent that drifted. Never throws. */
  onDrift(event) {
    const agent = this.agentForCardUrl(event.cardUrl) || event.agentName;
    this.events.push({ agent, event });
    if (event.kind === 'card_changed') {
      // The agent announced another card at an answer and the card fetched again confirmed it:
      // the cached card is old, evict it (the next call re-negotiates from the new one).
      const evicted =
        event.suspicion === 'announced' && agent !== undefined && this.cache.delete(agent);
      if (evicted) this.stats.evictions++;
      this.notes.push({
        type: 'changed',
        agent,
        event,
        evicted,
        previousVersion: this.lastVersion.get(agent),
      });
      return;
    }
    if (event.taskId) this.flagged.set(event.taskId, event);
    const evicted = agent !== undefined && this.cache.delete(agent);
    if (evicted) this.stats.evictions++;
    this.notes.push({ type: 'drift', agent, event, evicted });
  }

  flushNotes() {
    for (const n of this.notes.splice(0)) {
      const e = n.event;
      if (n.type === 'changed') {
        const current = this.cache.get(n.agent);
        const now = current ? current.card.version : undefined;
        const version =
          n.previousVersion === undefined || now === undefined || n.previousVersion === now
            ? `version ${now ?? n.previousVersion ?? '(none)'} unchanged`
            : `version ${n.previousVersion} → ${now}`;
        this.print(
          `CARD CHANGED  ${n.agent}  ${short(e.previousFingerprint)} → ${short(e.fingerprint)}  (${version})${whatChanged(e.diff)}${e.suspicion === 'announced' ? '  (announced by the agent at this call)' : ''}`,
        );
        if (n.evicted) this.print(`evicted ${n.agent}'s cached card; the next call re-fetches it`);
        continue;
      }
      const parts = [`agent=${n.agent}`, `skill=${e.skillId}`, `task=${shortId(e.taskId)}`];
      if (e.kind === 'output_mode_mismatch')
        parts.push(`expected=${(e.expectedModes || []).join(',')} got=${e.actualMediaType}`);
      parts.push(`card=${e.cardUrl}`, `fingerprint=${short(e.fingerprint)}`);
      this.print(`DRIFT  ${e.kind}  ${parts.join(' ')}`);
      if (n.evicted) this.print(`evicted ${n.agent}'s cached card; re-fetching`);
    }
  }

  /** The cached client and card of an agent; (re-)created when missing or expired. */
  async agent(name) {
    const cached = this.cache.get(name);
    if (cached && Date.now() - cached.fetchedAt < this.cardTtlMs) return cached;
    const a = this.agents.get(name);
    if (!a) throw new Error(`unknown agent ${name}`);
    this.stats.cardFetches++;
    const client = await this.createClient(a.baseUrl);
    const card = await client.getAgentCard(); // the card the factory fetched (no new request)
    const entry = { client, card, fetchedAt: Date.now() };
    this.cache.set(name, entry);
    await settle();
    this.lastVersion.set(name, card.version);
    this.flushNotes();
    return entry;
  }

  async sendAndPoll(client, skillId, text) {
    this.stats.sends++;
    let task = await client.sendMessage({
      tenant: '',
      message: userMessage(text),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: true,
      },
      metadata: { skillId },
    });
    if (!task || !('status' in task))
      throw new Error(`expected a Task, got ${JSON.stringify(task)}`);
    const deadline = Date.now() + this.pollTimeoutMs;
    while (!TERMINAL.has(task.status && task.status.state)) {
      if (Date.now() > deadline)
        throw new Error(`task ${task.id} not terminal after ${this.pollTimeoutMs} ms`);
      await sleep(this.pollIntervalMs);
      this.stats.polls++;
      task = await client.getTask({ tenant: '', id: task.id });
    }
    return task;
  }

  /**
   * Run one task on `name`, wanting `wantedSkillId`, retrying as the field report's client did.
   * Returns one record per attempt.
   */
  async runTask(
    name,
    wantedSkillId,
    label,
    text = 'A2A v1.0 Agent Cards are capability advertisements, not contracts.',
  ) {
    this.stats.tasks++;
    const attempts = [];
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      this.stats.attempts++;
      const entry = await this.agent(name);
      const skill = negotiate(entry.card, wantedSkillId);
      const tag = (
        attempt === 0 ? label : `retry${this.maxRetries > 1 ? ` ${attempt}` : ''}`
      ).padEnd(8);
      if (!skill) {
        this.print(`[${name}] ${'(none)'.padEnd(13)} ${tag} no skill in the card takes text/plain`);
        attempts.push({ agent: name, label, attempt, skillId: undefined, state: 'NO_SKILL' });
        break;
      }
      const task = await this.sendAndPoll(entry.client, skill.id, text);
      await settle();
      const state = STATE_NAMES[task.status.state] || String(task.status.state);
      const part = task.artifacts && task.artifacts[0] && task.artifacts[0].parts[0];
      const mediaType = part ? part.mediaType : undefined;
      const drift = this.flagged.get(task.id);
      const record = {
        agent: name,
        label,
        attempt,
        skillId: skill.id,
        taskId: task.id,
        state,
        mediaType,
        drift: drift && drift.kind,
        statusText: firstText(task.status.message),
      };
      attempts.push(record);
      let verdict;
      if (state === 'COMPLETED')
        verdict = `${mediaType || '(no artifact)'}  ${drift ? `flagged: ${drift.kind}` : attempt > 0 ? 'ok (not flagged)' : 'ok'}`;
      else
        verdict = `${JSON.stringify(record.statusText)}${drift ? `  flagged: ${drift.kind}` : ''}`;
      this.print(`[${name}] ${skill.id.padEnd(13)} ${tag} ${state.padEnd(9)} ${verdict}`);
      this.flushNotes();
      if (state === 'COMPLETED' && !drift) break;
      if (attempt < this.maxRetries) await sleep(this.retryBackoffMs);
      else this.print(`[${name}] giving up after ${attempt + 1} attempts`);
    }
    return attempts;
  }

  close() {
    this.unsubscribe();
    this.cache.clear();
  }
}

module.exports = { FleetClient, negotiate, short, shortId, STATE_NAMES };
