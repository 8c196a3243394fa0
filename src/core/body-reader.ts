/**
 * Turns raw response bytes (as seen on the wire: content encoding not removed) into
 * parsed JSON documents: one for a plain JSON body, one per `data` of an SSE stream.
 * Bounded: a JSON body past `maxBytes` is not parsed; an SSE event past `maxBytes` is
 * skipped; a compressed SSE stream is inflated up to `maxInflatedBytes` in all, then no
 * longer inspected. Never throws; what it cannot read is reported as a problem.
 *
 * The reader only observes copies of the bytes the app reads: whatever it stops doing,
 * the app's stream is untouched.
 */
import { StringDecoder } from 'node:string_decoder';
import * as zlib from 'node:zlib';
import { SSE_DATA_PREFIX_CODES } from './dialects/index';
import { NOT_JSON, jsonProblem, parseJsonSafe, parseJsonValue } from './json-path';
import { SseParser } from './sse';

export type BodyMode = 'json' | 'sse';

/**
 * How a response body is read, from its Content-Type (lower-cased): `sse`, `json`, or undefined
 * (not read: `response is <type>, not JSON`). JSON when the type names JSON, is missing, or is
 * `text/plain`: Go's net/http labels a body written without a Content-Type by sniffing it, and
 * sniffs JSON as `text/plain; charset=utf-8` — the official Go SDK (a2a-go 0.3) answers every
 * non-streaming JSON-RPC call so. `sniffed` marks that last case: a `text/plain` body that does
 * not parse is a text body, not broken JSON (see `bodyProblem`).
 */
export function bodyModeOf(contentType: string): { mode?: BodyMode; sniffed: boolean } {
  if (contentType.includes('text/event-stream')) return { mode: 'sse', sniffed: false };
  if (contentType === '' || contentType.includes('json')) return { mode: 'json', sniffed: false };
  if (contentType.split(';')[0].trim() === 'text/plain') return { mode: 'json', sniffed: true };
  return { sniffed: false };
}

/** The unjudged reason of a body problem: a sniffed text/plain body that is not JSON says so. */
export function bodyProblem(problem: string, sniffed: boolean): string {
  return sniffed && problem.startsWith('response body is not JSON')
    ? 'response is text/plain, not JSON'
    : problem;
}

export interface BodySink {
  /**
   * A parsed JSON document (SSE: one event's data, with the event's `event:` name when it had one).
   */
  onDocument(value: unknown, eventName?: string, data?: string): void;
  /**
   * SSE: an event's JSON text, offered before it is parsed; true when the sink has read it
   * without a parse (event-shape.ts), and then it is not parsed. `onDocument` gets the text too.
   */
  onEventText?(data: string, eventName?: string): boolean;
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
      return zlib.brotliDecompressSync(data, {
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        maxOutputLength,
      });
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
}

/**
 * Output chunk of the stream decompressors: 64 KiB (zlib's 16 KiB default costs ~4x the time per
 * inflated byte).
 */
const INFLATE_CHUNK = 64 * 1024;

function streamDecompressor(encoding: string): Decompressor | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        chunkSize: INFLATE_CHUNK,
      });
    case 'deflate':
      return zlib.createInflate({
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        chunkSize: INFLATE_CHUNK,
      });
    case 'br':
      return zlib.createBrotliDecompress({ chunkSize: INFLATE_CHUNK });
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

