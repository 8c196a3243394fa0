/**
 * A tiny, dependency-free timing helper shared by the benches. It prints and returns
 * per-call figures; it asserts nothing.
 *
 *   measure('skillFingerprint (20 skills)', () => skillFingerprint(card));
 *
 * Method: a warm-up (so the JIT has settled), then `rounds` rounds; each round times
 * `samples` samples of `batch` back-to-back calls (default 1) with process.hrtime.bigint(),
 * and a sample's per-call time is its elapsed time / batch. Median and p99 are over all
 * samples of all rounds; `roundMedians` shows the spread between rounds.
 */

export interface MeasureOptions {
  /** Calls before timing starts. Default 20 000. */
  warmup?: number;
  /** Rounds. Default 5. */
  rounds?: number;
  /** Samples per round. Default 2 000. */
  samples?: number;
  /**
   * Calls per sample. Default 1. Raise it for sub-microsecond work to hide the cost of
   * reading the clock (~30-50 ns); median/p99 are then of per-batch means.
   */
  batch?: number;
  /** Print the result line (default true). */
  print?: boolean;
}

export interface MeasureResult {
  name: string;
  /** Per call, in microseconds. */
  medianUs: number;
  p99Us: number;
  minUs: number;
  meanUs: number;
  /** Median of each round, microseconds. */
  roundMedians: number[];
  calls: number;
}

/** Keeps results alive so the JIT cannot drop the measured work. */
export let sink: unknown;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export function measure(name: string, fn: () => unknown, opts: MeasureOptions = {}): MeasureResult {
  const warmup = opts.warmup ?? 20_000;
  const rounds = opts.rounds ?? 5;
  const samples = opts.samples ?? 2_000;
  const batch = Math.max(1, opts.batch ?? 1);

  for (let i = 0; i < warmup; i++) sink = fn();

  const all: number[] = [];
  const roundMedians: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const perRound: number[] = new Array(samples);
    for (let s = 0; s < samples; s++) {
      const t0 = process.hrtime.bigint();
      for (let b = 0; b < batch; b++) sink = fn();
      const t1 = process.hrtime.bigint();
      perRound[s] = Number(t1 - t0) / batch / 1000; // ns → µs per call
    }
    perRound.sort((a, b) => a - b);
    roundMedians.push(quantile(perRound, 0.5));
    for (const v of perRound) all.push(v);
  }
  all.sort((a, b) => a - b);
  const result: MeasureResult = {
    name,
    medianUs: quantile(all, 0.5),
    p99Us: quantile(all, 0.99),
    minUs: all[0],
    meanUs: all.reduce((a, b) => a + b, 0) / all.length,
    roundMedians,
    calls: warmup + rounds * samples * batch,
  };
  if (opts.print !== false) printResult(result);
  return result;
}

const fmt = (us: number): string => (us < 10 ? us.toFixed(3) : us.toFixed(1));

export function printResult(r: MeasureResult): void {
  console.log(
    `${r.name.padEnd(48)} median ${fmt(r.medianUs).padStart(8)} µs   p99 ${fmt(r.p99Us).padStart(8)} µs   ` +
      `min ${fmt(r.minUs)} µs   rounds [${r.roundMedians.map(fmt).join(', ')}]`,
  );
}
