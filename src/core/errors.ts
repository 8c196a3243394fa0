/**
 * The field report's error classes. They cross package copies by `name` (not `instanceof`):
 * check `err.name === 'StaleAgentCardError'` when several copies may be loaded.
 */
import type { DriftKind } from './drift-kinds';

export interface DriftErrorDetails {
  kind: DriftKind;
  skillId?: string;
  taskId?: string;
  cardUrl?: string;
  fingerprint?: string;
}

abstract class AgentCardDriftError extends Error {
  readonly kind: DriftKind;
  readonly skillId?: string;
  readonly taskId?: string;
  readonly cardUrl?: string;
  readonly fingerprint?: string;

  constructor(message: string, details: DriftErrorDetails) {
    super(message);
    this.kind = details.kind;
    this.skillId = details.skillId;
    this.taskId = details.taskId;
    this.cardUrl = details.cardUrl;
    this.fingerprint = details.fingerprint;
  }
}

/**
 * A negotiated task failed (or was refused) in a way that says the cached Agent Card's skills[] is
 * out of date.
 */
export class StaleAgentCardError extends AgentCardDriftError {
  override readonly name = 'StaleAgentCardError';
}

/**
 * A task succeeded but returned an artifact whose media type the card used at negotiation did not
 * advertise.
 */
export class ArtifactSchemaDriftError extends AgentCardDriftError {
  override readonly name = 'ArtifactSchemaDriftError';
}
