/**
 * The configuration of A2AInstrumentation: its type, defaults, and validation.
 * A bad value gets one clear diag warning and the default, never an exception.
 */
import type { Span } from '@opentelemetry/api';
import { logger } from './diag-logger';
import type { InstrumentationConfig } from '@opentelemetry/instrumentation';
import type { DriftEvent } from './core/judge';
import { compilePatterns, type TextMatcher } from './core/judge';
import { intAtLeast } from './core/json-path';
import type { DecodedRequest, DecodedResult } from './core/model';
import { DEFAULT_SKILL_ID_PATHS } from './core/protocol/jsonrpc';

export type { DriftEvent };

/** What requestHook sees: the decoded request (no bodies, no headers). */
export interface A2ARequestInfo {
  /** `GetAgentCard` or the operation's 1.0 name. */
  operation: string;
  url: string;
  request?: DecodedRequest;
}

/** What responseHook sees when the exchange ends. */
export interface A2AResponseInfo extends A2ARequestInfo {
  statusCode?: number;
  /**
   * The last decoded result (response body or stream event); its texts are for reading, not for
   * export.
   */
  result?: DecodedResult;
  drift?: DriftEvent;
}

export interface A2AInstrumentationConfig extends InstrumentationConfig {
  /**
   * Failure patterns meaning "unknown skill" (strings: case-insensitive substring; RegExp: made
   * case-insensitive). Default `['unknown skill']`.
   */
  unknownSkillPatterns?: Array<string | RegExp>;
  /** Failure patterns meaning "unsupported mode". Default `['unsupported mode']`. */
  unsupportedModePatterns?: Array<string | RegExp>;
  /**
   * Dotted paths in a JSON-RPC request where the skill id is looked for, first found wins. Default
   * `params.skillId`, `params.metadata.skillId`, `params.message.metadata.skillId`.
   */
  skillIdPaths?: string[];
  /**
   * Pre-1.0 text parts carry no media type: by default they match any `text/*` output mode; true
   * makes them strictly `text/plain` (the seed's reading).
   */
  strictTextParts?: boolean;
  /**
   * Response bytes inspected per exchange (after decompression); past this the span says it could
   * not judge. Default 4 MiB.
   */
  maxInspectBytes?: number;
  /** Request body bytes inspected to recognise an A2A call. Default 1 MiB. */
  maxRequestBodyBytes?: number;
  /** URLs never inspected (string: prefix of `origin + path`; RegExp: tested on it). */
  ignoreUrls?: Array<string | RegExp>;
  /**
   * Called for every drift (debounced per card and fingerprint). Runs after the request, off its
   * path; throwing or rejecting changes nothing.
   */
  onDrift?: (event: DriftEvent) => void | Promise<void>;
  /**
   * Minimum time between two callback calls for the same card URL and fingerprint. Default 10 s.
   */
  driftCallbackDebounceMs?: number;
  /**
   * `observe` (default): never changes what the application sees. `enforce`: the seed's
   * guard — a call through global fetch whose exchange shows drift rejects with
   * StaleAgentCardError / ArtifactSchemaDriftError instead of returning the stale result
   * (a non-streaming response is read whole before the app gets it; a stream errors at the
   * event that shows drift).
   */
  mode?: 'observe' | 'enforce';
  /**
   * On drift, fetch the card again (unobserved by the app, untraced) and record on the drift span
   * whether it really changed. Default false.
   */
  refetchCardOnDrift?: boolean;
  /** Called when an A2A span starts. */
  requestHook?: (span: Span, info: A2ARequestInfo) => void;
  /** Called before an A2A span ends. */
  responseHook?: (span: Span, info: A2AResponseInfo) => void;
  /** Negotiated tasks remembered for lifecycle correlation. Default 10,000 entries, 1 hour. */
  maxTrackedTasks?: number;
  taskTtlMs?: number;
  /** Agent Cards remembered. Default 1,000. */
  maxCards?: number;
  /**
   * A span whose response stays idle this long (no bytes: a body never read, a dead stream) is
   * ended as abandoned. Long streams that keep sending stay open. Default 5 minutes.
   */
  maxSpanDurationMs?: number;
}

export interface ResolvedConfig {
  unknownSkillPatterns: TextMatcher[];
  unsupportedModePatterns: TextMatcher[];
  skillIdPaths: string[];
  strictTextParts: boolean;
  maxInspectBytes: number;
  maxRequestBodyBytes: number;
  ignoreUrls: Array<string | RegExp>;
  driftCallbackDebounceMs: number;
  maxTrackedTasks: number;
  taskTtlMs: number;
  maxCards: number;
  maxSpanDurationMs: number;
  enforce: boolean;
  refetchCardOnDrift: boolean;
}

