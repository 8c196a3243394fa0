/**
 * Per-call cost of the gRPC binding over a bare gRPC call: the real @a2a-js/sdk 1.3 client
 * (GrpcTransportFactory) against its gRPC server in this process, SendMessage (unary) and
 * SendStreamingMessage. Interleaved rounds of: `bare` (the instrumentation disabled: our
 * interceptor is not in the call at all, only the client class's option copy), `a2a` (enabled,
 * spans to an in-memory exporter), and `bare2` (disabled again: the control, A/A noise).
 * Prints the median µs per call of each and the ratios. Figures only, no assertions.
 *
 *   node --import tsx bench/grpc.ts [rounds=7] [calls=300]
 */
import { setupOtel } from '../test/helpers/otel';

const ROUNDS = Number(process.argv[2] ?? 7);
const CALLS = Number(process.argv[3] ?? 300);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const h = setupOtel();
  const peers = await import('../test/peers/sdk-peer.js');
  const helpers = await import('../test/peers/sdk-client.js');
  const sdkGrpc = await import('@a2a-js/sdk/client/grpc');
  const peer = await peers.startSdkPeer({
    name: 'bench',
    grpc: true,
    behaviour: { settleDelayMs: 0 },
  });
  const card = await (await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json();
  const t = await new sdkGrpc.GrpcTransportFactory().create(peer.grpcTarget!, card as never);
  const opts = { serviceParameters: { 'A2A-Version': '1.0' } };
  const unary = async () => void (await t.sendMessage(helpers.sendRequest('summarize-v2'), opts));
  const stream = async () => {
    for await (const _ of t.sendMessageStream(helpers.sendRequest('summarize-v2'), opts)) void _;
  };
  const per: Record<string, Record<string, number[]>> = {};
  for (const [name, fn] of [
    ['SendMessage', unary],
    ['SendStreamingMessage', stream],
  ] as const) {
    for (let i = 0; i < 50; i++) await fn(); // warm-up
    per[name] = { bare: [], a2a: [], bare2: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const mode of ['bare', 'a2a', 'bare2'] as const) {
        if (mode === 'a2a') h.instrumentation.enable();
        else h.instrumentation.disable();
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < CALLS; i++) await fn();
        per[name][mode].push(Number(process.hrtime.bigint() - t0) / 1000 / CALLS);
        h.exporter.reset();
      }
    }
  }
  console.log(`node ${process.version}, ${ROUNDS} rounds × ${CALLS} calls, median µs per call`);
  for (const [name, m] of Object.entries(per)) {
    const ratios = m.a2a.map((v, i) => v / m.bare[i]);
    const control = m.bare2.map((v, i) => v / m.bare[i]);
    console.log(
      `${name}: bare ${median(m.bare).toFixed(1)} µs, a2a ${median(m.a2a).toFixed(1)} µs ` +
        `(+${(median(m.a2a) - median(m.bare)).toFixed(1)} µs), ratio ${median(ratios).toFixed(3)} ` +
        `[${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}], control bare2/bare ${median(control).toFixed(3)}`,
    );
  }
  await peer.close();
  await h.shutdown();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
