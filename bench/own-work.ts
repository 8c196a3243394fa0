/**
 * Own work per exchange, without the network: this package vs instrumentation-undici on
 * the very same undici diagnostics-channel messages.
 *
 *   node --import tsx bench/own-work.ts            (BENCH_DIST=dir of the built package, default ./dist)
 *
 * Each configuration runs in its own process (instrumentations patch globals), with the
 * bench's SDK set-up (NodeTracerProvider + BatchSpanProcessor, exporter that drops):
 *   sdk     no instrumentation (the floor: what the fake exchange itself costs)
 *   undici  + @opentelemetry/instrumentation-undici
 *   a2a     + this package
 * The "exchange" is a stand-in for Node 20's fetch: `globalThis.fetch` is replaced, BEFORE
 * the instrumentations load, by a function that publishes `undici:request:create` with a
 * request object shaped like undici 6's (flat header array, own `addHeader`, an `onData`
 * the wire tap wraps), then `:headers`, one body chunk and `:trailers`, and resolves. Phases:
 *   send    a 1.0 JSON-RPC SendMessage and its COMPLETED task (the bench peer's answer)
 *   stream  a SendStreamingMessage answered by 100 SSE events (task, WORKING, 97 artifact
 *           updates, COMPLETED), one chunk per event
 *   plain   a non-A2A JSON POST
 *   paced   (only when asked: OWN_PHASES=paced or OWN_SOLO=paced:<n>) the stream's 100 events,
 *           each chunk in its own turn of the event loop ~1 ms apart, as a language model's
 *           words arrive
 *   turns   (only when asked) the same 100 chunks each in its own turn with no wait between
 *           them (setImmediate): the per-chunk cost of `paced` without its idle time, so its
 *           figures are far less noisy
 * Each exchange is followed by one turn of the event loop (a setImmediate), so work deferred
 * to the next turn is counted in it, as it is in the sdk floor.
 * Rounds are interleaved (every configuration runs its batch before the next round), and
 * each configuration's figure is the median over rounds of its median per-call time.
 * Own work = configuration − sdk. Prints figures; asserts nothing.
 *
 * Operations per chunk, one process, after the warm-up:
 *   OWN_WORK_CHILD=a2a OWN_PHASES=turns OWN_COUNT=turns:200 node --import tsx bench/own-work.ts
 *   (OWN_WORK_CHILD=a2a-base with OWN_BASE_DIST for another build, =sdk for the harness alone)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { FakeUndiciRequest, publishExchange, publishExchangePaced } from './fake-undici';
import path from 'node:path';

type Config = 'sdk' | 'undici' | 'a2a' | 'a2a-base';
type Phase = 'send' | 'stream' | 'plain' | 'paced' | 'turns';
/** OWN_BASE_DIST: another build of this package, run as `a2a-base` (before/after figures). */
const BASE_DIST = process.env.OWN_BASE_DIST;
const CONFIGS: Config[] = BASE_DIST
  ? ['sdk', 'undici', 'a2a', 'a2a-base']
  : ['sdk', 'undici', 'a2a'];
const PHASES: Phase[] = (process.env.OWN_PHASES ?? 'send,stream,plain').split(',') as Phase[];
const ROUNDS = Number(process.env.OWN_ROUNDS ?? 9);
const CALLS: Record<Phase, number> = {
  send: 2000,
  stream: 100,
  plain: 4000,
  paced: 10,
  turns: 100,
};

const ORIGIN = 'http://127.0.0.1:40404';

// ---------------------------------------------------------------------------- the child

const SEND_BODY =
  '{"jsonrpc":"2.0","method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER",' +
  '"parts":[{"text":"Please summarize this text.","mediaType":"text/plain"}],"metadata":{"skillId":"summarize"}},' +
  '"metadata":{"skillId":"summarize"}},"id":1}';
