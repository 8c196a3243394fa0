/**
 * A real OTLP/HTTP receiver on 127.0.0.1:<random port> for tests.
 *
 *   POST {url}/v1/traces   ExportTraceServiceRequest
 *   POST {url}/v1/metrics  ExportMetricsServiceRequest
 *   POST {url}/v1/logs     accepted and counted, not decoded
 *
 * Bodies: `application/json` (OTLP/JSON, what @opentelemetry/exporter-*-otlp-http
 * sends) and `application/x-protobuf` (what exporter-*-otlp-proto sends; decoded
 * by the small wire-format reader below, no extra package). `Content-Encoding:
 * gzip` / `deflate` is accepted.
 *
 * OTLP/JSON as emitted by @opentelemetry/otlp-transformer 0.223: trace/span ids
 * are lowercase HEX strings, timestamps are decimal strings, `intValue` is a JSON
 * NUMBER (the OTLP spec allows a string too; both are accepted), bytes are base64.
 * Ids in base64 (older protobufjs-based exporters, and the proto3 JSON mapping)
 * are accepted too and normalised to hex.
 *
 * Spans are stored flattened, as Jaeger/Tempo show them.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

export type AttributeValue =
  string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export const SPAN_KIND_NAMES = [
  'UNSPECIFIED',
  'INTERNAL',
  'SERVER',
  'CLIENT',
  'PRODUCER',
  'CONSUMER',
] as const;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP enum: 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
  kind: number;
  kindName: (typeof SPAN_KIND_NAMES)[number];
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  durationMs: number;
  /** code: 0 UNSET, 1 OK, 2 ERROR. */
  status: { code: number; message: string };
  attributes: Attributes;
  events: Array<{ name: string; timeUnixNano: string; attributes: Attributes }>;
  links: Array<{ traceId: string; spanId: string; attributes: Attributes }>;
  resource: Attributes;
  scopeName: string;
  scopeVersion: string;
  /** 'json' | 'protobuf' */
  encoding: Encoding;
}

export interface ReceivedDataPoint {
  name: string;
  description: string;
  unit: string;
  type: 'gauge' | 'sum' | 'histogram' | 'exponentialHistogram' | 'summary';
  /** gauge/sum: the number; histogram/exponentialHistogram/summary: the COUNT (see `sum`). */
  value: number;
  count?: number;
  sum?: number;
  min?: number;
  max?: number;
  bucketCounts?: number[];
  explicitBounds?: number[];
  isMonotonic?: boolean;
  aggregationTemporality?: number;
  attributes: Attributes;
  startTimeUnixNano: string;
  timeUnixNano: string;
  resource: Attributes;
  scopeName: string;
  encoding: Encoding;
}

export type Encoding = 'json' | 'protobuf';

