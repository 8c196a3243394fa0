/**
 * Protocol versions as data: the versions A2A has had, how a version string is normalised
 * (`0.3.0` → `0.3`), which family a request belongs to, and which version a card offers at
 * an endpoint. Pure and total.
 *
 * | version | JSON-RPC method names          | HTTP+JSON paths          | card
 * |
 * |---------|--------------------------------|--------------------------|----------------------------------------|
 * | 0.1     | `tasks/send`, `tasks/sendSubscribe` | —                   |
 * `/.well-known/agent.json`, no protocolVersion |
 * | 0.2     | `message/send`, `message/stream` | —                      | `agent.json`,
 * `protocolVersion` 0.2.x   |
 * | 0.3     | as 0.2, `agent/getAuthenticatedExtendedCard` | `/v1/message:send`, ... |
 * `agent-card.json`, `protocolVersion` 0.3.0, `url` + `additionalInterfaces` |
 * | 1.0     | PascalCase (`SendMessage`)      | `/message:send`, ...      |
 * `supportedInterfaces[].protocolVersion` |
 *
 * The method tables themselves live with their binding (jsonrpc.ts, http-json.ts); the
 * result shapes per version in results.ts.
 */

/**
 * A version as `major.minor`. The known ones are listed in PROTOCOL_VERSIONS; later 1.x are
 * accepted as they come.
 */
export type ProtocolVersion = `${number}.${number}`;

export const PROTOCOL_VERSIONS: readonly ProtocolVersion[] = ['0.1', '0.2', '0.3', '1.0'];

/** `0` = the 0.x line (slash-style method names), `1` = the 1.x line (PascalCase). */
export type VersionFamily = '0' | '1';

/**
 * `major.minor` from a version string (`1.0`, ` 0.3.0 `, a card's `protocolVersion`, an
 * `A2A-Version` header), else undefined. Only digits and dots are accepted.
 */
export function normaliseVersion(v: unknown): ProtocolVersion | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t.length === 0 || t.length > 16) return undefined;
  const m = /^(\d{1,3})\.(\d{1,3})(?:\.\d{1,5})?$/.exec(t);
  if (m === null) return undefined;
  return `${Number(m[1])}.${Number(m[2])}`;
}

/** Major version number of a normalised `major.minor` string. */
export function majorOf(v: string): string {
  const i = v.indexOf('.');
  return i < 0 ? v : v.slice(0, i);
}

/** The family of a version (`0.x` or later). */
function familyOf(v: string): VersionFamily {
  return majorOf(v) === '0' ? '0' : '1';
}

function compareVersions(a: string, b: string): number {
  const [a1, a2] = a.split('.').map(Number);
  const [b1, b2] = b.split('.').map(Number);
  return a1 !== b1 ? a1 - b1 : a2 - b2;
}

/**
 * The version a card speaks, for its GetAgentCard span: the highest of its top-level
 * `protocolVersion` (0.2.5+) and its interfaces' (1.0). A card that lists 1.0 interfaces speaks
 * 1.0 even with the 0.3 top-level field merged in for older clients (the Python SDK 1.x's).
 * Undefined when it says none.
 */
export function cardProtocolVersion(
  topLevel: string | undefined,
  endpointVersions: ReadonlyArray<string | undefined>,
): ProtocolVersion | undefined {
  let best: ProtocolVersion | undefined = normaliseVersion(topLevel);
  for (const raw of endpointVersions) {
    const v = normaliseVersion(raw);
    if (v !== undefined && (best === undefined || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/**
 * The version a request that did not say its own speaks, from the card: among the versions
 * the card offers at that endpoint (several when one URL serves 1.0 and 0.3, as ADK's
 * cards do), the highest one of the request's family; else the card's top-level version
 * when it is of that family.
 */
export function versionForFamily(
  family: VersionFamily,
  atEndpoint: ReadonlyArray<string | undefined>,
  topLevel: string | undefined,
): ProtocolVersion | undefined {
  let best: ProtocolVersion | undefined;
  for (const raw of atEndpoint) {
    const v = normaliseVersion(raw);
    if (
      v !== undefined &&
      familyOf(v) === family &&
      (best === undefined || compareVersions(v, best) > 0)
    )
      best = v;
  }
  if (best !== undefined) return best;
  const top = normaliseVersion(topLevel);
  return top !== undefined && familyOf(top) === family ? top : undefined;
}
