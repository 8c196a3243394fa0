/**
 * Turns raw response bytes (as seen on the wire: content encoding not removed) into
 * parsed JSON documents: one for a plain JSON body, one per `data` of an SSE stream.
 * Bounded: a JSON body past `maxBytes` is not parsed; an SSE event past `maxBytes` is
 * skipped. Never throws; what it cannot read is reported as a problem.
 */
import { TextDecoder } from 'node:util';
import * as zlib from 'node:zlib';
import { SSE_DATA_PREFIX_CODES } from './dialects/index';
import { parseJsonSafe } from './json-path';
import { SseParser } from './sse';

export type BodyMode = 'json' | 'sse';

export interface BodySink {
  /** A parsed JSON document (SSE: one event's data, with the event's `event:` name when it had one). */
  onDocument(value: unknown, eventName?: string): void;
  /** Something could not be read (over the cap, not JSON, bad compression, ...). */
  onProblem(problem: string): void;
  /** No more documents will come. */
  onEnd(): void;
}

type Decompressor = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

function syncDecompress(encoding: string, data: Buffer, maxOutputLength: number): Buffer {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength };
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(data, flush);
    case 'deflate':
      // Servers send zlib-wrapped or raw deflate; try both as fetch does.
      try {
        return zlib.inflateSync(data, flush);
      } catch {
        return zlib.inflateRawSync(data, flush);
      }
    case 'br':
      return zlib.brotliDecompressSync(data, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH, maxOutputLength });
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
}

function streamDecompressor(encoding: string): Decompressor | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * The JSON text of an SSE event's data: the prefixes dialects write before the JSON
 * (VoltAgent's `\x1e`, see dialects/) are dropped. Anything else is left for the JSON
 * parser to judge.
 */
export function sseJsonText(data: string): string {
  let i = 0;
  while (i < data.length && SSE_DATA_PREFIX_CODES.has(data.charCodeAt(i))) i++;
  return i === 0 ? data : data.slice(i);
}

const SUPPORTED_ENCODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

export class BodyReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;
  private ended = false;
  private readonly encoding: string | undefined;
  private sse?: SseParser;
  private decoder?: TextDecoder;
  private decompressor?: Decompressor;
  private failed = false;

  constructor(
    private readonly mode: BodyMode,
    contentEncoding: string | undefined,
    private readonly maxBytes: number,
    private readonly sink: BodySink,
  ) {
    const enc = contentEncoding?.trim().toLowerCase();
    this.encoding = enc && enc !== 'identity' ? enc : undefined;
    if (this.encoding && !SUPPORTED_ENCODINGS.has(this.encoding)) {
      this.failed = true;
      sink.onProblem(`content-encoding ${this.encoding.slice(0, 40)} not supported`);
      return;
    }
    if (mode === 'sse') {
      this.sse = new SseParser({ maxEventBytes: maxBytes });
      this.decoder = new TextDecoder('utf-8');
      if (this.encoding) {
        const d = streamDecompressor(this.encoding);
        if (d) {
          this.decompressor = d;
          d.on('data', (out: Buffer) => this.feedText(out));
          d.on('error', () => {
            this.failed = true;
            sink.onProblem(`could not decode ${this.encoding} stream`);
            // After end() nothing else will say the stream is over ('end' never comes after 'error').
            if (this.ended) sink.onEnd();
          });
          d.on('end', () => this.finishSse());
        }
      }
    }
  }

  push(chunk: Uint8Array): void {
    if (this.ended || this.failed) return;
    try {
      if (this.mode === 'sse') {
        if (this.decompressor) this.decompressor.write(chunk);
        else this.feedText(chunk);
        return;
      }
      if (this.over) return;
      this.size += chunk.byteLength;
      if (this.size > this.maxBytes) {
        this.over = true;
        this.chunks = [];
        return;
      }
      // Copy: the chunk belongs to undici and may be reused.
      this.chunks.push(Buffer.from(chunk));
    } catch {
      this.failed = true;
      this.sink.onProblem('could not read the body');
    }
  }

  /** The body ended (normally or not: `complete` false when the response was cut short). */
  end(complete: boolean): void {
    if (this.ended) return;
    this.ended = true;
    if (this.failed) {
      this.sink.onEnd();
      return;
    }
    if (this.mode === 'sse') {
      if (this.decompressor) {
        // Flush what remains; 'end' then finishes the parser. Errors are reported by the listener.
        try {
          this.decompressor.end();
        } catch {
          this.finishSse();
        }
      } else this.finishSse();
      return;
    }
    this.finishJson(complete);
  }

  private feedText(bytes: Uint8Array): void {
    if (!this.sse || !this.decoder) return;
    const text = this.decoder.decode(bytes, { stream: true });
    if (text.length > 0) this.emitEvents(this.sse.push(text));
  }

  private emitEvents(events: ReturnType<SseParser['push']>): void {
    for (const ev of events) {
      const data = sseJsonText(ev.data);
      if (data.length === 0) continue;
      const parsed = parseJsonSafe(data);
      if (parsed.ok) this.sink.onDocument(parsed.value, ev.event);
      else this.sink.onProblem(`stream event is not JSON (${parsed.problem})`);
    }
  }

  private finishSse(): void {
    if (this.sse && this.decoder) {
      try {
        const tail = this.decoder.decode();
        if (tail.length > 0) this.emitEvents(this.sse.push(tail));
        this.emitEvents(this.sse.end());
        if (this.sse.oversizedEvents > 0) this.sink.onProblem(`${this.sse.oversizedEvents} stream event(s) over ${this.maxBytes} bytes not inspected`);
      } catch {
        this.sink.onProblem('could not read the stream');
      }
    }
    this.sink.onEnd();
  }

  private finishJson(complete: boolean): void {
    try {
      if (this.over) {
        this.sink.onProblem(`response body over ${this.maxBytes} bytes not inspected`);
        return;
      }
      let data = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
      this.chunks = [];
      if (data.byteLength === 0) {
        this.sink.onProblem(complete ? 'empty response body' : 'response body cut short');
        return;
      }
      if (this.encoding) {
        try {
          data = syncDecompress(this.encoding, data, this.maxBytes);
        } catch (err) {
          const code = (err as { code?: unknown }).code;
          this.sink.onProblem(code === 'ERR_BUFFER_TOO_LARGE' ? `response body over ${this.maxBytes} bytes not inspected` : `could not decode ${this.encoding} body`);
          return;
        }
      }
      const parsed = parseJsonSafe(data.toString('utf8'));
      if (parsed.ok) this.sink.onDocument(parsed.value);
      else this.sink.onProblem(complete ? `response body is not JSON (${parsed.problem})` : 'response body cut short');
    } catch {
      this.sink.onProblem('could not read the body');
    } finally {
      this.sink.onEnd();
    }
  }
}
