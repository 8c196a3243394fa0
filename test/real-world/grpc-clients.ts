/**
 * The `@a2a-js/sdk` gRPC clients the live gRPC suites drive (the Python `a2a-sdk` and Go `a2a-go`
 * servers), and the check of a gRPC span's RPC attributes and negotiated card, written once. The
 * SDK's gRPC modules are loaded on first use, after the instrumentation is enabled: the SDK makes
 * its gRPC client classes as its gRPC module loads, from the app's @grpc/grpc-js.
 */
import assert from 'node:assert/strict';
import { skillFingerprint } from '../../src/index';
import type { Json } from './lib';

type SdkClientModule = typeof import('@a2a-js/sdk/client');
type SdkGrpcModule = typeof import('@a2a-js/sdk/client/grpc');
type SdkLegacyGrpcModule = typeof import('@a2a-js/sdk/compat/v0_3/client/grpc');
interface GrpcClients {
  sdk: SdkClientModule;
  grpc: SdkGrpcModule;
  legacy: SdkLegacyGrpcModule;
}
let grpcClientsLoaded: Promise<GrpcClients> | undefined;

/** The SDK's client, gRPC and 0.3 gRPC modules (loaded once). */
export function grpcClients(): Promise<GrpcClients> {
  return (grpcClientsLoaded ??= (async () => ({
    sdk: await import('@a2a-js/sdk/client'),
    grpc: await import('@a2a-js/sdk/client/grpc'),
    legacy: await import('@a2a-js/sdk/compat/v0_3/client/grpc'),
  }))());
}

/**
 * The SDK's Client with gRPC and JSON-RPC transports, from the card URL (createFromUrl) or from
 * a card the app holds. `legacyCompat`: its 0.3 mode (the legacy resolver fetches and normalises
 * a 0.3 card; the transports speak 0.3).
 */
export async function grpcClient(
  from: { baseUrl: string } | { card: Json },
  opts: { legacyCompat?: boolean } = {},
) {
  const m = await grpcClients();
  const legacy = opts.legacyCompat ? { legacyCompat: { enabled: true } } : undefined;
  const factory = new m.sdk.ClientFactory(
    m.sdk.ClientFactoryOptions.createFrom(m.sdk.ClientFactoryOptions.default, {
      transports: [
        new m.grpc.GrpcTransportFactory(legacy),
        new m.sdk.JsonRpcTransportFactory(legacy),
      ],
      ...(legacy ? { cardResolver: new m.sdk.DefaultAgentCardResolver(legacy) } : {}),
    }),
  );
  return 'baseUrl' in from
    ? factory.createFromUrl(from.baseUrl)
    : factory.createFromAgentCard(structuredClone(from.card) as never);
}

/** The SDK's 0.3 gRPC transport (`a2a.v1.A2AService`) on a target. */
export async function legacyGrpc(target: string) {
  const m = await grpcClients();
  return new m.legacy.LegacyGrpcTransport({ endpoint: target });
}

export interface GrpcSpanExpected {
  service: string;
  version: string;
  port: number | undefined;
  cardUrl: string;
  card: Json;
  agentName: string;
  /** span name → `rpc.method` where they differ (0.3 `TaskSubscription` is SubscribeToTask) */
  methodOf?: Readonly<Record<string, string>>;
}

/** A gRPC span's RPC attributes and negotiated card. */
export function checkGrpcSpanAttributes(
  s: { name: string; attributes: Readonly<Record<string, unknown>> },
  e: GrpcSpanExpected,
  describeSpans: () => string,
): void {
  const a = s.attributes;
  assert.equal(a['a2a.binding'], 'grpc', describeSpans());
  assert.equal(a['rpc.system'], 'grpc');
  assert.equal(a['rpc.service'], e.service);
  assert.equal(a['rpc.method'], e.methodOf?.[s.name] ?? s.name);
  assert.equal(a['a2a.protocol.version'], e.version, describeSpans());
  assert.equal(a['server.address'], '127.0.0.1');
  assert.equal(a['server.port'], e.port);
  assert.equal(a['gen_ai.agent.name'], e.agentName);
  assert.equal(a['a2a.agent_card.fingerprint'], skillFingerprint(e.card as never));
  assert.equal(a['a2a.agent_card.url'], e.cardUrl);
}
