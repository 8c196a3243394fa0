/**
 * The `@a2a-js/sdk` express app (test/peers/sdk-peer.ts: the SDK's `agentCardHandler`,
 * `jsonRpcHandler` and `restHandler` on express) as a process of its own, for the conformance
 * table's agent's side: run bare or under the register entry, serving summarize-v2 and
 * translate-v1. `PORT` (0: any). Prints `{"port":N}` once listening; SIGTERM closes it.
 */
import { DEFAULT_SKILL, TRANSLATE_SKILL, startSdkPeer } from '../../peers/sdk-peer';

void startSdkPeer({
  port: Number(process.env.PORT ?? 0) || undefined,
  skills: [DEFAULT_SKILL, TRANSLATE_SKILL],
  // an agent works a little before it answers (a model call takes seconds)
  behaviour: { settleDelayMs: [20, 20] },
}).then((peer) => {
  process.stdout.write(`${JSON.stringify({ port: peer.port })}\n`);
  process.once('SIGTERM', () => void peer.close().then(() => process.exit(0)));
});
