/**
 * The A2A calls an instrumentation has started and not yet ended, and the sweeper that ends
 * those whose response stayed idle past `maxSpanDurationMs` (a body the app never reads, a dead
 * stream), so no span stays open and no call stays in memory for ever.
 */
import type { A2ACall } from './a2a-call';

export class ActiveCalls {
  private readonly calls = new Set<A2ACall>();
  private sweeper: NodeJS.Timeout | undefined;

  get size(): number {
    return this.calls.size;
  }

  add(call: A2ACall): void {
    this.calls.add(call);
  }

  delete(call: A2ACall): void {
    this.calls.delete(call);
  }

  /** Every half of `maxIdleMs` (1 to 30 s), ends the calls idle longer than `maxIdleMs`. */
  startSweeping(maxIdleMs: number): void {
    this.stopSweeping();
    this.sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const call of this.calls) {
          if (now - call.lastActivity > maxIdleMs)
            call.finish(`no response bytes for ${maxIdleMs} ms (abandoned)`);
        }
      },
      Math.max(1000, Math.min(30_000, Math.floor(maxIdleMs / 2))),
    );
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Ends every call (its span says why). */
  finishAll(reason: string): void {
    for (const call of [...this.calls]) call.finish(reason);
  }
}
