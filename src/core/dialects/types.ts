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

export interface Dialect {
  /** The implementation, e.g. `mastra`. */
  name: string;
  missingSkill?: readonly MissingSkillPhrase[];
  /** Characters written before the JSON of every SSE `data:` (dropped before parsing). */
  sseDataPrefix?: string;
}
