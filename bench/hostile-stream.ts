/**
 * Hostile SSE streams (issue 15, item 2): prints figures, asserts nothing.
 *
 *   cd /work/main && node --import tsx bench/hostile-stream.ts
 *   BENCH_HOSTILE_SRC=/path/to/other/src node --import tsx bench/hostile-stream.ts   (e.g. a
 *     copy of src/ at an older commit, to print the "before" figures with the same script)
 *
 * 1. SseParser.push, floods of LF / CR / CRLF (blank lines) and of short `x` lines, in
 *    64 KiB chunks: ns per character (median of BENCH_HOSTILE_ROUNDS runs of
 *    BENCH_HOSTILE_FLOOD_MIB MiB each).
 * 2. BodyReader('sse', 'gzip'): a gzip bomb of BENCH_HOSTILE_BOMB_MIB MiB of newlines
 *    (~1 KB per MiB on the wire), pushed in 16 KiB pieces: wall and process CPU time
 *    until onEnd, characters given to the parser, the problem reported.
 * 3. The app (global fetch) reading such a bomb from a local server, bare and with
 *    A2AInstrumentation enabled: wall time and bytes read (both must match).
 */
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { median } from './stats';

const SRC = path.resolve(process.env.BENCH_HOSTILE_SRC ?? path.join(__dirname, '..', 'src'));
const num = (name: string, def: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : def;
};
const ROUNDS = num('BENCH_HOSTILE_ROUNDS', 5);
const FLOOD_MIB = num('BENCH_HOSTILE_FLOOD_MIB', 8);
const BOMB_MIB = num('BENCH_HOSTILE_BOMB_MIB', 256);
const APP_MIB = num('BENCH_HOSTILE_APP_MIB', 256);
const MiB = 1024 * 1024;

type SseParserCtor = new () => { push(chunk: string): unknown[]; end(): unknown[] };
interface Sink {
  onDocument(v: unknown): void;
  onProblem(p: string): void;
  onEnd(): void;
}
type BodyReaderCtor = new (
  mode: 'sse' | 'json',
  enc: string | undefined,
  max: number,
  sink: Sink,
) => { push(c: Uint8Array): void; end(complete: boolean): void };

function floods(SseParser: SseParserCtor): void {
  console.log(
    `\n1. SseParser.push, ${FLOOD_MIB} MiB floods in 64 KiB chunks (median of ${ROUNDS}):`,
  );
  for (const [name, unit] of [
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
    ['x LF (short lines)', 'x\n'],
  ] as const) {
    const chunk = unit.repeat(Math.floor((64 * 1024) / unit.length));
    const runs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const p = new SseParser();
      let chars = 0;
      const t0 = process.hrtime.bigint();
      while (chars < FLOOD_MIB * MiB) {
        p.push(chunk);
        chars += chunk.length;
      }
      p.end();
      runs.push(Number(process.hrtime.bigint() - t0) / chars);
    }
    console.log(
      `   ${name.padEnd(20)} ${median(runs).toFixed(1).padStart(8)} ns/char   (runs: ${runs.map((x) => x.toFixed(0)).join(' ')})`,
    );
  }
}

function bomb(mib: number): Buffer {
  const member = zlib.gzipSync(Buffer.from('\n'.repeat(MiB)), { level: 9 });
  return Buffer.concat(Array.from({ length: mib }, () => member));
}

async function inflation(
  BodyReader: BodyReaderCtor,
  SseParserProto: { push(chunk: string): unknown[] },
): Promise<void> {
  const gz = bomb(BOMB_MIB);
  console.log(
    `\n2. BodyReader('sse', 'gzip') over a ${BOMB_MIB} MiB gzip bomb of newlines (${(gz.length / 1024).toFixed(0)} KiB on the wire):`,
  );

  const push = SseParserProto.push;
  let fed = 0;
  SseParserProto.push = function (this: unknown, chunk: string) {
    fed += chunk.length;
    return push.call(this, chunk);
  };
  try {
    const problems: string[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      const reader = new BodyReader('sse', 'gzip', 4 * MiB, {
        onDocument: () => {},
        onProblem: (p) => problems.push(p),
        onEnd: resolve,
      });
      for (let i = 0; i < gz.length; i += 16 * 1024) reader.push(gz.subarray(i, i + 16 * 1024));
      reader.end(true);
    });
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `   wall ${wallMs.toFixed(0)} ms, process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${(fed / MiB).toFixed(1)} MiB parsed (${((wallMs * 1e6) / Math.max(fed, 1)).toFixed(1)} ns per parsed char)`,
    );
    console.log(`   problems: ${problems.length === 0 ? '(none)' : problems.join('; ')}`);
  } finally {
    SseParserProto.push = push;
  }
}

async function appRead(url: string): Promise<{ ms: number; bytes: number; error?: string }> {
  const t0 = process.hrtime.bigint();
  let bytes = 0;
  try {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/sendSubscribe',
      params: { id: 't', message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } },
    });
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes };
  } catch (e) {
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes, error: String(e) };
  }
}

async function app(): Promise<void> {
  const gz = bomb(APP_MIB);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(gz);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  console.log(
    `\n3. The app reads a ${APP_MIB} MiB gzip bomb of newlines with fetch (median of ${Math.min(ROUNDS, 3)}):`,
  );
  const { BasicTracerProvider } = await import('@opentelemetry/sdk-trace-base');
  const pkg = (await import(path.join(SRC, 'index'))) as {
    A2AInstrumentation: new (c: object) => {
      setTracerProvider(p: unknown): void;
      enable(): void;
      disable(): void;
    };
  };
  const inst = new pkg.A2AInstrumentation({});
  inst.setTracerProvider(new BasicTracerProvider());
  inst.disable();
  const rows: Array<[string, number, number, string | undefined]> = [];
  for (const mode of ['bare', 'loaded'] as const) {
    if (mode === 'loaded') inst.enable();
    const runs: Array<{ ms: number; bytes: number; error?: string }> = [];
    for (let r = 0; r < Math.min(ROUNDS, 3); r++) runs.push(await appRead(url));
    if (mode === 'loaded') inst.disable();
    rows.push([
      mode,
      median(runs.map((x) => x.ms)),
      runs[0].bytes,
      runs.find((x) => x.error)?.error,
    ]);
  }
  for (const [mode, ms, bytes, error] of rows)
    console.log(
      `   ${mode.padEnd(7)} ${ms.toFixed(0).padStart(7)} ms   ${bytes} bytes read${error ? `   ERROR ${error}` : ''}`,
    );
  await new Promise<void>((r) => server.close(() => r()));
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${process.platform}/${process.arch}; src: ${SRC}`);
  const sse = (await import(path.join(SRC, 'core', 'sse'))) as {
    SseParser: SseParserCtor & { prototype: { push(chunk: string): unknown[] } };
  };
  const br = (await import(path.join(SRC, 'core', 'body-reader'))) as {
    BodyReader: BodyReaderCtor;
  };
  floods(sse.SseParser);
  await inflation(br.BodyReader, sse.SseParser.prototype);
  await app();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
