/** Small statistics helpers shared by the bench scripts (no dependencies). */

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Environment number with a default (BENCH_QUICK scales the default, not an explicit value). */
export function envNumber(name: string, def: number, quickDef?: number): number {
  const v = process.env[name];
  if (v !== undefined && v !== '' && Number.isFinite(Number(v))) return Number(v);
  return process.env.BENCH_QUICK === '1' && quickDef !== undefined ? quickDef : def;
}

export const fmtMs = (ms: number): string =>
  Number.isFinite(ms)
    ? ms < 10
      ? ms.toFixed(3)
      : ms < 100
        ? ms.toFixed(2)
        : ms.toFixed(1)
    : 'n/a';
export const fmtUs = (us: number): string =>
  Number.isFinite(us)
    ? us < 10
      ? us.toFixed(2)
      : us < 1000
        ? us.toFixed(1)
        : us.toFixed(0)
    : 'n/a';
export const fmtRatio = (r: number): string => (Number.isFinite(r) ? r.toFixed(3) : 'n/a');
export const fmtPct = (r: number): string =>
  Number.isFinite(r) ? `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%` : 'n/a';
export const fmtMiB = (bytes: number): string =>
  Number.isFinite(bytes) ? (bytes / 1024 / 1024).toFixed(1) : 'n/a';