export const DEFAULTS = {
  unknownSkillPatterns: ['unknown skill'],
  unsupportedModePatterns: ['unsupported mode'],
  skillIdPaths: DEFAULT_SKILL_ID_PATHS as readonly string[],
  strictTextParts: false,
  maxInspectBytes: 4 * 1024 * 1024,
  maxRequestBodyBytes: 1024 * 1024,
  driftCallbackDebounceMs: 10_000,
  maxTrackedTasks: 10_000,
  taskTtlMs: 60 * 60 * 1000,
  maxCards: 1_000,
  maxSpanDurationMs: 5 * 60 * 1000,
} as const;

function warn(option: string, value: unknown, fallback: unknown): void {
  let shown: string;
  try {
    shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    shown = typeof value;
  }
  logger.warn(`invalid ${option} ${shown.slice(0, 100)}; using ${JSON.stringify(fallback)}`);
}

/** An integer option at least `min` (floored), else the fallback with a warning. */
function intOption(option: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = intAtLeast(value, min);
  if (n !== undefined) return n;
  warn(option, value, fallback);
  return fallback;
}

const positiveInt = (option: string, value: unknown, fallback: number): number =>
  intOption(option, value, fallback, 1);
const nonNegativeInt = (option: string, value: unknown, fallback: number): number =>
  intOption(option, value, fallback, 0);

function patternList(
  option: string,
  value: unknown,
  fallback: readonly string[],
): Array<string | RegExp> {
  if (value === undefined) return [...fallback];
  if (
    Array.isArray(value) &&
    value.every((p) => (typeof p === 'string' && p.length > 0) || p instanceof RegExp)
  ) {
    return value as Array<string | RegExp>;
  }
  warn(option, value, fallback);
  return [...fallback];
}

function stringList(option: string, value: unknown, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  if (Array.isArray(value) && value.every((p) => typeof p === 'string' && p.length > 0))
    return value as string[];
  warn(option, value, fallback);
  return [...fallback];
}

/** Validate a user config; every invalid value is warned about once and replaced by its default. */
export function resolveConfig(config: A2AInstrumentationConfig): ResolvedConfig {
  const strict = config.strictTextParts;
  let strictTextParts: boolean = DEFAULTS.strictTextParts;
  if (typeof strict === 'boolean') strictTextParts = strict;
  else if (strict !== undefined) warn('strictTextParts', strict, DEFAULTS.strictTextParts);

  let enforce = false;
  if (config.mode === 'enforce') enforce = true;
  else if (config.mode !== undefined && config.mode !== 'observe')
    warn('mode', config.mode, 'observe');
  let refetchCardOnDrift = false;
  if (typeof config.refetchCardOnDrift === 'boolean')
    refetchCardOnDrift = config.refetchCardOnDrift;
  else if (config.refetchCardOnDrift !== undefined)
    warn('refetchCardOnDrift', config.refetchCardOnDrift, false);

  let ignoreUrls: Array<string | RegExp> = [];
  if (config.ignoreUrls !== undefined) {
    if (
      Array.isArray(config.ignoreUrls) &&
      config.ignoreUrls.every((p) => typeof p === 'string' || p instanceof RegExp)
    ) {
      // A /g or /y RegExp keeps state between test() calls (it would ignore every other call): use
      // a stateless copy.
      ignoreUrls = config.ignoreUrls.map((p) =>
        p instanceof RegExp && (p.global || p.sticky)
          ? new RegExp(p.source, p.flags.replace(/[gy]/g, ''))
          : p,
      );
    } else warn('ignoreUrls', config.ignoreUrls, []);
  }

  return {
    unknownSkillPatterns: compilePatterns(
      patternList(
        'unknownSkillPatterns',
        config.unknownSkillPatterns,
        DEFAULTS.unknownSkillPatterns,
      ),
    ),
    unsupportedModePatterns: compilePatterns(
      patternList(
        'unsupportedModePatterns',
        config.unsupportedModePatterns,
        DEFAULTS.unsupportedModePatterns,
      ),
    ),
    skillIdPaths: stringList('skillIdPaths', config.skillIdPaths, DEFAULTS.skillIdPaths),
    strictTextParts,
    maxInspectBytes: positiveInt(
      'maxInspectBytes',
      config.maxInspectBytes,
      DEFAULTS.maxInspectBytes,
    ),
    maxRequestBodyBytes: positiveInt(
      'maxRequestBodyBytes',
      config.maxRequestBodyBytes,
      DEFAULTS.maxRequestBodyBytes,
    ),
    ignoreUrls,
    driftCallbackDebounceMs: nonNegativeInt(
      'driftCallbackDebounceMs',
      config.driftCallbackDebounceMs,
      DEFAULTS.driftCallbackDebounceMs,
    ),
    maxTrackedTasks: positiveInt(
      'maxTrackedTasks',
      config.maxTrackedTasks,
      DEFAULTS.maxTrackedTasks,
    ),
    taskTtlMs: positiveInt('taskTtlMs', config.taskTtlMs, DEFAULTS.taskTtlMs),
    maxCards: positiveInt('maxCards', config.maxCards, DEFAULTS.maxCards),
    maxSpanDurationMs: positiveInt(
      'maxSpanDurationMs',
      config.maxSpanDurationMs,
      DEFAULTS.maxSpanDurationMs,
    ),
    enforce,
    refetchCardOnDrift,
  };
}

