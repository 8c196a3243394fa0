/**
 * Where fleet alerts go besides this process's own callbacks, in a `node:cluster` application
 * (cluster.ts sets it; act.ts follows it). Kept apart so that act.ts and cluster.ts do not
 * import each other.
 */
import type { FleetAlert } from './alerts';

/** What telling the workers did. */
export interface FanOut {
  /** Live workers running the package when the alerts arrived. */
  workers: number;
  /** Those that acknowledged (acted on) them. */
  told: number;
  /** Every worker still alive at the end acknowledged: the alerts may be answered 200. */
  complete: boolean;
}

/**
 * Where alerts go besides this process's own callbacks: the primary tells its workers; a
 * worker welcomed by its primary relays alerts it receives itself (a handler the app mounted
 * in a worker's server) to the primary, which tells every worker. Kept under a global symbol:
 * every copy of the package loaded in the process uses the one route.
 */
export interface FleetRoute {
  readonly role: 'primary' | 'worker';
  /**
   * Primary: tell the workers (undefined when the application never forked one: a plain
   * process). Worker: have the primary act and tell every worker (undefined when it did not
   * answer in time: the worker acts itself).
   */
  send(alerts: readonly FleetAlert[]): Promise<FanOut | undefined>;
}

const ROUTE = Symbol.for('opentelemetry-instrumentation-a2a.fleet-route');

export function currentRoute(): FleetRoute | undefined {
  return (globalThis as unknown as Record<symbol, FleetRoute | undefined>)[ROUTE];
}

export function setRoute(route: FleetRoute | undefined): void {
  (globalThis as unknown as Record<symbol, FleetRoute | undefined>)[ROUTE] = route;
}
