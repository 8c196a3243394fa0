/**
 * An Agent Card response, as the card fetch's span sees it: recorded in the registry (decoded,
 * fingerprinted, with its freshness) and described by span attributes (cardResponseAttributes),
 * or why it could not be judged; a card fetched again with another fingerprint under the same version is a
 * `card_changed` drift.
 */
import type { Attributes } from '@opentelemetry/api';
import { logger } from '../diag-logger';
import { decodeCard, isAgentCard, notACardReason } from '../core/card';
import { diffCards } from '../core/card-diff';
import { skillFingerprintBounded } from '../core/fingerprint';
import { judgeCardChange, type DriftEvent } from '../core/judge';
import { cardProtocolVersion } from '../core/protocol/versions';
import { sharedState } from './shared-state';
import { cap, cardResponseAttributes, type Freshness } from './span-attributes';

export interface CardOutcome {
  attributes?: Attributes;
  unjudged?: string;
  drift?: DriftEvent;
}

/**
 * `value`, the JSON answer of a card fetch from `cardUrl` (normalised), with the response's
 * status and freshness; `sniffed`: recognised by its content at a path that only hinted at a card
 * (it then speaks for its own origin only); `extended`: an authenticated extended card, from a
 * REST extended-card path or the result of a JSON-RPC GetExtendedAgentCard (`cardUrl` is then
 * the endpoint's).
 */
export function cardResponse(
  value: unknown,
  cardUrl: string,
  statusCode: number | undefined,
  fresh: Freshness | undefined,
  sniffed: boolean,
  extended?: 'rest' | 'jsonrpc',
  credentials = false,
): CardOutcome {
  if (statusCode !== undefined && (statusCode < 200 || statusCode >= 300))
    return { unjudged: `card fetch answered ${statusCode}` };
  const card = decodeCard(value);
  if (!isAgentCard(value)) {
    return {
      unjudged: `not an Agent Card (${cap(card.problem ?? notACardReason(value))})`,
    };
  }
  const fp = skillFingerprintBounded(value);
  const state = sharedState();
  if (fp.fingerprint === undefined) {
    // A card too complex to fingerprint within the work budget: nothing is judged against
    // it, nor against an earlier card of that URL (it may no longer be what the peer serves).
    state.cards.evict(cardUrl);
    return { unjudged: cap(`could not fingerprint the Agent Card (${fp.problem})`) };
  }
  const fingerprint = fp.fingerprint;
  const update = state.cards.put(cardUrl, card, fingerprint, Date.now(), {
    sameOriginOnly: sniffed,
    etag: fresh?.etag,
    lastModified: fresh?.lastModified,
    extended,
    credentials,
  });
  logger.debug(
    `Agent Card recognised at ${cardUrl}: ${card.skills.length} skills, fingerprint ${fingerprint.slice(0, 12)}…`,
  );
  const attributes = cardResponseAttributes({
    update,
    fresh,
    skillCount: card.skills.length,
    protocolVersion: cardProtocolVersion(
      card.protocolVersion,
      card.endpoints.map((e) => e.protocolVersion),
    ),
  });
  const drift =
    update.changed && update.previousFingerprint !== undefined
      ? judgeCardChange(
          cardUrl,
          card.name,
          card.version,
          update.previousFingerprint,
          fingerprint,
          diffCards(update.previousCard, card),
        )
      : undefined;
  return { attributes, drift };
}
