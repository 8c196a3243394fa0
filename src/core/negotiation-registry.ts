/**
 * The task negotiations awaiting judgement: what the SendMessage that created a task negotiated
 * with (the card in use then), kept so that the task's later answers (polls, streams, pushes) are
 * judged against it.
 *
 * Pure and bounded: no timers, no I/O, time passed in (`now`, ms); the oldest put dropped first
 * past the entry cap, expired entries dropped as they are met. Every method is total.
 */
import { LinkedMap, intOption, readOption } from './linked-map';
import type { NegotiationContext } from './model';

export interface Negotiation {
  taskId: string;
  /** The agent endpoint the task lives at (`endpointScope`): task ids are unique per agent only. */
  scope?: string;
  /** What the SendMessage that created the task negotiated with (the card in use then). */
  context: NegotiationContext;
  /** Where its skill id came from (`params.skillId`, …, `application`). */
  skillIdSource?: string;
  /** The protocol version its span said, if any (a lifecycle call whose answer does not say keeps it). */
  protocolVersion?: string;
  /** opaque (a span context) */
  link?: unknown;
  createdAt: number;
}

/**
 * Tasks are held per agent endpoint: `scope` + NUL + task id (the task id alone without a scope).
 */
function negotiationKey(taskId: string, scope: unknown): string {
  return typeof scope === 'string' && scope.length > 0 ? `${scope}\u0000${taskId}` : taskId;
}

export interface NegotiationRegistryOptions {
  /** Entries held; the oldest put is dropped first. Default 10000. */
  maxEntries?: number;
  /** An entry older than this (now - createdAt > maxAgeMs) is gone. Default 3 600 000 (1 h). */
  maxAgeMs?: number;
}

export class NegotiationRegistry {
  private maxEntries: number;
  private maxAgeMs: number;
  /** taskId → negotiation and its createdAt as read at put; oldest put first. */
  private readonly entries = new LinkedMap<string, { n: Negotiation; t: number }>();

  constructor(opts?: NegotiationRegistryOptions) {
    this.maxEntries = intOption(readOption(opts, 'maxEntries'), 10000, 1);
    const age = readOption(opts, 'maxAgeMs');
    this.maxAgeMs = typeof age === 'number' && age >= 0 && !Number.isNaN(age) ? age : 3_600_000;
  }

  /**
   * Change the caps (process-wide: the last instrumentation configured sets them); drops the oldest
   * past the new entry cap.
   */
  setLimits(maxEntries: number, maxAgeMs: number): void {
    this.maxEntries = intOption(maxEntries, this.maxEntries, 1);
    if (typeof maxAgeMs === 'number' && maxAgeMs >= 0 && !Number.isNaN(maxAgeMs))
      this.maxAgeMs = maxAgeMs;
    while (this.entries.size > this.maxEntries)
      this.entries.delete(this.entries.oldestKey() as string);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Holds `n` (by reference) under its scope and taskId, replacing any earlier one for that task
   * (which then counts as the newest). Drops expired entries from the old end and the
   * oldest past maxEntries. Ignored unless `n` is an object with a string `taskId` and a
   * finite `createdAt`.
   */
  put(n: Negotiation): void {
    let taskId: unknown;
    let createdAt: unknown;
    let scope: unknown;
    try {
      if (typeof n !== 'object' || n === null) return;
      taskId = n.taskId;
      createdAt = n.createdAt;
      scope = n.scope;
    } catch {
      return;
    }
    if (typeof taskId !== 'string' || typeof createdAt !== 'number' || !Number.isFinite(createdAt))
      return;
    const key = negotiationKey(taskId, scope);
    this.entries.set(key, { n, t: createdAt });
    // Expired entries at the old end go now (amortised O(1)), so memory follows the age cap too.
    for (
      let id = this.entries.oldestKey();
      id !== undefined && id !== key;
      id = this.entries.oldestKey()
    ) {
      const e = this.entries.get(id) as { t: number };
      if (!(createdAt - e.t > this.maxAgeMs)) break;
      this.entries.delete(id);
    }
    while (this.entries.size > this.maxEntries)
      this.entries.delete(this.entries.oldestKey() as string);
  }

  /**
   * The negotiation for this task at this endpoint scope, unless it has expired (now - createdAt >
   * maxAgeMs), in which case it is removed and undefined returned. A non-finite `now` cannot
   * judge age: the entry is returned as is.
   */
  get(taskId: string, now: number, scope?: string): Negotiation | undefined {
    if (typeof taskId !== 'string') return undefined;
    const key = negotiationKey(taskId, scope);
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (typeof now === 'number' && Number.isFinite(now) && now - e.t > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.n;
  }

  clear(): void {
    this.entries.clear();
  }
}