/**
 * Default cap on the decompressed bytes of one compressed SSE stream: 64 MiB, or 4 x the
 * per-document cap (`maxBytes`, i.e. `maxInspectBytes`) when that is larger.
 *
 * Why a cap: without one, a compression bomb makes the instrumentation inflate and parse
 * everything the app's own decoder inflates (a 1 GB gzip bomb is ~1 MB on the wire), on
 * top of the app's own work. Why this size: 64 MiB is 16 documents at the default
 * 4 MiB cap, far more than an A2A task's stream of status and artifact events needs, and
 * inflating it costs tenths of a second. Past the cap the stream is reported as not
 * inspected (`onProblem`) and the decompressor is destroyed. Identity-encoded streams
 * are not capped: the parser's work there is linear in the bytes the app itself reads.
 * JSON bodies are capped at `maxBytes` decompressed, as before.
 */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export interface BodyReaderOptions {
  /**
   * Decompressed bytes of a compressed SSE stream inspected at most; default: see
   * DEFAULT_MAX_INFLATED_BYTES.
   */
  maxInflatedBytes?: number;
  /**
   * SSE: a chunk's text is decoded at once (a copy: the bytes are undici's) but its events are
   * parsed only when the next chunk arrives, the stream ends, a fallback timer fires (at most
   * STREAM_IDLE_MS after the text was held: one unref'd timer per stream, re-armed with
   * `refresh()` by the first text held after it fired, so at most once per STREAM_IDLE_MS, not
   * per chunk), or for parseAllPending. So the app is never held by the parse and judgement of
   * the chunk it is being handed, and nothing is scheduled per chunk. Observe mode;
   * enforce mode parses within the push, before the app gets the chunk.
   */
  deferEvents?: boolean;
}

/** A stream that ended before its server ended it (the app's cancel, a dropped connection). */
export const STREAM_CUT_SHORT = 'stream cut short: what followed not judged';

/**
 * A stream's held text is parsed at most this long after it was held, by the stream's fallback
 * timer (the next chunk or the stream's end parse it first in a busy stream).
 */
export const STREAM_IDLE_MS = 5;

/**
 * Decoded text held for a deferred parse at most: past it the held text is parsed at once (only
 * a decompressed stream can add more than one chunk's text before its next chunk).
 */
const MAX_PENDING_CHARS = 1024 * 1024;

/** Streams whose held text waits for its parse (deferEvents), judged by parseAllPending. */
const bodiesPending = new Set<BodyReader>();

/**
 * Judges now every stream's text waiting for its parse (deferEvents). Called before a new call
 * that continues a task or fetches a card (its negotiation may be in one), at disable, and by the
 * register entry's shutdown and flush. Costs nothing when nothing is pending.
 */
export function parseAllPending(): void {
  if (bodiesPending.size === 0) return;
  for (const reader of [...bodiesPending]) reader.parseDeferred();
}

function inflatedCap(maxBytes: number, opts: BodyReaderOptions | undefined): number {
  const v = opts?.maxInflatedBytes;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 1) return Math.floor(v);
  return Math.max(DEFAULT_MAX_INFLATED_BYTES, 4 * maxBytes);
}

