/**
 * The options table: every option of A2AInstrumentationConfig once, with its environment
 * variable, its kind, its default and its documentation. `resolveConfig` and `configFromEnv`
 * (config.ts) read it, and the README's configuration table is generated from it
 * (`npm run docs:options`; test/config.test.ts fails when the README is stale).
 */
import { intAtLeast } from './core/json-path';
import { DEFAULT_SKILL_ID_PATHS } from './core/protocol/jsonrpc';

export const ENV_PREFIX = 'OTEL_INSTRUMENTATION_A2A_';

/**
 * - `patterns`: strings (case-insensitive substrings) or RegExps, none empty;
 * - `paths`: non-empty strings; `urls`: strings or RegExps (a /g or /y RegExp is made stateless);
 * - `integer`: a finite number at least `min`, floored; `boolean`; `mode`: observe or enforce;
 * - `function`: a callback, not resolved (it is called where it is used, its errors caught).
 * From the environment, lists are comma-separated, booleans `true`/`false`, integers digits.
 */
export type OptionKind =
  'patterns' | 'paths' | 'urls' | 'integer' | 'boolean' | 'mode' | 'function';

export interface OptionSpec {
  kind: OptionKind;
  /** The variable's name after OTEL_INSTRUMENTATION_A2A_; none for callbacks. */
  env?: string;
  /** What resolveConfig uses when the option is unset or invalid. */
  default?: unknown;
  /** `integer` options: the least value accepted. */
  min?: number;
  /** The default as the README shows it. */
  defaultText: string;
  /** The README's "meaning" column. */
  doc: string;
}

export const OPTIONS = {
  unknownSkillPatterns: {
    kind: 'patterns',
    env: 'UNKNOWN_SKILL_PATTERNS',
    default: ['unknown skill'],
    defaultText: "`['unknown skill']`",
    doc: 'a failed task whose status text matches is `unknown_skill`. Strings: case-insensitive substring; `RegExp`: made case-insensitive, applied to at most 4,096 characters',
  },
  unsupportedModePatterns: {
    kind: 'patterns',
    env: 'UNSUPPORTED_MODE_PATTERNS',
    default: ['unsupported mode'],
    defaultText: "`['unsupported mode']`",
    doc: 'the same for `unsupported_mode`',
  },
  skillIdPaths: {
    kind: 'paths',
    env: 'SKILL_ID_PATHS',
    default: DEFAULT_SKILL_ID_PATHS,
    defaultText: DEFAULT_SKILL_ID_PATHS.map((p) => `\`${p}\``).join(', '),
    doc: 'where the request\'s skill id is looked for, first found wins (HTTP+JSON: the body is the `params`); a key holding dots in brackets: `params.message.metadata["vendor.skill"]`. Metadata keys that name a skill are read besides (docs/telemetry.md)',
  },
  strictTextParts: {
    kind: 'boolean',
    env: 'STRICT_TEXT_PARTS',
    default: false,
    defaultText: '`false`',
    doc: "pre-1.0 text parts carry no media type: by default they match any `text/*` output mode; `true` makes them strictly `text/plain` (the field report's reading)",
  },
  maxInspectBytes: {
    kind: 'integer',
    env: 'MAX_INSPECT_BYTES',
    default: 4 * 1024 * 1024,
    min: 1,
    defaultText: '4 MiB',
    doc: 'response bytes inspected per exchange (after decompression; per event for streams); past it the span says it could not judge',
  },
  maxRequestBodyBytes: {
    kind: 'integer',
    env: 'MAX_REQUEST_BODY_BYTES',
    default: 1024 * 1024,
    min: 1,
    defaultText: '1 MiB',
    doc: 'request bytes inspected to recognise an A2A call',
  },
  ignoreUrls: {
    kind: 'urls',
    env: 'IGNORE_URLS',
    default: [],
    defaultText: 'none',
    doc: 'URLs never inspected (string: prefix of `origin + path`; `RegExp`: tested on it)',
  },
  onDrift: {
    kind: 'function',
    defaultText: 'none',
    doc: 'called for each drift, like `onAgentCardDrift`; runs after the request, off its path; throwing or rejecting changes nothing',
  },
  driftCallbackDebounceMs: {
    kind: 'integer',
    env: 'DRIFT_CALLBACK_DEBOUNCE_MS',
    default: 10_000,
    min: 0,
    defaultText: '10,000',
    doc: 'at most one callback per card URL and fingerprint in this window',
  },
  cardRevalidationMs: {
    kind: 'integer',
    env: 'CARD_REVALIDATION_MS',
    default: 300_000,
    min: 0,
    defaultText: '5 min',
    doc: 'a card in use is fetched again in the background (conditional: an unchanged card costs a 304; untraced; never with credentials) at most once per interval while its agent is called, and at once on a call after longer (the verdict on that call); a change is `card_changed` with what changed, and a skill it dropped is drift on every later call naming it. 0: off',
  },
  serverSpans: {
    kind: 'boolean',
    env: 'SERVER_SPANS',
    default: true,
    defaultText: '`true`',
    doc: "the agent's side: a SERVER span for each A2A request this process answers as an agent (its served card's fingerprint, stale callers: `a2a.server.stale_calls`), the served card learned from the bytes the process sends at its well-known path (or asked of its own server over loopback at the first request). `false`: off ([docs/telemetry.md](docs/telemetry.md#the-agents-side))",
  },
  cardFingerprintHeaders: {
    kind: 'boolean',
    env: 'CARD_FINGERPRINT_HEADERS',
    default: true,
    defaultText: '`true`',
    doc: 'the card fingerprint on the wire, both ways: an A2A answer this process serves as an agent carries `A2A-Card-Fingerprint` (the card it serves), an A2A request it makes carries the one of the card it negotiated with; a caller reading another fingerprint than its own has the card fetched again to decide ([docs/card-fingerprint-extension.md](docs/card-fingerprint-extension.md)). `false`: neither header',
  },
  refetchCardOnDrift: {
    kind: 'boolean',
    env: 'REFETCH_CARD_ON_DRIFT',
    default: false,
    defaultText: '`false`',
    doc: 'on drift, fetch the card again (untraced, unseen by the app) and record `a2a.drift.refetch` / `a2a.drift.confirmed` on the drift span',
  },
  mode: {
    kind: 'mode',
    env: 'MODE',
    default: 'observe',
    defaultText: '`observe`',
    doc: '`enforce`: a call through global `fetch` whose answer shows drift rejects with the drift error instead of returning ([docs/configuration.md](docs/configuration.md#enforce-mode))',
  },
  maxTrackedTasks: {
    kind: 'integer',
    env: 'MAX_TRACKED_TASKS',
    default: 10_000,
    min: 1,
    defaultText: '10,000',
    doc: 'negotiations remembered for the task lifecycle',
  },
  taskTtlMs: {
    kind: 'integer',
    env: 'TASK_TTL_MS',
    default: 60 * 60 * 1000,
    min: 1,
    defaultText: '1 h',
    doc: 'how long a negotiation is remembered',
  },
  maxCards: {
    kind: 'integer',
    env: 'MAX_CARDS',
    default: 1_000,
    min: 1,
    defaultText: '1,000',
    doc: 'Agent Cards remembered',
  },
  maxSpanDurationMs: {
    kind: 'integer',
    env: 'MAX_SPAN_DURATION_MS',
    default: 5 * 60 * 1000,
    min: 1,
    defaultText: '5 min',
    doc: 'a response idle this long (no bytes: a body the app never reads, a dead stream) ends its span as abandoned; streams that keep sending stay open',
  },
  requestHook: {
    kind: 'function',
    defaultText: 'none',
    doc: '`(span, info)`: called when an A2A span starts; a throwing hook is caught',
  },
  responseHook: {
    kind: 'function',
    defaultText: 'none',
    doc: '`(span, info)`: called before an A2A span ends; a throwing hook is caught',
  },
  enabled: {
    kind: 'boolean',
    env: 'ENABLED',
    default: true,
    defaultText: '`true`',
    doc: 'false: the instrumentation makes no span and sees no request',
  },
} as const satisfies Record<string, OptionSpec>;

