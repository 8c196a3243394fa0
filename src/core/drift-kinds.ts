/** The drift kinds of the telemetry contract (`a2a.drift.kind`). */
export const DRIFT_KINDS = [
  'unknown_skill',
  'unsupported_mode',
  'invalid_params',
  'skill_not_in_card',
  'output_mode_mismatch',
  'card_changed',
] as const;

export type DriftKind = (typeof DRIFT_KINDS)[number];
