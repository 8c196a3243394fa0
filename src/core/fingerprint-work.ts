/**
 * The skill fingerprint's work budget: the steps its metered path spends (fingerprint.ts,
 * "Bounded work"), the depth limit, and the errors that end a card's reading when either is
 * passed. Module state: reading a card is synchronous, and re-entrant through withBudget.
 */

export const MAX_DEPTH = 1000;

export class TooDeep extends Error {}

class OverBudget extends Error {}
export const OVER_BUDGET = new OverBudget('over budget');

/** Steps left for the card being read (module state: reading is synchronous). */
let budget = 0;
let lastWork = 0;

/** Spends `n` steps of the metered path; throws OVER_BUDGET once they run out. */
export function spend(n: number): void {
  if (n > budget) {
    budget = -1; // one step over: what was refused is not counted as done
    throw OVER_BUDGET;
  }
  budget -= n;
}

/**
 * Runs `read` with `limit` steps of the metered path, then restores the budget of any reading it
 * interrupted (a getter on the card may fingerprint another card) and records the steps taken.
 */
export function withBudget<T>(limit: number, read: () => T): T {
  const outer = budget;
  budget = limit;
  try {
    return read();
  } finally {
    lastWork = limit - budget;
    budget = outer;
  }
}

/** Steps of the metered path taken by the last fingerprint (for tests and the benchmark). */
export function lastFingerprintWork(): number {
  return lastWork;
}