/** An option's name (config.ts checks these are exactly A2AInstrumentationConfig's keys). */
export type OptionName = keyof typeof OPTIONS;

/** What is not an option's value. */
export const INVALID = Symbol('invalid');

/** A user's value of an option, checked and normalised; INVALID when it is not acceptable. */
export function acceptOption(spec: OptionSpec, value: unknown): unknown {
  switch (spec.kind) {
    case 'patterns':
      return Array.isArray(value) &&
        value.every((p) => (typeof p === 'string' && p.length > 0) || p instanceof RegExp)
        ? value
        : INVALID;
    case 'paths':
      return Array.isArray(value) && value.every((p) => typeof p === 'string' && p.length > 0)
        ? value
        : INVALID;
    case 'urls':
      if (
        !Array.isArray(value) ||
        !value.every((p) => typeof p === 'string' || p instanceof RegExp)
      )
        return INVALID;
      // A /g or /y RegExp keeps state between test() calls (it would ignore every other call):
      // a stateless copy.
      return value.map((p: string | RegExp) =>
        p instanceof RegExp && (p.global || p.sticky)
          ? new RegExp(p.source, p.flags.replace(/[gy]/g, ''))
          : p,
      );
    case 'integer':
      return intAtLeast(value, spec.min ?? 0) ?? INVALID;
    case 'boolean':
      return typeof value === 'boolean' ? value : INVALID;
    case 'mode':
      return value === 'observe' || value === 'enforce' ? value : INVALID;
    case 'function':
      return typeof value === 'function' ? value : INVALID;
  }
}

/** An option's value from its environment variable's text; INVALID when it cannot be one. */
export function optionFromEnv(spec: OptionSpec, text: string): unknown {
  switch (spec.kind) {
    case 'patterns':
    case 'paths':
    case 'urls':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    case 'integer': {
      const n = Number(text);
      return /^\d+$/.test(text) && Number.isSafeInteger(n) ? n : INVALID;
    }
    case 'boolean': {
      const v = text.toLowerCase();
      return v === 'true' || v === 'false' ? v === 'true' : INVALID;
    }
    case 'mode': {
      const v = text.toLowerCase();
      return v === 'observe' || v === 'enforce' ? v : INVALID;
    }
    case 'function':
      return INVALID;
  }
}

/** What an environment variable of this kind must hold (for the warning). */
export function envExpectation(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'integer':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'mode':
      return 'observe or enforce';
    default:
      return 'a comma-separated list';
  }
}

export const README_TABLE_START =
  '<!-- options table: generated by `npm run docs:options`; edit src/options.ts -->';
export const README_TABLE_END = '<!-- end of options table -->';

/** The README's configuration table. */
export function optionsMarkdownTable(): string {
  const rows = [`| option | env (\`${ENV_PREFIX}…\`) | default | meaning |`, '|---|---|---|---|'];
  for (const [name, spec] of Object.entries(OPTIONS) as Array<[OptionName, OptionSpec]>) {
    const list = spec.kind === 'patterns' || spec.kind === 'paths' || spec.kind === 'urls';
    const env = spec.env === undefined ? '—' : `\`${spec.env}\`${list ? ' (comma-separated)' : ''}`;
    rows.push(`| \`${name}\` | ${env} | ${spec.defaultText} | ${spec.doc} |`);
  }
  return rows.join('\n') + '\n';
}