export interface ExportRecord {
  path: string;
  contentType: string;
  contentEncoding: string;
  bytes: number;
  items: number;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>` — give `${url}/v1/traces` to an exporter. */
  readonly url: string;
  readonly tracesUrl: string;
  readonly metricsUrl: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedDataPoint[];
  readonly exports: ExportRecord[];
  /** Resolves with ALL matching spans once at least `minCount` (default 1) match; rejects after `timeoutMs`. */
  waitForSpans(
    predicate?: (s: ReceivedSpan) => boolean,
    timeoutMs?: number,
    minCount?: number,
  ): Promise<ReceivedSpan[]>;
  waitForMetrics(
    predicate?: (p: ReceivedDataPoint) => boolean,
    timeoutMs?: number,
    minCount?: number,
  ): Promise<ReceivedDataPoint[]>;
  clear(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- helpers

function hexId(v: unknown): string {
  if (typeof v !== 'string' || v === '') return '';
  if (/^[0-9a-fA-F]+$/.test(v) && (v.length === 32 || v.length === 16)) return v.toLowerCase();
  return Buffer.from(v, 'base64').toString('hex');
}

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') return Number(v);
  return 0;
}

function nanoString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return BigInt(Math.round(v)).toString();
  if (v && typeof v === 'object' && 'low' in v && 'high' in v) {
    const o = v as { low: number; high: number };
    return ((BigInt(o.high >>> 0) << 32n) | BigInt(o.low >>> 0)).toString();
  }
  return '0';
}

function durationMs(start: string, end: string): number {
  try {
    return Number(BigInt(end) - BigInt(start)) / 1e6;
  } catch {
    return 0;
  }
}

type JsonObj = Record<string, unknown>;
const arr = (v: unknown): JsonObj[] => (Array.isArray(v) ? (v as JsonObj[]) : []);
const obj = (v: unknown): JsonObj => (v && typeof v === 'object' ? (v as JsonObj) : {});

function jsonAnyValue(v: unknown): AttributeValue {
  const o = obj(v);
  if ('stringValue' in o) return String(o['stringValue']);
  if ('boolValue' in o) return Boolean(o['boolValue']);
  if ('intValue' in o) {
    const n = o['intValue'];
    if (typeof n === 'number') return n;
    const big = BigInt(String(n));
    return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(big)
      : String(n);
  }
  if ('doubleValue' in o) return num(o['doubleValue']);
  if ('arrayValue' in o) return arr(obj(o['arrayValue'])['values']).map(jsonAnyValue);
  if ('kvlistValue' in o) return jsonAttributes(obj(o['kvlistValue'])['values']);
  if ('bytesValue' in o) return String(o['bytesValue']);
  return null;
}

function jsonAttributes(list: unknown): Attributes {
  const out: Attributes = {};
  for (const kv of arr(list)) out[String(kv['key'])] = jsonAnyValue(kv['value']);
  return out;
}

// ---------------------------------------------------------------- protobuf wire reader

type Field = {
  no: number;
  wt: number;
  varint?: bigint;
  bytes?: Buffer;
  fixed64?: Buffer;
  fixed32?: Buffer;
};

function readVarint(buf: Buffer, pos: { p: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos.p >= buf.length) throw new Error('truncated varint');
    const b = buf[pos.p++] as number;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
    shift += 7n;
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  const pos = { p: 0 };
  while (pos.p < buf.length) {
    const tag = Number(readVarint(buf, pos));
    const no = tag >>> 3;
    const wt = tag & 7;
    if (wt === 0) out.push({ no, wt, varint: readVarint(buf, pos) });
    else if (wt === 1) {
      out.push({ no, wt, fixed64: buf.subarray(pos.p, pos.p + 8) });
      pos.p += 8;
    } else if (wt === 2) {
      const len = Number(readVarint(buf, pos));
      out.push({ no, wt, bytes: buf.subarray(pos.p, pos.p + len) });
      pos.p += len;
    } else if (wt === 5) {
      out.push({ no, wt, fixed32: buf.subarray(pos.p, pos.p + 4) });
      pos.p += 4;
    } else throw new Error(`unsupported wire type ${wt}`);
  }
  return out;
}

const pbStr = (f: Field | undefined): string => (f?.bytes ? f.bytes.toString('utf8') : '');
const pbHex = (f: Field | undefined): string => (f?.bytes ? f.bytes.toString('hex') : '');
const pbU64 = (f: Field | undefined): string =>
  f?.fixed64 ? f.fixed64.readBigUInt64LE(0).toString() : '0';
const pbDouble = (f: Field | undefined): number | undefined =>
  f?.fixed64 ? f.fixed64.readDoubleLE(0) : undefined;
const pbInt = (f: Field | undefined): number =>
  f?.varint !== undefined ? Number(BigInt.asIntN(64, f.varint)) : 0;
const first = (fs: Field[], no: number): Field | undefined => fs.find((f) => f.no === no);
const all = (fs: Field[], no: number): Field[] => fs.filter((f) => f.no === no);

function pbAnyValue(buf: Buffer): AttributeValue {
  const fs = fields(buf);
  const f = fs[0];
  if (!f) return null;
  switch (f.no) {
    case 1:
      return pbStr(f);
    case 2:
      return f.varint !== 0n;
    case 3: {
      const big = BigInt.asIntN(64, f.varint ?? 0n);
      return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(big)
        : big.toString();
    }
    case 4:
      return pbDouble(f) ?? 0;
    case 5:
      return all(fields(f.bytes ?? Buffer.alloc(0)), 1).map((x) =>
        pbAnyValue(x.bytes ?? Buffer.alloc(0)),
      );
    case 6:
      return pbAttributes(all(fields(f.bytes ?? Buffer.alloc(0)), 1));
    case 7:
      return (f.bytes ?? Buffer.alloc(0)).toString('base64');
    default:
      return null;
  }
}

function pbAttributes(kvs: Field[]): Attributes {
  const out: Attributes = {};
  for (const kv of kvs) {
    const fs = fields(kv.bytes ?? Buffer.alloc(0));
    const v = first(fs, 2);
    out[pbStr(first(fs, 1))] = v?.bytes ? pbAnyValue(v.bytes) : null;
  }
  return out;
}

function pbResourceAndScope(
  container: Field[],
  scopeField: number,
): { resource: Attributes } & { scopes: Field[] } {
  const res = first(container, 1);
  const resource = res?.bytes ? pbAttributes(all(fields(res.bytes), 1)) : {};
  return { resource, scopes: all(container, scopeField) };
}

function pbScope(f: Field | undefined): { name: string; version: string } {
  if (!f?.bytes) return { name: '', version: '' };
  const fs = fields(f.bytes);
  return { name: pbStr(first(fs, 1)), version: pbStr(first(fs, 2)) };
}

function kindName(k: number): ReceivedSpan['kindName'] {
  return SPAN_KIND_NAMES[k] ?? 'UNSPECIFIED';
}

// ---------------------------------------------------------------- decoders

function decodeTracesJson(body: JsonObj): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of arr(body['resourceSpans'])) {
    const resource = jsonAttributes(obj(rs['resource'])['attributes']);
    for (const ss of arr(rs['scopeSpans'] ?? rs['instrumentationLibrarySpans'])) {
      const scope = obj(ss['scope'] ?? ss['instrumentationLibrary']);
      for (const s of arr(ss['spans'])) {
        const start = nanoString(s['startTimeUnixNano']);
        const end = nanoString(s['endTimeUnixNano']);
        const st = obj(s['status']);
        const kind = num(s['kind']);
        out.push({
          traceId: hexId(s['traceId']),
          spanId: hexId(s['spanId']),
          parentSpanId: hexId(s['parentSpanId']),
          name: String(s['name'] ?? ''),
          kind,
          kindName: kindName(kind),
          startTimeUnixNano: start,
          endTimeUnixNano: end,
          durationMs: durationMs(start, end),
          status: { code: num(st['code']), message: String(st['message'] ?? '') },
          attributes: jsonAttributes(s['attributes']),
          events: arr(s['events']).map((e) => ({
            name: String(e['name'] ?? ''),
            timeUnixNano: nanoString(e['timeUnixNano']),
            attributes: jsonAttributes(e['attributes']),
          })),
          links: arr(s['links']).map((l) => ({
            traceId: hexId(l['traceId']),
            spanId: hexId(l['spanId']),
            attributes: jsonAttributes(l['attributes']),
          })),
          resource,
          scopeName: String(scope['name'] ?? ''),
          scopeVersion: String(scope['version'] ?? ''),
          encoding: 'json',
        });
      }
    }
  }
  return out;
}

function decodeTracesProto(buf: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rsF of all(fields(buf), 1)) {
    const { resource, scopes } = pbResourceAndScope(fields(rsF.bytes ?? Buffer.alloc(0)), 2);
    for (const ssF of scopes) {
      const ss = fields(ssF.bytes ?? Buffer.alloc(0));
      const scope = pbScope(first(ss, 1));
      for (const spF of all(ss, 2)) {
        const s = fields(spF.bytes ?? Buffer.alloc(0));
        const start = pbU64(first(s, 7));
        const end = pbU64(first(s, 8));
        const stF = first(s, 15);
        const st = stF?.bytes ? fields(stF.bytes) : [];
        const kind = pbInt(first(s, 6));
        out.push({
          traceId: pbHex(first(s, 1)),
          spanId: pbHex(first(s, 2)),
          parentSpanId: pbHex(first(s, 4)),
          name: pbStr(first(s, 5)),
          kind,
          kindName: kindName(kind),
          startTimeUnixNano: start,
          endTimeUnixNano: end,
          durationMs: durationMs(start, end),
          status: { code: pbInt(first(st, 3)), message: pbStr(first(st, 2)) },
          attributes: pbAttributes(all(s, 9)),
          events: all(s, 11).map((eF) => {
            const e = fields(eF.bytes ?? Buffer.alloc(0));
            return {
              name: pbStr(first(e, 2)),
              timeUnixNano: pbU64(first(e, 1)),
              attributes: pbAttributes(all(e, 3)),
            };
          }),
          links: all(s, 13).map((lF) => {
            const l = fields(lF.bytes ?? Buffer.alloc(0));
            return {
              traceId: pbHex(first(l, 1)),
              spanId: pbHex(first(l, 2)),
              attributes: pbAttributes(all(l, 4)),
            };
          }),
          resource,
          scopeName: scope.name,
          scopeVersion: scope.version,
          encoding: 'protobuf',
        });
      }
    }
  }
  return out;
}

const METRIC_TYPES = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] as const;

function decodeMetricsJson(body: JsonObj): ReceivedDataPoint[] {
  const out: ReceivedDataPoint[] = [];
  for (const rm of arr(body['resourceMetrics'])) {
    const resource = jsonAttributes(obj(rm['resource'])['attributes']);
    for (const sm of arr(rm['scopeMetrics'])) {
      const scopeName = String(obj(sm['scope'])['name'] ?? '');
      for (const m of arr(sm['metrics'])) {
        const type = METRIC_TYPES.find((t) => t in m);
        if (!type) continue;
        const data = obj(m[type]);
        for (const dp of arr(data['dataPoints'])) {
          const isNumber = type === 'gauge' || type === 'sum';
          const count = isNumber ? undefined : num(dp['count']);
          const value = isNumber ? num(dp['asDouble'] ?? dp['asInt']) : (count as number);
          const point: ReceivedDataPoint = {
            name: String(m['name'] ?? ''),
            description: String(m['description'] ?? ''),
            unit: String(m['unit'] ?? ''),
            type,
            value,
            attributes: jsonAttributes(dp['attributes']),
            startTimeUnixNano: nanoString(dp['startTimeUnixNano']),
            timeUnixNano: nanoString(dp['timeUnixNano']),
            resource,
            scopeName,
            encoding: 'json',
          };
          if (count !== undefined) point.count = count;
          if (dp['sum'] !== undefined) point.sum = num(dp['sum']);
          if (dp['min'] !== undefined) point.min = num(dp['min']);
          if (dp['max'] !== undefined) point.max = num(dp['max']);
          if (Array.isArray(dp['bucketCounts']))
            point.bucketCounts = (dp['bucketCounts'] as unknown[]).map(num);
          if (Array.isArray(dp['explicitBounds']))
            point.explicitBounds = (dp['explicitBounds'] as unknown[]).map(num);
          if (data['isMonotonic'] !== undefined) point.isMonotonic = Boolean(data['isMonotonic']);
          if (data['aggregationTemporality'] !== undefined)
            point.aggregationTemporality = num(data['aggregationTemporality']);
          out.push(point);
        }
      }
    }
  }
  return out;
}

function packedFixed64(fs: Field[], asDouble: boolean): number[] {
  const out: number[] = [];
  for (const f of fs) {
    const chunks: Buffer[] = f.bytes ? [f.bytes] : f.fixed64 ? [f.fixed64] : [];
    for (const b of chunks) {
      for (let i = 0; i + 8 <= b.length; i += 8)
        out.push(asDouble ? b.readDoubleLE(i) : Number(b.readBigUInt64LE(i)));
    }
  }
  return out;
}

function decodeMetricsProto(buf: Buffer): ReceivedDataPoint[] {
  const out: ReceivedDataPoint[] = [];
  // Metric oneof field numbers → type
  const dataFields: Record<number, ReceivedDataPoint['type']> = {
    5: 'gauge',
    7: 'sum',
    9: 'histogram',
    10: 'exponentialHistogram',
    11: 'summary',
  };
  for (const rmF of all(fields(buf), 1)) {
    const { resource, scopes } = pbResourceAndScope(fields(rmF.bytes ?? Buffer.alloc(0)), 2);
    for (const smF of scopes) {
      const sm = fields(smF.bytes ?? Buffer.alloc(0));
      const scopeName = pbScope(first(sm, 1)).name;
      for (const mF of all(sm, 2)) {
        const m = fields(mF.bytes ?? Buffer.alloc(0));
        const dataF = m.find((f) => f.no in dataFields);
        if (!dataF?.bytes) continue;
        const type = dataFields[dataF.no] as ReceivedDataPoint['type'];
        const data = fields(dataF.bytes);
        const temporality = first(data, 2);
        const monotonic = type === 'sum' ? first(data, 3) : undefined;
        for (const dpF of all(data, 1)) {
          const dp = fields(dpF.bytes ?? Buffer.alloc(0));
          const base = {
            name: pbStr(first(m, 1)),
            description: pbStr(first(m, 2)),
            unit: pbStr(first(m, 3)),
            type,
            resource,
            scopeName,
            encoding: 'protobuf' as const,
            startTimeUnixNano: pbU64(first(dp, 2)),
            timeUnixNano: pbU64(first(dp, 3)),
          };
          let point: ReceivedDataPoint;
          if (type === 'gauge' || type === 'sum') {
            const d = first(dp, 4);
            const i = first(dp, 6);
            const value = d
              ? (pbDouble(d) ?? 0)
              : i?.fixed64
                ? Number(i.fixed64.readBigInt64LE(0))
                : 0;
            point = { ...base, value, attributes: pbAttributes(all(dp, 7)) };
          } else {
            const count = Number(pbU64(first(dp, 4)));
            // histogram: attributes 9, min 11, max 12; exp. histogram: attributes 1, min 12, max 13; summary: attributes 7
            const attrNo = type === 'histogram' ? 9 : type === 'exponentialHistogram' ? 1 : 7;
            point = { ...base, value: count, count, attributes: pbAttributes(all(dp, attrNo)) };
            const sum = pbDouble(first(dp, 5));
            if (sum !== undefined) point.sum = sum;
            if (type === 'histogram') {
              point.bucketCounts = packedFixed64(all(dp, 6), false);
              point.explicitBounds = packedFixed64(all(dp, 7), true);
              const min = pbDouble(first(dp, 11));
              const max = pbDouble(first(dp, 12));
              if (min !== undefined) point.min = min;
              if (max !== undefined) point.max = max;
            }
          }
          if (temporality && type !== 'gauge' && type !== 'summary')
            point.aggregationTemporality = pbInt(temporality);
          if (monotonic) point.isMonotonic = monotonic.varint !== 0n;
          out.push(point);
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- server

/** The OTLP/gRPC service methods, and the OTLP/HTTP path each one stands for. */
const GRPC_METHODS: Record<string, string> = {
  '/opentelemetry.proto.collector.trace.v1.TraceService/Export': '/v1/traces',
  '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export': '/v1/metrics',
  '/opentelemetry.proto.collector.logs.v1.LogsService/Export': '/v1/logs',
};

/**
 * `startOtlpReceiver()` serves OTLP/HTTP (JSON and protobuf); `startOtlpReceiver({ grpc: true })`
 * serves OTLP/gRPC instead (HTTP/2 cleartext, `node:http2`: the unary Export calls, gRPC
 * length-prefixed messages, gzip-compressed ones too), storing what it receives the same way.
 */
export async function startOtlpReceiver(options: { grpc?: boolean } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedDataPoint[] = [];
  const exports: ExportRecord[] = [];
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const w of [...waiters]) w();
  };

  /** Decodes and stores one export; throws on what cannot be decoded. */
  const ingest = (
    path: string,
    contentType: string,
    contentEncoding: string,
    buf: Buffer,
    isProto: boolean,
  ): void => {
    let items = 0;
    if (path === '/v1/traces') {
      const got = isProto
        ? decodeTracesProto(buf)
        : decodeTracesJson(JSON.parse(buf.toString('utf8')) as JsonObj);
      spans.push(...got);
      items = got.length;
    } else if (path === '/v1/metrics') {
      const got = isProto
        ? decodeMetricsProto(buf)
        : decodeMetricsJson(JSON.parse(buf.toString('utf8')) as JsonObj);
      metrics.push(...got);
      items = got.length;
    }
    exports.push({ path, contentType, contentEncoding, bytes: buf.length, items });
    notify();
  };

  /** Hands over the request's whole body once it has all arrived. */
  const onWholeBody = (req: Readable, done: (body: Buffer) => void): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
  };
  /** A request header's value, lower-cased ('' when absent). */
  const lowerHeader = (headers: http.IncomingHttpHeaders, name: string): string =>
    String(headers[name] ?? '').toLowerCase();
  /** The media type of the content-type header, without its parameters. */
  const mediaType = (headers: http.IncomingHttpHeaders): string =>
    lowerHeader(headers, 'content-type').split(';')[0]?.trim() ?? '';

  const grpcServer = options.grpc
    ? http2.createServer((req, res) => {
        const path = GRPC_METHODS[req.url ?? ''];
        onWholeBody(req, (framed) => {
          const contentType = mediaType(req.headers);
          const messageEncoding = lowerHeader(req.headers, 'grpc-encoding');
          let status = 0;
          let message = '';
          try {
            if (!path)
              throw Object.assign(new Error(`unknown method ${req.url}`), { grpcStatus: 12 });
            if (framed.length < 5) throw new Error('no gRPC message');
            const compressed = framed[0] === 1;
            let buf = framed.subarray(5, 5 + framed.readUInt32BE(1));
            if (compressed && messageEncoding === 'gzip') buf = zlib.gunzipSync(buf);
            ingest(path, contentType, compressed ? messageEncoding : '', buf, true);
          } catch (err) {
            status = (err as { grpcStatus?: number }).grpcStatus ?? 3;
            message = String(err);
          }
          res.writeHead(200, { 'content-type': 'application/grpc' });
          res.addTrailers(
            status === 0
              ? { 'grpc-status': '0' }
              : { 'grpc-status': String(status), 'grpc-message': message },
          );
          // An empty Export*ServiceResponse: uncompressed, length 0.
          if (status === 0) res.end(Buffer.alloc(5));
          else res.end();
        });
      })
    : undefined;

  const httpServer = options.grpc
    ? undefined
    : http.createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (req.method !== 'POST' || !['/v1/traces', '/v1/metrics', '/v1/logs'].includes(path)) {
          res.writeHead(404).end();
          return;
        }
        onWholeBody(req, (body) => {
          const contentType = mediaType(req.headers);
          const contentEncoding = lowerHeader(req.headers, 'content-encoding');
          const isProto =
            contentType === 'application/x-protobuf' || contentType === 'application/protobuf';
          const reply = (status: number, body: string): void => {
            res.writeHead(status, {
              'content-type': isProto ? 'application/x-protobuf' : 'application/json',
            });
            res.end(isProto && status === 200 ? Buffer.alloc(0) : body);
          };
          try {
            let buf = body;
            if (contentEncoding === 'gzip') buf = zlib.gunzipSync(buf);
            else if (contentEncoding === 'deflate') buf = zlib.inflateSync(buf);
            ingest(path, contentType, contentEncoding, buf, isProto);
            reply(200, '{}');
          } catch (err) {
            reply(400, JSON.stringify({ code: 3, message: `cannot decode: ${String(err)}` }));
          }
        });
      });
  const server = (grpcServer ?? httpServer) as http.Server | http2.Http2Server;
  const sessions = new Set<http2.ServerHttp2Session>();
  grpcServer?.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function waitFor<T>(
    list: T[],
    what: string,
    predicate: (x: T) => boolean,
    timeoutMs: number,
    minCount: number,
    describe: (x: T) => string,
  ): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const got = list.filter(predicate);
        if (got.length >= minCount) {
          cleanup();
          resolve(got);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${minCount} ${what}; received ${list.length}: ${list.map(describe).join(', ')}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(onNotify);
      };
      const onNotify = (): void => {
        check();
      };
      waiters.add(onNotify);
      check();
    });
  }

  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    metricsUrl: `${url}/v1/metrics`,
    spans,
    metrics,
    exports,
    waitForSpans(predicate = () => true, timeoutMs = 5000, minCount = 1) {
      return waitFor(
        spans,
        'spans',
        predicate,
        timeoutMs,
        minCount,
        (s) => `${s.name}[${s.kindName}]`,
      );
    },
    waitForMetrics(predicate = () => true, timeoutMs = 5000, minCount = 1) {
      return waitFor(metrics, 'data points', predicate, timeoutMs, minCount, (p) => p.name);
    },
    clear(): void {
      spans.length = 0;
      metrics.length = 0;
      exports.length = 0;
    },
    async close(): Promise<void> {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        httpServer?.closeAllConnections();
        for (const session of sessions) session.destroy();
      });
    },
  };
}