const SEND_ANSWER = Buffer.from(
  '{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"5b1c2a3e-07e6-4d18-9cba-7d2fc56ee790","contextId":"c-1",' +
    '"status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-12-02T11:19:58.378Z"},' +
    '"artifacts":[{"artifactId":"a-1","parts":[{"text":"A short summary.","mediaType":"text/markdown"}]}],' +
    '"history":[{"messageId":"m-1","contextId":"c-1","taskId":"5b1c2a3e-07e6-4d18-9cba-7d2fc56ee790","role":"ROLE_USER",' +
    '"parts":[{"text":"Please summarize this text.","mediaType":"text/plain"}],"metadata":{"skillId":"summarize"}}],' +
    '"metadata":{"skillId":"summarize"}}}}',
);
const STREAM_BODY = SEND_BODY.replace('"SendMessage"', '"SendStreamingMessage"');
const TASK_ID = '5b1c2a3e-07e6-4d18-9cba-7d2fc56ee790';
function sse(result: object): Buffer {
  return Buffer.from(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n\n`);
}
const STREAM_EVENTS: Buffer[] = [
  sse({ task: { id: TASK_ID, contextId: 'c-1', status: { state: 'TASK_STATE_SUBMITTED' } } }),
  sse({
    statusUpdate: { taskId: TASK_ID, contextId: 'c-1', status: { state: 'TASK_STATE_WORKING' } },
  }),
  ...Array.from({ length: 97 }, (_, i) =>
    sse({
      artifactUpdate: {
        taskId: TASK_ID,
        contextId: 'c-1',
        append: i > 0,
        artifact: { artifactId: 'a-1', parts: [{ text: `word${i} `, mediaType: 'text/markdown' }] },
      },
    }),
  ),
  sse({
    statusUpdate: { taskId: TASK_ID, contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } },
  }),
];
const PLAIN_BODY = '{"query":"weather","city":"Paris","units":"metric"}';
const PLAIN_ANSWER = Buffer.from('{"ok":true,"temperature":21,"city":"Paris"}');

function fakeFetch(
  url: string,
  body: string,
  requestHeaders: string[],
  contentType: string,
  chunks: readonly Buffer[],
  paced: false | number = false,
): Promise<unknown> {
  const u = new URL(url);
  const request = new FakeUndiciRequest('POST', u.origin, u.pathname, undefined, [
    ...requestHeaders,
  ]);
  void body;
  const headers = [
    Buffer.from('x-powered-by'),
    Buffer.from('Express'),
    Buffer.from('content-type'),
    Buffer.from(contentType),
    Buffer.from('content-length'),
    Buffer.from('512'),
    Buffer.from('etag'),
    Buffer.from('W/"200-abc"'),
    Buffer.from('date'),
    Buffer.from('Thu, 03 Dec 2026 10:00:00 GMT'),
    Buffer.from('connection'),
    Buffer.from('keep-alive'),
    Buffer.from('keep-alive'),
    Buffer.from('timeout=5'),
  ];
  if (paced !== false) return publishExchangePaced(request, 200, headers, chunks, paced);
  publishExchange(request, 200, headers, chunks);
  return Promise.resolve(undefined);
}

async function child(config: Config): Promise<void> {
  const distDir = process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist');
  const REQ_HEADERS = ['content-type', 'application/json', 'accept', 'application/json'];
  globalThis.fetch = ((input: string, init: { body: string; method: string }) => {
    const phase = input.endsWith('/plain')
      ? 'plain'
      : input.endsWith('/stream')
        ? 'stream'
        : input.endsWith('/paced')
          ? 'paced'
          : input.endsWith('/turns')
            ? 'turns'
            : 'send';
    if (phase === 'plain')
      return fakeFetch(input, init.body, REQ_HEADERS, 'application/json', [PLAIN_ANSWER]);
    if (phase === 'stream' || phase === 'paced' || phase === 'turns')
      return fakeFetch(
        input,
        init.body,
        REQ_HEADERS,
        'text/event-stream',
        STREAM_EVENTS,
        phase === 'paced' ? 1 : phase === 'turns' ? 0 : false,
      );
    return fakeFetch(input, init.body, REQ_HEADERS, 'application/json', [SEND_ANSWER]);
  }) as unknown as typeof fetch;

  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  let exported = 0;
  const exporter = {
    export: (s: unknown[], done: (r: { code: number }) => void) => {
      exported += s.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter as never)],
  });
  provider.register();
  if (config === 'undici') {
    const { UndiciInstrumentation } =
      require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
    const i = new UndiciInstrumentation();
    i.setTracerProvider(provider);
    i.enable();
  } else if (config === 'a2a' || config === 'a2a-base') {
    const dir = config === 'a2a-base' && BASE_DIST ? BASE_DIST : distDir;
    const pkg = require(`${dir}/cjs/index.js`) as typeof import('../src/index');
    const i = new pkg.A2AInstrumentation();
    i.setTracerProvider(provider);
    i.enable();
  }
  /* eslint-enable @typescript-eslint/no-require-imports */

  const urls: Record<Phase, string> = {
    send: `${ORIGIN}/a2a/jsonrpc`,
    stream: `${ORIGIN}/a2a/stream`,
    plain: `${ORIGIN}/plain`,
    paced: `${ORIGIN}/a2a/paced`,
    turns: `${ORIGIN}/a2a/turns`,
  };
  const bodies: Record<Phase, string> = {
    send: SEND_BODY,
    stream: STREAM_BODY,
    plain: PLAIN_BODY,
    paced: STREAM_BODY,
    turns: STREAM_BODY,
  };
  const run = async (phase: Phase, n: number): Promise<number[]> => {
    const times: number[] = [];
    const init = {
      method: 'POST',
      body: bodies[phase],
      headers: { 'content-type': 'application/json' },
    };
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      await fetch(urls[phase], init as RequestInit);
      // One turn of the event loop per exchange, as between two network round trips: work
      // deferred past the app is counted here.
      await new Promise((r) => setImmediate(r));
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    return times;
  };
  for (const phase of PHASES) await run(phase, CALLS[phase]); // warm-up
  await provider.forceFlush();
  if (process.env.OWN_DEBUG) console.error(`${config}: ${exported} spans after warm-up`);
  const count = process.env.OWN_COUNT; // `phase:calls`: count operations per chunk, print, exit
  if (count) {
    const [phase, n] = count.split(':');
    const counts = await countOperations(() => run(phase as Phase, Number(n)));
    const chunks = Number(n) * (phase === 'send' || phase === 'plain' ? 1 : STREAM_EVENTS.length);
    const per: Record<string, number> = {};
    for (const [k, v] of Object.entries(counts)) per[k] = Math.round((v / chunks) * 1000) / 1000;
    process.stdout.write(`${JSON.stringify({ config, phase, chunks, perChunk: per })}\n`);
    process.exit(0);
  }
  const solo = process.env.OWN_SOLO; // `phase:calls`: run once and exit (for --cpu-prof)
  if (solo) {
    const [phase, n] = solo.split(':');
    await run(phase as Phase, Number(n));
    process.exit(0);
  }
  process.on('message', (m: { phase: Phase }) => {
    const cpu0 = process.cpuUsage();
    void run(m.phase, CALLS[m.phase]).then((t) => {
      const cpu = process.cpuUsage(cpu0);
      t.sort((a, b) => a - b);
      process.send?.({
        phase: m.phase,
        medianUs: t[t.length >> 1],
        // process CPU (every thread: the GC's helpers too) per call, over the batch
        cpuUs: (cpu.user + cpu.system) / t.length,
      });
    });
  });
  process.send?.({ ready: true });
}

/**
 * OWN_COUNT: operations counted while `body` runs:
 * setImmediate and setTimeout calls, StringDecoder writes, JSON.parse calls and regular
 * expression executions (RegExp.prototype.exec, which `test`, `match` and `replace` call once
 * it is replaced), over the whole process (the harness's own: one setImmediate per chunk in
 * phase turns, one per exchange, are in every configuration alike).
 */
async function countOperations(body: () => Promise<unknown>): Promise<Record<string, number>> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { StringDecoder } = require('node:string_decoder') as typeof import('node:string_decoder');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const c = { setImmediate: 0, setTimeout: 0, decoderWrite: 0, jsonParse: 0, regexExec: 0 };
  const g = globalThis as unknown as Record<string, (...a: unknown[]) => unknown>;
  const origImmediate = g.setImmediate;
  const origTimeout = g.setTimeout;
  const origWrite = StringDecoder.prototype.write;
  const origParse = JSON.parse;
  const origExec = RegExp.prototype.exec;
  g.setImmediate = function (this: unknown, ...a: unknown[]) {
    c.setImmediate++;
    return origImmediate.apply(this, a);
  };
  g.setTimeout = function (this: unknown, ...a: unknown[]) {
    c.setTimeout++;
    return origTimeout.apply(this, a);
  };
  StringDecoder.prototype.write = function (this: InstanceType<typeof StringDecoder>, b) {
    c.decoderWrite++;
    return origWrite.call(this, b);
  };
  JSON.parse = function (text: string, reviver?: (k: string, v: unknown) => unknown) {
    c.jsonParse++;
    return origParse(text, reviver);
  };
  RegExp.prototype.exec = function (this: RegExp, str: string) {
    c.regexExec++;
    return origExec.call(this, str);
  };
  try {
    await body();
  } finally {
    g.setImmediate = origImmediate;
    g.setTimeout = origTimeout;
    StringDecoder.prototype.write = origWrite;
    JSON.parse = origParse;
    RegExp.prototype.exec = origExec;
  }
  return c;
}

// ---------------------------------------------------------------------------- the parent

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

let done = false;

async function parent(): Promise<void> {
  const kids = new Map<Config, ChildProcess>();
  await Promise.all(
    CONFIGS.map(
      (c) =>
        new Promise<void>((resolve) => {
          const k = fork(__filename, [], {
            env: { ...process.env, OWN_WORK_CHILD: c },
            execArgv: process.execArgv,
            // OWN_NODE: the node binary of the measured processes (npm run bench:nodes)
            execPath: process.env.OWN_NODE ?? process.execPath,
          });
          k.once('message', () => resolve());
          k.once('exit', (code) => {
            if (!done) {
              console.error(`own-work: the ${c} process exited (${code})`);
              process.exit(1);
            }
          });
          kids.set(c, k);
        }),
    ),
  );
  const ask = (c: Config, phase: Phase) =>
    new Promise<{ medianUs: number; cpuUs: number }>((resolve) => {
      const k = kids.get(c)!;
      k.once('message', (m: { medianUs: number; cpuUs: number }) => resolve(m));
      k.send({ phase });
    });
  const results: Record<string, number[]> = {};
  const cpuResults: Record<string, number[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const phase of PHASES) {
      const order = CONFIGS.map((_, i) => CONFIGS[(i + r) % CONFIGS.length]);
      for (const c of order) {
        const m = await ask(c, phase);
        (results[`${phase}/${c}`] ??= []).push(m.medianUs);
        (cpuResults[`${phase}/${c}`] ??= []).push(m.cpuUs);
      }
    }
  }
  done = true;
  for (const k of kids.values()) k.kill();
  const summary: OwnWorkResult = { node: process.version, rounds: ROUNDS, phases: {} };
  for (const phase of PHASES) {
    summary.phases[phase] = {
      ...ownFigures(results, phase),
      cpu: ownFigures(cpuResults, phase),
    };
  }
  if (process.send) {
    process.send({ type: 'result', result: summary }, () => process.exit(0));
    return;
  }
  console.log(formatOwnWork(summary));
}

/** Per call, median over rounds; own = configuration − sdk, ratio = this ÷ undici per round. */
export interface OwnFigures {
  sdkFloorUs: number;
  undiciOwnUs: number;
  a2aOwnUs: number;
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  a2aBaseOwnUs?: number;
}

/** A phase's figures from one measure's per-round values (keyed `${phase}/${config}`). */
function ownFigures(byKey: Record<string, number[]>, phase: Phase): OwnFigures {
  const sdk = byKey[`${phase}/sdk`];
  const own = (c: Config) => byKey[`${phase}/${c}`].map((v, i) => v - sdk[i]);
  const u = own('undici');
  const a = own('a2a');
  const ratios = a.map((v, i) => v / u[i]);
  return {
    sdkFloorUs: median(sdk),
    undiciOwnUs: median(u),
    a2aOwnUs: median(a),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    ...(BASE_DIST ? { a2aBaseOwnUs: median(own('a2a-base')) } : {}),
  };
}

export interface OwnWorkResult {
  node: string;
  rounds: number;
  /** Median per-call time; `cpu`: process CPU per call over each batch (GC included). */
  phases: Partial<Record<Phase, OwnFigures & { cpu?: OwnFigures }>>;
}

export function formatOwnWork(r: OwnWorkResult): string {
  const base = Object.values(r.phases).some((p) => p?.a2aBaseOwnUs !== undefined);
  const table = (
    what: string,
    pick: (p: OwnFigures & { cpu?: OwnFigures }) => OwnFigures | undefined,
  ): string[] => {
    const rows = [
      `| phase | sdk floor ${what} | instrumentation-undici own ${what} | this package own ${what} | this ÷ undici [min–max] |${base ? ` OWN_BASE_DIST own ${what} |` : ''}`,
      `|:--|--:|--:|--:|--:|${base ? '--:|' : ''}`,
    ];
    for (const [phase, p] of Object.entries(r.phases)) {
      const f = p && pick(p);
      if (!f) continue;
      rows.push(
        `| ${phase} | ${f.sdkFloorUs.toFixed(1)} | ${f.undiciOwnUs.toFixed(1)} | ${f.a2aOwnUs.toFixed(1)} | ${f.ratio.toFixed(3)} [${f.ratioMin.toFixed(3)}–${f.ratioMax.toFixed(3)}] |${base ? ` ${f.a2aBaseOwnUs?.toFixed(1) ?? ''} |` : ''}`,
      );
    }
    return rows;
  };
  return [
    `Own work per exchange without the network, Node ${r.node}, ${r.rounds} interleaved rounds (µs per exchange, median over rounds of each process's median; own = configuration − sdk):`,
    '',
    ...table('µs', (p) => p),
    '',
    'The same exchanges by process CPU per call over each batch (every thread, so garbage collection is included; the median per call above leaves out the calls a collection interrupts):',
    '',
    ...table('CPU µs', (p) => p.cpu),
  ].join('\n');
}

const role = process.env.OWN_WORK_CHILD as Config | undefined;
if (role) void child(role);
else if (require.main === module) void parent();
