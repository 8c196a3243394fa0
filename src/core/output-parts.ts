/**
 * What counts as output: which parts of an artifact (or of a Message reply) are the skill's
 * answer, to be judged against the card's output modes, and which are the agent's intermediate
 * work (a tool call, a tool's result, a thought, a code step) that some frameworks stream to the
 * client beside the answer. Pure and total.
 *
 * A part is intermediate when its own metadata, or its artifact's, marks it so:
 * 1. by rule, for frameworks not seen yet: an entry whose key is `type` or `kind` (or ends in
 *    `_type` / `_kind`, any case style: `adk_type`, `partKind`) and whose value names a step of the
 *    agent's work (`function_call`, `tool_result`, `thought`, `reasoning`, `executable_code`, …:
 *    WORK_VALUES), or a `true` flag whose key is, or ends in, `thought` / `thinking` / `reasoning`
 *    (`adk_thought`, `isThought`);
 * 2. by data, the exact marks of known frameworks (dialects/: ADK's `adk_type`, `adk_thought`).
 * Only text and data parts can be intermediate: a file part (an image, a document) is an
 * artifact whatever its metadata says, so an image returned where the card promised text is
 * judged even when a framework marks it.
 */
import { INTERMEDIATE_MARKERS } from './dialects/index';
import { isRecord } from './json-path';
import type { PartKind } from './model';

/** The agent's work steps, as the rule's values (normalised to snake_case). */
const WORK_VALUES: ReadonlySet<string> = new Set([
  'function_call',
  'function_calls',
  'function_response',
  'function_result',
  'function_call_output',
  'tool_call',
  'tool_calls',
  'tool_use',
  'tool_request',
  'tool_result',
  'tool_response',
  'tool_return',
  'tool_output',
  'tool_call_result',
  'tool_call_output',
  'executable_code',
  'code_execution',
  'code_execution_result',
  'thought',
  'thoughts',
  'thinking',
  'reasoning',
]);

/** Flags (value `true`) whose key names a thought. */
const THOUGHT_FLAGS: readonly string[] = ['thought', 'thinking', 'reasoning'];

/** Keys and values longer than this are not looked at; at most MAX_KEYS keys per metadata. */
const MAX_TOKEN = 64;
const MAX_KEYS = 32;

/** `adkType`, `adk-type`, `ADK_TYPE` → `adk_type`. */
function snake(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s.:/-]+/g, '_');
}

function isTypeKey(k: string): boolean {
  return k === 'type' || k === 'kind' || k.endsWith('_type') || k.endsWith('_kind');
}

function isThoughtFlag(k: string): boolean {
  for (const w of THOUGHT_FLAGS) if (k === w || k.endsWith(`_${w}`)) return true;
  return false;
}

/** A known framework's exact mark, as `key=value`. */
function dialectMark(kind: 'text' | 'data', meta: Record<string, unknown>): string | undefined {
  for (const m of INTERMEDIATE_MARKERS) {
    if (!m.kinds.includes(kind) || !Object.prototype.hasOwnProperty.call(meta, m.key)) continue;
    const v = meta[m.key];
    if ((typeof v === 'string' || typeof v === 'boolean') && m.values.includes(v))
      return `${m.key}=${String(v)}`;
  }
  return undefined;
}

/** The rule's mark, as `key=value`. */
function ruleMark(meta: Record<string, unknown>): string | undefined {
  let n = 0;
  for (const key in meta) {
    if (++n > MAX_KEYS) break;
    if (!Object.prototype.hasOwnProperty.call(meta, key) || key.length > MAX_TOKEN) continue;
    const v = meta[key];
    if (v === true) {
      if (isThoughtFlag(snake(key))) return `${key}=true`;
    } else if (typeof v === 'string' && v.length <= MAX_TOKEN && isTypeKey(snake(key))) {
      if (WORK_VALUES.has(snake(v))) return `${key}=${v}`;
    }
  }
  return undefined;
}

/**
 * The intermediate-work mark of a part of `kind` with `metadata` (the part's, then its
 * artifact's), or undefined when the part is output.
 */
export function intermediateMark(
  kind: PartKind,
  metadata: unknown,
  artifactMetadata?: unknown,
): string | undefined {
  if (kind !== 'text' && kind !== 'data') return undefined;
  return markOf(kind, metadata) ?? markOf(kind, artifactMetadata);
}

function markOf(kind: 'text' | 'data', meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const mark = dialectMark(kind, meta) ?? ruleMark(meta);
  return mark !== undefined && mark.length > 2 * MAX_TOKEN ? mark.slice(0, 2 * MAX_TOKEN) : mark;
}
