/**
 * What one A2A implementation does differently from the spec, as data: how it says that a
 * requested skill (or the tool behind it) does not exist, how it frames stream events.
 * (Where cards are is structural and lives in classify.ts: every implementation seen keeps
 * `agent` or `card` in the card path's last segment.) Adding the next framework is one file in this
 * folder, listed in `index.ts`, plus its recorded fixtures under `test/fixtures/<implementation>/`.
 *
 * Pure data: no OpenTelemetry, no I/O.
 */

/**
 * A phrasing that says the REQUESTED skill is missing. `SKILL` stands for the requested id
 * (escaped).
 */
export interface MissingSkillPhrase {
  /** Reported as `a2a.drift.pattern` (never the matched text). */
  label: string;
  /**
   * A regular expression source, case-insensitive, in which `SKILL` is replaced by the escaped
   * skill id.
   */
  template: string;
}

/**
 * A metadata entry by which an implementation marks a part as intermediate work (a tool call or
 * result, a thought, a code step) rather than the skill's answer: `metadata[key]` equal to one of
 * `values`, on a part (or artifact) of one of `kinds`. A marked part of another kind is output
 * all the same (an image an agent returns is its answer, whatever the metadata says).
 */
export interface IntermediateMarker {
  key: string;
  values: readonly (string | boolean)[];
  kinds: readonly ('text' | 'data')[];
}

/**
 * How an implementation derives a card's skill ids from the tools behind them, so a text that
 * names the tool names the skill: `agentPrefix` = the id is `<card name><separator><tool>`.
 */
export interface SkillIdConvention {
  agentPrefix: { separator: string };
}

/**
 * The text an implementation's error ends with when a binding carries only that text: the A2A
 * error it is, as the 1.0 `ErrorInfo` reason (`INVALID_PARAMS`, `CONTENT_TYPE_NOT_SUPPORTED`).
 * Matched case-sensitively, as the whole text or after `": "` (Go's `fmt.Errorf("...: %w", err)`).
 */
export interface ErrorSentinel {
  text: string;
  reason: string;
}

export interface Dialect {
  /** The implementation, e.g. `mastra`. */
  name: string;
  missingSkill?: readonly MissingSkillPhrase[];
  /** The metadata marks it puts on parts that are not the skill's answer. */
  intermediateParts?: readonly IntermediateMarker[];
  /** How it derives skill ids from tool names. */
  skillIdFromTool?: SkillIdConvention;
  /** Characters written before the JSON of every SSE `data:` (dropped before parsing). */
  sseDataPrefix?: string;
  /** Its error texts that name an A2A error where the status code does not (gRPC details). */
  errorSentinels?: readonly ErrorSentinel[];
}
