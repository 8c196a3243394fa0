/**
 * Task states of every version → the 1.0 spelling, and which of them end a task. Pure, total.
 */
import type { TaskState } from '../model';

const STATES = new Map<string, TaskState>([
  ['submitted', 'TASK_STATE_SUBMITTED'],
  ['working', 'TASK_STATE_WORKING'],
  ['input-required', 'TASK_STATE_INPUT_REQUIRED'],
  ['completed', 'TASK_STATE_COMPLETED'],
  ['canceled', 'TASK_STATE_CANCELED'],
  ['cancelled', 'TASK_STATE_CANCELED'],
  ['failed', 'TASK_STATE_FAILED'],
  ['rejected', 'TASK_STATE_REJECTED'],
  ['auth-required', 'TASK_STATE_AUTH_REQUIRED'],
  ['unknown', 'TASK_STATE_UNSPECIFIED'],
  ['unspecified', 'TASK_STATE_UNSPECIFIED'],
]);

/** Proto enum numbers (0.3 and 1.0 `TaskState`; proto3 JSON parsers accept them). */
const PROTO_STATES: readonly TaskState[] = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
];

/** Every 1.0 spelling, as sent: taken without rewriting (the proto enum names them all). */
const EXACT_STATES: ReadonlySet<string> = new Set<string>(PROTO_STATES);

/**
 * Any version's task state → the 1.0 spelling: lowercase / kebab-case 0.x names
 * (`input-required`, `canceled`/`cancelled`, `unknown` → UNSPECIFIED), 1.0 and 0.3-proto
 * `TASK_STATE_*` strings (any case, `_` or `-`), and the proto enum integers 0–8.
 * Anything else (including `UNRECOGNIZED`, other numbers) → undefined.
 */
export function normaliseTaskState(v: unknown): TaskState | undefined {
  if (typeof v === 'number') {
    return Number.isInteger(v) && v >= 0 && v < PROTO_STATES.length ? PROTO_STATES[v] : undefined;
  }
  if (typeof v !== 'string' || v.length === 0 || v.length > 40) return undefined;
  if (EXACT_STATES.has(v)) return v as TaskState; // the 1.0 spelling, as sent: no rewriting
  let s = v.trim().toLowerCase();
  if (s.indexOf('_') >= 0) s = s.replace(/_/g, '-');
  if (s.startsWith('task-state-')) s = s.slice(11);
  return STATES.get(s);
}

/** completed, failed, canceled, rejected. */
export function isTerminalState(s: TaskState | undefined): boolean {
  return (
    s === 'TASK_STATE_COMPLETED' ||
    s === 'TASK_STATE_FAILED' ||
    s === 'TASK_STATE_CANCELED' ||
    s === 'TASK_STATE_REJECTED'
  );
}
