/**
 * Fleet alerts already acted on: a bounded memory kept in the process-wide shared state
 * (telemetry/shared-state.ts), so that every copy of the package loaded in the process acts
 * on one alert once. The fleet receiver (fleet/act.ts) fills it.
 *
 * Pure: no I/O, no timers, no OpenTelemetry.
 */
/**
 * The alerts already acted on (fingerprint + startsAt), so that one alert evicts once
 * however often Alertmanager re-sends it or a poll sees it. Bounded: past `max` entries
 * the oldest are forgotten.
 */
export class SeenAlerts {
  private readonly seen = new Map<string, number>();

  constructor(private readonly max = 10_000) {}

  /** True the first time `key` is offered (and remembers it). */
  firstTime(key: string, now: number): boolean {
    if (this.seen.has(key)) return false;
    this.seen.set(key, now);
    while (this.seen.size > this.max) {
      const oldest = this.seen.keys().next().value;
      if (oldest === undefined) break;
      this.seen.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  clear(): void {
    this.seen.clear();
  }
}
