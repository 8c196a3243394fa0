/**
 * The SERVER side of `@reactive-agents/a2a@0.9.0` as a test peer, in its own process:
 * `createA2AHttpServer(port, executor)` on `createA2AServer(generateAgentCard(...))`,
 * exactly the package's code, run on Node through ./bun-serve-shim.mjs.
 *
 *   node ra-server.mjs '{"port":0,"name":"ra-peer","version":"1.0","skills":[...],"tapFile":"/tmp/x.jsonl"}'
 *
 * Prints one line `{"port":N}` when listening. Routes (the package's): GET /.well-known/agent.json,
 * GET /agent/card, POST <any path> JSON-RPC (message/send, tasks/get, tasks/cancel, agent/card,
 * message/stream answered as one text/event-stream body).
 *
 * The package's task handler hands the executor only (inputText, taskId): it never sees a skill
 * id. This executor answers like the first skill of the card it was started with (markdown if
 * that skill's outputModes say text/markdown), or fails when the input text contains "fail".
 */
import './bun-serve-shim.mjs';
import net from 'node:net';
import { appendFileSync } from 'node:fs';
import { Effect, Layer } from 'effect';
import {
  createA2AHttpServer,
  createA2AServer,
  generateAgentCard,
  A2AHttpServer,
} from '@reactive-agents/a2a';
import { startWireTap } from './wire-tap.mjs';

const cfg = JSON.parse(process.argv[2] ?? '{}');
if (cfg.tapFile) startWireTap((x) => appendFileSync(cfg.tapFile, JSON.stringify(x) + '\n'));

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

const port = cfg.port && cfg.port > 0 ? cfg.port : await freePort();
const skills = cfg.skills ?? [];
const card = generateAgentCard({
  name: cfg.name ?? 'ra-peer',
  description: 'reactive-agents A2A server (test peer)',
  version: cfg.version ?? '1.0',
  url: `http://127.0.0.1:${port}/`,
  skills,
});

const first = skills[0];
const executor = (inputText, taskId) =>
  inputText.includes('fail')
    ? Effect.fail(new Error(`executor failed for task ${taskId}`))
    : Effect.succeed(
        first && (first.outputModes ?? []).includes('text/markdown')
          ? `## ${first.id}\n\n- result from **${first.id}**\n`
          : `result from ${first?.id ?? 'agent'}`,
      );

const layer = createA2AHttpServer(port, executor).pipe(Layer.provide(createA2AServer(card)));
await Effect.runPromise(
  Effect.gen(function* () {
    const http = yield* A2AHttpServer;
    yield* http.start();
  }).pipe(Effect.provide(layer)),
);
const bound = await globalThis.__bunListening;
process.stdout.write(JSON.stringify({ port: bound }) + '\n');
process.on('SIGTERM', () => process.exit(0));