export class BodyReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private over = false;
  private ended = false;
  private readonly encoding: string | undefined;
  private sse?: SseParser;
  /** UTF-8 across chunk boundaries (StringDecoder: a third of TextDecoder's cost per chunk). */
  private decoder?: StringDecoder;
  /**
   * The leading byte order mark is still to be dropped (as TextDecoder, the WHATWG decode, does).
   */
  private atStart = true;
  private decompressor?: Decompressor;
  private failed = false;
  private readonly maxInflated: number;
  private inflated = 0;
  /** The SSE parser's event handler, bound once (no closure per chunk). */
  private readonly onSseEvent = (data: string, eventName: string | undefined): void =>
    this.emitEvent(data, eventName);
  /** end(false) on a compressed stream: the inflater's 'end' finishes a stream cut short. */
  private cutShort = false;
  private readonly deferEvents: boolean;
  /** deferEvents: decoded text whose events are not parsed yet ('' when none). */
  private pendingText = '';
  /**
   * deferEvents: the stream's fallback timer, made at its first held text; re-armed (`refresh()`)
   * by the first text held after it fired, not per chunk.
   */
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private idleArmed = false;
  /** deferEvents: in bodiesPending from the first held text to the end (not per chunk). */
  private listed = false;

  constructor(
    private readonly mode: BodyMode,
    contentEncoding: string | undefined,
    private readonly maxBytes: number,
    private readonly sink: BodySink,
    opts?: BodyReaderOptions,
  ) {
    let maxInflated = DEFAULT_MAX_INFLATED_BYTES;
    try {
      maxInflated = inflatedCap(maxBytes, opts);
    } catch {
      // a hostile options object: keep the default
    }
    this.maxInflated = maxInflated;
    let deferEvents = false;
    try {
      deferEvents = mode === 'sse' && opts?.deferEvents === true;
    } catch {
      // a hostile options object: parse at once
    }
    this.deferEvents = deferEvents;
    const enc = contentEncoding?.trim().toLowerCase();
    this.encoding = enc && enc !== 'identity' ? enc : undefined;
    if (this.encoding && !SUPPORTED_ENCODINGS.has(this.encoding)) {
      this.failed = true;
      sink.onProblem(`content-encoding ${this.encoding.slice(0, 40)} not supported`);
      return;
    }
    if (mode === 'sse') {
      this.sse = new SseParser({ maxEventBytes: maxBytes });
      this.decoder = new StringDecoder('utf8');
      if (this.encoding) {
        const d = streamDecompressor(this.encoding);
        if (d) {
          this.decompressor = d;
          d.on('data', (out: Buffer) => this.onInflated(out));
          d.on('error', () => {
            if (this.failed) return; // already reported (e.g. stopped at the inflation cap)
            this.parsePending(); // what was inflated before the error is inspected
            this.failed = true;
            sink.onProblem(`could not decode ${this.encoding} stream`);
            // After end() nothing else will say the stream is over ('end' never comes after
            // 'error').
            if (this.ended) sink.onEnd();
          });
          d.on('end', () => this.finishSse(!this.cutShort));
        }
      }
    }
  }

  push(chunk: Uint8Array): void {
    if (this.ended || this.failed) return;
    try {
      if (this.mode === 'sse') {
        // The previous chunk's events: the app has had that chunk since its onData returned.
        if (this.pendingText.length > 0) this.parsePending();
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
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.parsePending();
    if (this.listed) bodiesPending.delete(this);
    if (this.failed) {
      this.sink.onEnd();
      return;
    }
    if (this.mode === 'sse') {
      if (this.decompressor) {
        // Flush what remains; 'end' then finishes the parser. Errors are reported by the listener.
        this.cutShort = !complete;
        try {
          this.decompressor.end();
        } catch {
          this.finishSse(complete);
        }
      } else this.finishSse(complete);
      return;
    }
    this.finishJson(complete);
  }

  /** Decompressed bytes of a compressed SSE stream that were inspected (at most the cap). */
  get inflatedBytes(): number {
    return this.inflated;
  }

  private onInflated(out: Buffer): void {
    if (this.failed) return;
    const room = this.maxInflated - this.inflated;
    if (out.byteLength <= room) {
      this.inflated += out.byteLength;
      this.feedText(out);
      return;
    }
    if (room > 0) {
      this.inflated += room;
      this.feedText(out.subarray(0, room));
    }
    this.stopInflating();
  }

  /**
   * The inflation cap is reached: inspect no more of this stream; the app's bytes are not touched.
   */
  private stopInflating(): void {
    this.parsePending(); // what was inflated before the cap is inspected
    this.failed = true;
    this.sink.onProblem(
      `stream over ${this.maxInflated} bytes decompressed: the rest not inspected`,
    );
    const d = this.decompressor;
    if (d) {
      try {
        d.removeAllListeners('data');
        d.removeAllListeners('end');
        d.destroy();
      } catch {
        // nothing more to stop
      }
    }
    // After end(), 'end' (which would have ended the parser) will not come: end here.
    if (this.ended) this.sink.onEnd();
  }

  private feedText(bytes: Uint8Array): void {
    if (!this.sse || !this.decoder) return;
    let text = this.decoder.write(bytes as Buffer);
    if (this.atStart && text.length > 0) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length === 0) return;
    if (this.deferEvents && !this.ended) {
      this.holdText(text);
      return;
    }
    this.parsePending();
    this.parseText(text);
  }

  /**
   * The parser keeps only an incomplete line's tail and an unfinished event's fields; each
   * complete event goes to the sink from inside this call (no array, no event object).
   */
  private parseText(text: string): void {
    if (!this.sse) return;
    try {
      this.sse.feed(text, this.onSseEvent);
    } catch {
      this.sink.onProblem('could not read the stream');
    }
  }

  /** deferEvents: keeps `text` for its parse; arms (or re-arms) the stream's idle timer. */
  private holdText(text: string): void {
    if (this.pendingText.length === 0) this.pendingText = text;
    else if (this.pendingText.length + text.length > MAX_PENDING_CHARS) {
      this.parsePending();
      this.pendingText = text;
    } else this.pendingText += text; // only a decompressed stream's outputs between two chunks
    if (this.idleArmed) return;
    try {
      if (!this.listed) {
        this.listed = true;
        bodiesPending.add(this);
      }
      if (this.idleTimer === undefined) {
        this.idleTimer = setTimeout(this.onIdle, STREAM_IDLE_MS);
        this.idleTimer.unref?.();
      } else this.idleTimer.refresh();
      this.idleArmed = true;
    } catch {
      this.parsePending(); // no timer: parse at once
    }
  }

  /**
   * The fallback: what is held when it fires is parsed (the app has had that chunk since its
   * onData returned). It stays unarmed until the next held text.
   */
  private readonly onIdle = (): void => {
    this.idleArmed = false;
    try {
      this.parsePending();
    } catch {
      // parsePending reports its own problems; nothing reaches the timer
    }
  };

  /** deferEvents: parses the held text now. */
  private parsePending(): void {
    const text = this.pendingText;
    if (text.length === 0) return;
    this.pendingText = '';
    this.parseText(text);
  }

  /** A stream's held text, parsed and reported now (for parseAllPending). */
  parseDeferred(): void {
    if (this.pendingText.length > 0) this.parsePending();
  }

  private emitEvent(raw: string, eventName: string | undefined): void {
    const data = sseJsonText(raw);
    if (data.length === 0) return;
    if (this.sink.onEventText?.(data, eventName) === true) return;
    const value = parseJsonValue(data);
    if (value !== NOT_JSON) this.sink.onDocument(value, eventName, data);
    else this.sink.onProblem(`stream event is not JSON (${jsonProblem()})`);
  }

  /**
   * The stream is over: parse what remains, then say what was not judged: an event the stream
   * ended inside (a server that closed, or dropped, the connection inside a `data:` line; per
   * the SSE spec that event is discarded), a stream cut short (`complete` false) between events,
   * events over the cap.
   */
  private finishSse(complete = true): void {
    this.parsePending();
    if (this.sse && this.decoder) {
      try {
        let tail = this.decoder.end();
        if (this.atStart && tail.charCodeAt(0) === 0xfeff) tail = tail.slice(1);
        if (tail.length > 0) this.sse.feed(tail, this.onSseEvent);
        this.sse.end();
        if (this.sse.truncated)
          this.sink.onProblem(
            `stream ended inside an event (${this.sse.discardedTrailingChars} characters): that event not judged`,
          );
        else if (!complete) this.sink.onProblem(STREAM_CUT_SHORT);
        if (this.sse.oversizedEvents > 0)
          this.sink.onProblem(
            `${this.sse.oversizedEvents} stream event(s) over ${this.maxBytes} bytes not inspected`,
          );
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
          this.sink.onProblem(
            code === 'ERR_BUFFER_TOO_LARGE'
              ? `response body over ${this.maxBytes} bytes not inspected`
              : `could not decode ${this.encoding} body`,
          );
          return;
        }
      }
      const parsed = parseJsonSafe(data.toString('utf8'));
      if (parsed.ok) this.sink.onDocument(parsed.value);
      else
        this.sink.onProblem(
          complete ? `response body is not JSON (${parsed.problem})` : 'response body cut short',
        );
    } catch {
      this.sink.onProblem('could not read the body');
    } finally {
      this.sink.onEnd();
    }
  }
}
