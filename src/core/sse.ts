/**
 * Incremental `text/event-stream` parser (WHATWG HTML "Server-sent events", §9.2.6),
 * string in, events out. The byte → string decoding is the caller's (a streaming
 * `TextDecoder`); sizes here are counted in UTF-16 code units of that text.
 *
 * - Line ends: CRLF, LF, CR, in any mix; a CR ending one chunk and an LF starting the next
 *   are ONE line break. A single leading BOM is dropped.
 * - Fields: `data` (lines joined with `\n`), `event`, `id` (ignored when it contains NUL),
 *   `retry` (digits only; exposed as `retry`), others ignored; `:` lines are comments; a
 *   line without a colon is a field with an empty value; one space after the colon dropped.
 * - An event is dispatched at a blank line, only if it had at least one `data` line
 *   (per spec: `data:` with an empty value still dispatches, with data `''`).
 * - EOF: per spec, an event not ended by a blank line is discarded. `end()` does that and
 *   reports it in `truncated` / `discardedTrailingChars`.
 * - Cap: an event whose field lines exceed `maxEventBytes` is dropped and counted in
 *   `oversizedEvents`; while skipping it, nothing more than the current bounded line
 *   prefix is buffered (memory stays O(maxEventBytes)).
 *
 * `SseEvent.id` is the `id` field of THAT event when it had one (the spec's "last event
 * ID" carried across events is exposed as `lastEventId`).
 */

export interface SseEvent {
  /** The `event:` field when set and non-empty (absent means the default `message`). */
  event?: string;
  data: string;
  /** The `id:` field of this event, when it had one. */
  id?: string;
}

export interface SseParserOptions {
  /** Maximum size of one event (sum of its field lines), default 1 MiB. */
  maxEventBytes?: number;
  /** Alias of maxEventBytes. */
  maxEventSize?: number;
}

export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;

/** Receives each dispatched event: its data, its `event:` name (when set and non-empty), its `id:`. */
export type SseEventHandler = (
  data: string,
  event: string | undefined,
  id: string | undefined,
) => void;

function noEvents(): void {
  // no handler outside feed()
}

const LF = 10;
const CR = 13;

function validCap(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : undefined;
}

/**
 * A line this short is searched for its end char by char; a longer one by EOL_RE.
 *
 * Why not `indexOf('\r')` / `indexOf('\n')` (what an earlier version did): the line search must
 * cost O(line), and `String.prototype.indexOf` does not guarantee it in practice. V8
 * (Node 20) treats the call as pure, and its optimising compiler may schedule the search
 * for the character that is ABSENT (the `\r` in an LF-only stream, the `\n` in a CR-only
 * one) inside the per-line loop: each line then `memchr`s to the end of the chunk, and a
 * chunk of n blank or short lines costs O(n x chunk). Measured: ~530-700 ns per character
 * for LF or CR floods in 64 KiB chunks (CRLF, where both characters are found at once,
 * ~12 ns), depending on what the JIT did. A `charCodeAt` loop and a global regex (whose
 * `test` writes `lastIndex`, so it is never moved) both stop at the line end.
 */
const SHORT_LINE_SCAN = 64;
const EOL_RE = /[\r\n]/g;