export function isIgnoredUrl(url: string, ignore: ReadonlyArray<string | RegExp>): boolean {
  for (const p of ignore) {
    try {
      if (typeof p === 'string' ? url.startsWith(p) : p.test(url)) return true;
    } catch {
      // a throwing user pattern ignores nothing
    }
  }
  return false;
}

/**
 * This package's options from `OTEL_INSTRUMENTATION_A2A_*` environment variables (the
 * register entry uses this). Lists are comma-separated; a bad value is warned about once
 * and left out, so the default applies.
 */
export function configFromEnv(env: NodeJS.ProcessEnv): A2AInstrumentationConfig {
  const config: A2AInstrumentationConfig = {};
  const read = (name: string): string | undefined => {
    const v = env[`OTEL_INSTRUMENTATION_A2A_${name}`];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const list = (name: string): string[] | undefined =>
    read(name)
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  const int = (name: string, key: keyof A2AInstrumentationConfig): void => {
    const v = read(name);
    if (v === undefined) return;
    const n = Number(v);
    if (/^\d+$/.test(v) && Number.isSafeInteger(n)) (config as Record<string, unknown>)[key] = n;
    else
      logger.warn(
        `invalid OTEL_INSTRUMENTATION_A2A_${name} ${JSON.stringify(v.slice(0, 100))}; using the default`,
      );
  };
  const bool = (name: string, key: keyof A2AInstrumentationConfig): void => {
    const v = read(name)?.toLowerCase();
    if (v === undefined) return;
    if (v === 'true' || v === 'false') (config as Record<string, unknown>)[key] = v === 'true';
    else
      logger.warn(
        `invalid OTEL_INSTRUMENTATION_A2A_${name} ${JSON.stringify(v.slice(0, 100))}; expected true or false, using the default`,
      );
  };
  const unknown = list('UNKNOWN_SKILL_PATTERNS');
  if (unknown) config.unknownSkillPatterns = unknown;
  const unsupported = list('UNSUPPORTED_MODE_PATTERNS');
  if (unsupported) config.unsupportedModePatterns = unsupported;
  const paths = list('SKILL_ID_PATHS');
  if (paths) config.skillIdPaths = paths;
  const ignore = list('IGNORE_URLS');
  if (ignore) config.ignoreUrls = ignore;
  bool('STRICT_TEXT_PARTS', 'strictTextParts');
  bool('REFETCH_CARD_ON_DRIFT', 'refetchCardOnDrift');
  const mode = read('MODE')?.toLowerCase();
  if (mode === 'observe' || mode === 'enforce') config.mode = mode;
  else if (mode !== undefined)
    logger.warn(
      `invalid OTEL_INSTRUMENTATION_A2A_MODE ${JSON.stringify(mode.slice(0, 100))}; expected observe or enforce, using observe`,
    );
  bool('ENABLED', 'enabled');
  int('MAX_INSPECT_BYTES', 'maxInspectBytes');
  int('MAX_REQUEST_BODY_BYTES', 'maxRequestBodyBytes');
  int('DRIFT_CALLBACK_DEBOUNCE_MS', 'driftCallbackDebounceMs');
  int('MAX_TRACKED_TASKS', 'maxTrackedTasks');
  int('TASK_TTL_MS', 'taskTtlMs');
  int('MAX_CARDS', 'maxCards');
  int('MAX_SPAN_DURATION_MS', 'maxSpanDurationMs');
  return config;
}
