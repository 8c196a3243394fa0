/**
 * The configuration of A2AInstrumentation: its type, its validation (`resolveConfig`) and its
 * environment variables (`configFromEnv`), both driven by the options table (options.ts).
 * A bad value gets one clear diag warning and the default, never an exception.
 */
import type { Span } from '@opentelemetry/api';
import { logger } from './diag-logger';
import { SEMCONV_OPT_IN_GEN_AI } from './semconv';
import {
  SemconvStability,
  semconvStabilityFromStr,
  type InstrumentationConfig,
} from '@opentelemetry/instrumentation';
import type { DriftEvent } from './core/judge';
import { compilePatterns, type TextMatcher } from './core/judge';
import type { DecodedRequest, DecodedResult } from './core/model';
import {
  acceptOption,
  envExpectation,
  ENV_PREFIX,
  INVALID,
  OPTIONS,
  optionFromEnv,
  type OptionName,
  type OptionSpec,
} from './options';

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
   * `params.skillId`, `params.metadata.skillId`, `params.message.metadata.skillId`,
   * `params.message.metadata.skill_id`.
   */
  skillIdPaths?: string[];
  /**
   * Pre-1.0 text parts carry no media type: by default they match any `text/*` output mode; true
   * makes them strictly `text/plain` (the field report's reading).
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
   * `observe` (default): never changes what the application sees. `enforce`: the field report's
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
  /**
   * A card the app keeps using is fetched again in the background (conditional, untraced, unseen
   * by the app) at most once per this interval, while calls to its agent are made; a change is
   * reported as card_changed (with what changed) before any call fails. 0 turns it off. Default
   * 5 minutes.
   */
  cardRevalidationMs?: number;
  /**
   * The card fingerprint on the wire (`A2A-Card-Fingerprint`): on the A2A answers this process
   * serves, and on the A2A requests it makes. Default true.
   */
  cardFingerprintHeaders?: boolean;
  /**
   * The agent's side: SERVER spans for the A2A requests this process answers, its served card,
   * its stale callers. Default true.
   */
  serverSpans?: boolean;
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
  cardRevalidationMs: number;
  cardFingerprintHeaders: boolean;
  serverSpans: boolean;
  /**
   * `OTEL_SEMCONV_STABILITY_OPT_IN` lists `gen_ai_latest_experimental`: the operations that invoke
   * an agent are named as the GenAI conventions ask (`invoke_agent {gen_ai.agent.name}`).
   */
  genAiSpanNames: boolean;
}

/**
 * The options table has exactly the config's options: a key missing from either side fails to
 * compile here.
 */
type Exactly<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never] ? true : false;
const OPTIONS_MATCH_CONFIG: Exactly<OptionName, keyof A2AInstrumentationConfig> = true;
void OPTIONS_MATCH_CONFIG;

/** An option's value from the user's config: checked, or its default after one warning. */
function checked<K extends OptionName>(
  config: A2AInstrumentationConfig,
  name: K,
): NonNullable<A2AInstrumentationConfig[K]> {
  const spec: OptionSpec = OPTIONS[name];
  const value: unknown = config[name];
  const fallback = (): NonNullable<A2AInstrumentationConfig[K]> =>
    (Array.isArray(spec.default) ? [...(spec.default as unknown[])] : spec.default) as NonNullable<
      A2AInstrumentationConfig[K]
    >;
  if (value === undefined) return fallback();
  const accepted = acceptOption(spec, value);
  if (accepted !== INVALID) return accepted as NonNullable<A2AInstrumentationConfig[K]>;
  let shown: string;
  try {
    shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    shown = typeof value;
  }
  logger.warn(`invalid ${name} ${shown.slice(0, 100)}; using ${JSON.stringify(spec.default)}`);
  return fallback();
}

/** Validate a user config; every invalid value is warned about once and replaced by its default. */
export function resolveConfig(config: A2AInstrumentationConfig): ResolvedConfig {
  return {
    unknownSkillPatterns: compilePatterns(checked(config, 'unknownSkillPatterns')),
    unsupportedModePatterns: compilePatterns(checked(config, 'unsupportedModePatterns')),
    skillIdPaths: checked(config, 'skillIdPaths'),
    strictTextParts: checked(config, 'strictTextParts'),
    maxInspectBytes: checked(config, 'maxInspectBytes'),
    maxRequestBodyBytes: checked(config, 'maxRequestBodyBytes'),
    ignoreUrls: checked(config, 'ignoreUrls'),
    driftCallbackDebounceMs: checked(config, 'driftCallbackDebounceMs'),
    maxTrackedTasks: checked(config, 'maxTrackedTasks'),
    taskTtlMs: checked(config, 'taskTtlMs'),
    maxCards: checked(config, 'maxCards'),
    maxSpanDurationMs: checked(config, 'maxSpanDurationMs'),
    enforce: checked(config, 'mode') === 'enforce',
    refetchCardOnDrift: checked(config, 'refetchCardOnDrift'),
    cardRevalidationMs: checked(config, 'cardRevalidationMs'),
    cardFingerprintHeaders: checked(config, 'cardFingerprintHeaders'),
    serverSpans: checked(config, 'serverSpans'),
    genAiSpanNames: semconvOptIn(SEMCONV_OPT_IN_GEN_AI),
  };
}

/**
 * `OTEL_SEMCONV_STABILITY_OPT_IN` lists `value`, read as OpenTelemetry's own instrumentations read
 * it (comma-separated, case-insensitive; `value/dup` asks for the old names as well, which one
 * span name cannot give: the old ones stay).
 */
function semconvOptIn(value: string): boolean {
  return (
    semconvStabilityFromStr(value, process.env.OTEL_SEMCONV_STABILITY_OPT_IN) ===
    SemconvStability.STABLE
  );
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
 * register entry uses this), one per option of the options table that has one. Lists are
 * comma-separated; a bad value is warned about once and left out, so the default applies.
 */
export function configFromEnv(env: NodeJS.ProcessEnv): A2AInstrumentationConfig {
  const config: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(OPTIONS) as Array<[OptionName, OptionSpec]>) {
    if (spec.env === undefined) continue;
    const text = env[ENV_PREFIX + spec.env]?.trim();
    if (text === undefined || text === '') continue;
    const value = optionFromEnv(spec, text);
    if (value !== INVALID) config[name] = value;
    else
      logger.warn(
        `invalid ${ENV_PREFIX}${spec.env} ${JSON.stringify(text.slice(0, 100))}; expected ${envExpectation(spec)}, using the default`,
      );
  }
  return config as A2AInstrumentationConfig;
}