/** Index of the first CR or LF in `chunk[from, len)`, or -1. O(distance to it). */
function findLineEnd(chunk: string, from: number, len: number): number {
  const stop = len - from > SHORT_LINE_SCAN ? from + SHORT_LINE_SCAN : len;
  for (let i = from; i < stop; i++) {
    const c = chunk.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  if (stop >= len) return -1;
  EOL_RE.lastIndex = stop;
  return EOL_RE.test(chunk) ? EOL_RE.lastIndex - 1 : -1;
}

export class SseParser {
  /** Events dropped for exceeding the size cap. */
  oversizedEvents = 0;
  /** Set by `end()`: an event (field lines, or a partial non-comment line) was pending at EOF. */
  truncated = false;
  /** Set by `end()`: characters after the last event boundary that were discarded. */
  discardedTrailingChars = 0;
  /** The spec's last event ID buffer (persists across events). */
  lastEventId = '';
  /** Last valid `retry:` value (ms), if any. */
  retry: number | undefined = undefined;

  private readonly max: number;
  // current (incomplete) line
  private line = '';
  private lineLen = 0;
  /** The current line grew past the cap: its rest is not buffered. */
  private lineSkipping = false;
  /** The skipped line is a comment (so it does not spoil the event). */
  private lineIsComment = false;
  private pendingCR = false;
  private started = false;
  private ended = false;
  // current event
  /** The first `data` line, and the others (rare) when there are more. */
  private data = '';
  private dataMore: string[] | undefined = undefined;
  private hasData = false;
  /** Where dispatched events go during feed(). */
  private onEvent: SseEventHandler = noEvents;
  private eventType = '';
  private eventId: string | undefined = undefined;
  private eventSize = 0;
  private hasFields = false;
  private oversized = false;
  /** Characters consumed since the last blank line (for discardedTrailingChars). */
  private blockChars = 0;

  constructor(opts?: SseParserOptions) {
    let max: number | undefined;
    try {
      max = validCap(opts?.maxEventBytes) ?? validCap(opts?.maxEventSize);
    } catch {
      max = undefined;
    }
    this.max = max ?? DEFAULT_MAX_EVENT_BYTES;
  }

  /** Feeds a chunk of decoded text; returns the events completed by it. Never throws. */
  push(chunk: string): SseEvent[] {
    const out: SseEvent[] = [];
    this.feed(chunk, (data, event, id) => {
      const ev: SseEvent = { data };
      if (event !== undefined) ev.event = event;
      if (id !== undefined) ev.id = id;
      out.push(ev);
    });
    return out;
  }

  /**
   * Feeds a chunk of decoded text; each event it completes goes to `onEvent` at once (no array or
   * event object per chunk). Never throws; an exception of `onEvent` is the caller's (the event's
   * state is already clean then).
   */
  feed(chunk: string, onEvent: SseEventHandler): void {
    if (this.ended || typeof chunk !== 'string' || chunk.length === 0) return;
    this.onEvent = onEvent;
    try {
      this.consume(chunk);
    } catch (err) {
      // Defensive: a bug here must not reach the caller; drop the current event.
      this.resetEvent();
      this.resetLine();
      if (err instanceof HandlerError) throw err.cause;
    } finally {
      this.onEvent = noEvents;
    }
  }

  /** End of stream: discards an unterminated trailing event (per spec). Returns no events. */
  end(): SseEvent[] {
    if (this.ended) return [];
    this.ended = true;
    const partial = this.lineLen > 0 || this.lineSkipping;
    const partialIsField =
      partial && !(this.lineSkipping ? this.lineIsComment : this.line.charCodeAt(0) === 58);
    this.truncated = this.hasFields || partialIsField;
    this.discardedTrailingChars = this.blockChars; // includes the partial line
    this.resetEvent();
    this.resetLine();
    return [];
  }

  private consume(chunk: string): void {
    let pos = 0;
    const len = chunk.length;
    if (!this.started) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) pos = 1;
    }
    if (this.pendingCR) {
      this.pendingCR = false;
      // The LF completing a CRLF split across chunks (the line was already ended at the CR).
      if (chunk.charCodeAt(pos) === LF) pos++;
    }
    while (pos < len) {
      if (!this.hasFields && this.lineLen === 0 && !this.lineSkipping) {
        // Between events, a run of CR/LF is a run of blank lines that end nothing: skip it.
        let i = pos;
        while (i < len) {
          const c = chunk.charCodeAt(i);
          if (c !== LF && c !== CR) break;
          i++;
        }
        if (i > pos) {
          this.blockChars = 0;
          if (i === len && chunk.charCodeAt(len - 1) === CR) this.pendingCR = true; // its LF may start the next chunk
          pos = i;
          continue;
        }
      }
      const eol = findLineEnd(chunk, pos, len);
      if (eol < 0) {
        this.appendToLine(chunk, pos, len);
        return;
      }
      let next = eol + 1;
      if (chunk.charCodeAt(eol) === CR) {
        if (next < len) {
          if (chunk.charCodeAt(next) === LF) next++;
        } else {
          this.pendingCR = true;
        }
      }
      if (eol === pos && this.lineLen === 0 && !this.lineSkipping) {
        // A blank line (the common case of a flood): ends the event, if any.
        if (this.hasFields) this.dispatch();
        else this.blockChars = 0;
      } else if (
        this.lineLen === 0 &&
        !this.lineSkipping &&
        !this.oversized &&
        eol - pos <= this.max - this.eventSize
      ) {
        // A whole line inside this chunk (the common case): read in place, no copy of the line.
        this.blockChars += next - pos;
        this.fieldLine(chunk, pos, eol);
      } else {
        if (eol > pos) this.appendToLine(chunk, pos, eol);
        this.blockChars += next - eol;
        this.endLine();
      }
      pos = next;
    }
  }

  private appendToLine(chunk: string, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    this.blockChars += n;
    if (this.lineSkipping) {
      this.lineLen += n;
      return;
    }
    if (this.oversized) {
      // The event is already dropped: skip its remaining lines without buffering them.
      this.lineSkipping = true;
      this.lineIsComment = false;
      this.line = '';
      this.lineLen += n;
      return;
    }
    // The event (field lines so far + this line) may never hold more than `max` characters.
    if (this.lineLen + n > this.max - this.eventSize) {
      // Too long to be part of any acceptable event: stop buffering this line.
      const first = this.lineLen > 0 ? this.line.charCodeAt(0) : chunk.charCodeAt(from);
      this.lineIsComment = first === 58;
      this.lineSkipping = true;
      this.line = '';
      this.lineLen += n;
      if (!this.lineIsComment) this.markOversized();
      return;
    }
    this.line = this.lineLen === 0 ? chunk.slice(from, to) : this.line + chunk.slice(from, to);
    this.lineLen += n;
  }

  private markOversized(): void {
    this.oversized = true;
    this.hasFields = true;
    this.data = '';
    this.dataMore = undefined;
    this.hasData = false;
  }

  private resetLine(): void {
    this.line = '';
    this.lineLen = 0;
    this.lineSkipping = false;
    this.lineIsComment = false;
  }

  private resetEvent(): void {
    this.data = '';
    this.dataMore = undefined;
    this.hasData = false;
    this.eventType = '';
    this.eventId = undefined;
    this.eventSize = 0;
    this.hasFields = false;
    this.oversized = false;
    this.blockChars = 0;
  }

  private endLine(): void {
    const skipped = this.lineSkipping;
    const line = this.line;
    const len = this.lineLen;
    this.resetLine();
    if (skipped) return; // already accounted (oversized event, or an ignored comment)
    if (len === 0) {
      this.dispatch();
      return;
    }
    this.fieldLine(line, 0, len);
  }

  /** The field line `src[from, to)` (not empty, not skipped). */
  private fieldLine(src: string, from: number, to: number): void {
    if (src.charCodeAt(from) === 58) return; // comment
    this.hasFields = true;
    if (this.oversized) return;
    this.eventSize += to - from + 1;
    if (this.eventSize > this.max) {
      this.markOversized();
      return;
    }
    // The field name ends at the first colon (or the line's end). Only `data`, `event`, `id` and
    // `retry` mean anything, so only a colon (or the end) right after one of those is looked
    // for: no search along the line (a line without a colon must not cost a scan to the end of
    // the chunk).
    const field = fieldName(src, from, to);
    let v = field === FIELD_OTHER ? to : from + FIELD_LENGTH[field];
    if (v < to) v++; // the colon
    if (v < to && src.charCodeAt(v) === 32) v++;
    switch (field) {
      case FIELD_DATA: {
        const value = src.slice(v, to);
        if (!this.hasData) {
          this.data = value;
          this.hasData = true;
        } else if (this.dataMore === undefined) this.dataMore = [value];
        else this.dataMore.push(value);
        break;
      }
      case FIELD_EVENT:
        this.eventType = src.slice(v, to);
        break;
      case FIELD_ID: {
        const value = src.slice(v, to);
        if (value.indexOf('\0') < 0) {
          this.eventId = value;
          this.lastEventId = value;
        }
        break;
      }
      case FIELD_RETRY: {
        const value = src.slice(v, to);
        if (value.length > 0 && value.length <= 15 && /^[0-9]+$/.test(value))
          this.retry = Number(value);
        break;
      }
      default:
        break;
    }
  }

  private dispatch(): void {
    if (!this.hasFields) {
      // A blank line ending no event (a flood of blank lines, keep-alive comments): the
      // event state is already clean; resetting it would allocate an array per line.
      this.blockChars = 0;
      return;
    }
    if (this.oversized) {
      this.oversizedEvents++;
      this.resetEvent();
    } else if (this.hasData) {
      const data =
        this.dataMore === undefined ? this.data : `${this.data}\n${this.dataMore.join('\n')}`;
      const event = this.eventType.length > 0 ? this.eventType : undefined;
      const id = this.eventId;
      this.resetEvent();
      try {
        this.onEvent(data, event, id);
      } catch (err) {
        throw new HandlerError(err);
      }
    } else this.resetEvent();
  }
}

/** An exception of the caller's event handler, passed through feed() (not the parser's bug). */
class HandlerError {
  constructor(readonly cause: unknown) {}
}

const FIELD_OTHER = 0;
const FIELD_DATA = 1;
const FIELD_EVENT = 2;
const FIELD_ID = 3;
const FIELD_RETRY = 4;

/** Length of each field's name. */
const FIELD_LENGTH = [0, 4, 5, 2, 5];

/** `src[from + n]` ends the name: the line ends there, or a colon follows. */
function nameEndsAt(src: string, from: number, to: number, n: number): boolean {
  return from + n === to || (from + n < to && src.charCodeAt(from + n) === 58);
}

/** Which field the line `src[from, to)` names, compared in place. */
function fieldName(src: string, from: number, to: number): number {
  if (nameEndsAt(src, from, to, 4) && src.startsWith('data', from)) return FIELD_DATA;
  if (nameEndsAt(src, from, to, 2) && src.startsWith('id', from)) return FIELD_ID;
  if (nameEndsAt(src, from, to, 5)) {
    if (src.startsWith('event', from)) return FIELD_EVENT;
    if (src.startsWith('retry', from)) return FIELD_RETRY;
  }
  return FIELD_OTHER;
}
