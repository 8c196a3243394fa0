/**
 * A streamed answer's events, read without parsing them (pure).
 *
 * A language model's answer streams as hundreds of artifact updates that differ only in one
 * string: the word they add. Their bytes are the same up to that string's opening quote and the
 * same after its closing quote (one serializer, one request id, one task, one artifact). So once
 * one such event has been parsed and decoded, the next is known from its bytes alone: if it has
 * the same text before and after one well-formed JSON string, it is the same document with
 * another text, and its decoding is the first one's with that text as `artifactText`. Anything
 * else (another shape, a second text, an escape in the keys, malformed bytes) is parsed as before.
 *
 * This is exact, not a guess: the prefix fixes every token before the string and its place in
 * the document, the suffix every token after it, and only the text of a lone text part reaches
 * the decoded result (results.ts `partsText`, capped at MAX_STATUS_TEXT).
 */
import type { DecodedResult } from './model';
import { MAX_STATUS_TEXT } from './protocol/result-parts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const TEXT_KEY = '"text"';
/** A raw control character: JSON forbids it inside a string. */
// eslint-disable-next-line no-control-regex -- the control characters are what is searched for
const CONTROL = /[\u0000-\u001f]/;

/**
 * The string whose body (between its quotes) is `body`, or undefined when `"body"` is not one
 * well-formed JSON string. Without a backslash that is: no quote and no control character in it;
 * with one, JSON.parse of the literal says (an escaped closing quote, a bad escape...).
 */
function stringOf(body: string): string | undefined {
  if (body.indexOf('\\') === -1)
    return body.indexOf('"') === -1 && !CONTROL.test(body) ? body : undefined;
  try {
    const v: unknown = JSON.parse(`"${body}"`);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The index of the quote that closes the JSON string whose body starts at `from`, or -1. */
function closingQuote(data: string, from: number): number {
  for (let q = data.indexOf('"', from); q !== -1; q = data.indexOf('"', q + 1)) {
    let slashes = 0;
    while (q - 1 - slashes >= from && data.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** `s` in a string of its own (not a slice of a larger one, which it would keep alive). */
function ownCopy(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Where the value of the document's one `"text"` key begins (just after its opening quote), or
 * -1 when there is not exactly one such key with a string value.
 */
function loneTextValue(data: string): number {
  let found = -1;
  for (let at = data.indexOf(TEXT_KEY); at !== -1; at = data.indexOf(TEXT_KEY, at + 1)) {
    let i = at + TEXT_KEY.length;
    while (i < data.length && isWhitespace(data.charCodeAt(i))) i++;
    if (data.charCodeAt(i) !== 0x3a) continue; // a value "text" (e.g. "kind":"text"), not a key
    i++;
    while (i < data.length && isWhitespace(data.charCodeAt(i))) i++;
    if (found !== -1 || data.charCodeAt(i) !== QUOTE) return -1;
    found = i + 1;
  }
  return found;
}

export class EventShape {
  private constructor(
    private readonly prefix: string,
    private readonly suffix: string,
    private readonly eventName: string | undefined,
    private readonly result: DecodedResult,
  ) {}

  /**
   * The shape of a parsed event, when it is an artifact update of one text part whose text is the
   * document's only `"text"` key: then events that differ from it only in that text are read
   * without parsing. `data` is the event's JSON text, `result` its decoding.
   */
  static of(data: string, result: DecodedResult, eventName?: string): EventShape | undefined {
    if (result.kind !== 'artifact-update' || result.problem !== undefined) return undefined;
    const text = result.artifactText;
    if (text === undefined || result.error !== undefined || result.artifacts.length !== 1)
      return undefined;
    const parts = result.artifacts[0].parts;
    if (parts.length !== 1 || parts[0].kind !== 'text' || parts[0].intermediate !== undefined)
      return undefined;
    const start = loneTextValue(data);
    if (start === -1) return undefined;
    const end = closingQuote(data, start);
    if (end === -1 || stringOf(data.slice(start, end)) !== text) return undefined;
    const prefix = data.slice(0, start);
    const suffix = data.slice(end + 1);
    // A key spelled with an escape (`"te\u0078t"`) would be a second text key the scan missed.
    if (prefix.includes('\\') || suffix.includes('\\')) return undefined;
    // Copies: a slice would keep the whole chunk the event was cut from alive with the call.
    return new EventShape(ownCopy(prefix), ownCopy(suffix), eventName, result);
  }

  /**
   * The decoding of `data` when it is this shape's document with another text; undefined when it
   * is anything else (then it must be parsed).
   */
  match(data: string, eventName?: string): DecodedResult | undefined {
    if (eventName !== this.eventName) return undefined;
    const prefix = this.prefix;
    const end = data.length - this.suffix.length - 1;
    if (end < prefix.length || data.charCodeAt(end) !== QUOTE) return undefined;
    // slice and === compare memory at once; startsWith is several times slower on V8.
    if (data.slice(0, prefix.length) !== prefix || data.slice(end + 1) !== this.suffix)
      return undefined;
    const text = stringOf(data.slice(prefix.length, end));
    if (text === undefined) return undefined;
    return {
      ...this.result,
      artifactText: text.length > MAX_STATUS_TEXT ? text.slice(0, MAX_STATUS_TEXT) : text,
    };
  }
}
