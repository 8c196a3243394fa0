/**
 * What one A2A implementation does differently from the spec, as data: where it serves or
 * fetches its Agent Card, how it says that a requested skill (or the tool behind it) does
 * not exist. Adding the next framework is one file in this folder, listed in `index.ts`,
 * plus its recorded fixtures under `test/fixtures/<implementation>/`.
 *
 * Pure data: no OpenTelemetry, no I/O.
 */

/** A phrasing that says the REQUESTED skill is missing. `SKILL` stands for the requested id (escaped). */
export interface MissingSkillPhrase {
  /** Reported as `a2a.drift.pattern` (never the matched text). */
  label: string;
  /** A regular expression source, case-insensitive, in which `SKILL` is replaced by the escaped skill id. */
  template: string;
}

/** A path rule for Agent Card fetches. */
export interface CardPathRule {
  /** The path's last segments, lower case, e.g. `agent/card`. */
  suffix: string;
  /** True: a GET there is an Agent Card fetch. False: only when the JSON answer is an Agent Card. */
  certain: boolean;
}

export interface Dialect {
  /** The implementation, e.g. `mastra`. */
  name: string;
  cardPaths?: readonly CardPathRule[];
  missingSkill?: readonly MissingSkillPhrase[];
}
