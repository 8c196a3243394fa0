/**
 * The register entry's span processors and metric readers, from the standard variables:
 *
 *   OTEL_TRACES_EXPORTER   otlp | zipkin | console | none   (a list; default otlp)
 *   OTEL_METRICS_EXPORTER  otlp | prometheus | console | none
 *   OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / OTEL_EXPORTER_OTLP_METRICS_PROTOCOL, else
 *   OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf (default, as NodeSDK) | http/json | grpc
 *
 * Each network exporter is wrapped in a DetachedExporter (telemetry never keeps the process
 * alive). A value that cannot be served gets one warning and the default.
 */
import { OTLPMetricExporter as OtlpGrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as OtlpJsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OtlpProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter as OtlpGrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import {
  ConsoleMetricExporter,
  PeriodicExportingMetricReader,
  type IMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import {
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { logger } from '../diag-logger';
import { normaliseUrl } from '../core/url';
import {
  DetachedBatchSpanProcessor,
  type BatchOptions,
  DetachedExporter,
  DetachedMetricExporter,
} from './detached-export';

export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
/** The spec's default, and NodeSDK's (sdk-node utils getOtlpProtocolFromEnv). */
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';
const TRACE_EXPORTERS = ['otlp', 'zipkin', 'console', 'none'] as const;
const METRIC_EXPORTERS = ['otlp', 'prometheus', 'console', 'none'] as const;

function envString(name: string): string | undefined {
  const v = process.env[name]?.trim();
  return v ? v : undefined;
}

/** The exporters named by `name` (a comma-separated list), known ones only; [] for none. */
function exporterList<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name];
  const list = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s.length > 0),
    ),
  ];
  if (list.length === 0) return ['otlp' as T];
  const good = list.filter((s): s is T => (allowed as readonly string[]).includes(s));
  if (good.length !== list.length) {
    const bad = list.filter((s) => !good.includes(s as T));
    const using = good.length > 0 ? good.join(',') : 'otlp';
    logger.warn(
      `${name}=${JSON.stringify(raw)}: ${bad.join(', ')} cannot be served (supported: ${allowed.join(', ')}); ` +
        `using ${using}`,
    );
  }
  if (good.length === 0) return ['otlp' as T];
  return good.includes('none' as T) ? [] : good;
}

/** The OTLP protocol for a signal: its own variable, else the general one, else http/protobuf. */
function otlpProtocol(signal: 'TRACES' | 'METRICS'): OtlpProtocol {
  const own = `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`;
  const name = envString(own) !== undefined ? own : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = envString(name);
  if (raw === undefined) return DEFAULT_PROTOCOL;
  const value = raw.toLowerCase() as OtlpProtocol;
  if (PROTOCOLS.includes(value)) return value;
  logger.warn(
    `${name}=${JSON.stringify(raw)} cannot be served (supported: ${PROTOCOLS.join(', ')}); ` +
      `using ${DEFAULT_PROTOCOL}`,
  );
  return DEFAULT_PROTOCOL;
}

function otlpTraceExporter(protocol: OtlpProtocol): SpanExporter {
  if (protocol === 'grpc') return new OtlpGrpcTraceExporter();
  if (protocol === 'http/json') return new OtlpJsonTraceExporter();
  return new OtlpProtoTraceExporter();
}

function otlpMetricExporter(protocol: OtlpProtocol, timeoutMillis: number): PushMetricExporter {
  if (protocol === 'grpc') return new OtlpGrpcMetricExporter({ timeoutMillis });
  if (protocol === 'http/json') return new OtlpJsonMetricExporter({ timeoutMillis });
  return new OtlpProtoMetricExporter({ timeoutMillis });
}

export interface FromEnv<T> {
  items: T[];
  /** What was chosen, for the debug line: e.g. ['otlp (http/protobuf)', 'console']. */
  described: string[];
}

/**
 * The one line said when an OTLP/HTTP endpoint refuses an export (exporter-base's error carries
 * the HTTP status as `code`): which endpoint (as normaliseUrl prints it: no credentials, no
 * query), what it answered, and that the application is not affected.
 */
function refusedBy(
  signal: 'TRACES' | 'METRICS',
  warn: (message: string) => void,
): (status: number, error: Error) => void {
  return (status, error) => {
    const path = signal === 'TRACES' ? 'v1/traces' : 'v1/metrics';
    const base = envString('OTEL_EXPORTER_OTLP_ENDPOINT') ?? 'http://localhost:4318';
    const raw =
      envString(`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`) ?? `${base.replace(/\/+$/, '')}/${path}`;
    const endpoint = normaliseUrl(raw) ?? '(unparsable endpoint)';
    const what = signal === 'TRACES' ? 'spans' : 'metrics';
    const hint =
      signal === 'METRICS' && status === 404
        ? ' (Prometheus 3 receives OTLP only when started with --web.enable-otlp-receiver, at /api/v1/otlp/v1/metrics)'
        : '';
    warn(
      `OTLP ${what} export refused by ${endpoint}: HTTP ${status} ${error.message.slice(0, 200).replace(/\s+/g, ' ')}${hint}; ` +
        `these ${what} are dropped, the application is not affected. Said once; OTEL_LOG_LEVEL=debug logs every failed export.`,
    );
  };
}

/** `warn`: where the one line about a refused export goes (the register's late warning). */
export function spanProcessorsFromEnv(
  warn: (message: string) => void = () => {},
): FromEnv<SpanProcessor> {
  const names = exporterList('OTEL_TRACES_EXPORTER', TRACE_EXPORTERS);
  const protocol = names.includes('otlp') ? otlpProtocol('TRACES') : DEFAULT_PROTOCOL;
  const items = names.map((name): SpanProcessor => {
    if (name === 'console') return new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() });
    const exporter = name === 'zipkin' ? new ZipkinExporter() : otlpTraceExporter(protocol);
    return new DetachedBatchSpanProcessor(
      new DetachedExporter<ReadableSpan[]>(
        exporter,
        name === 'otlp' && protocol !== 'grpc' ? refusedBy('TRACES', warn) : undefined,
      ),
      batchOptions(),
    );
  });
  return { items, described: names.map((n) => (n === 'otlp' ? `otlp (${protocol})` : n)) };
}

export function metricReadersFromEnv(
  warn: (message: string) => void = () => {},
): FromEnv<IMetricReader> {
  const names = exporterList('OTEL_METRICS_EXPORTER', METRIC_EXPORTERS);
  const protocol = names.includes('otlp') ? otlpProtocol('METRICS') : DEFAULT_PROTOCOL;
  const interval = exportInterval();
  const items = names.map((name): IMetricReader => {
    // A pull reader: its server is unref'd by the exporter itself.
    if (name === 'prometheus') return new PrometheusExporter(prometheusOptions());
    // The exporter's own timeout must not outlast the reader's, or exports to a down collector pile
    // up.
    const exporter =
      name === 'console'
        ? new ConsoleMetricExporter()
        : new DetachedMetricExporter(
            otlpMetricExporter(protocol, interval.exportTimeoutMillis ?? 10_000),
            protocol !== 'grpc' ? refusedBy('METRICS', warn) : undefined,
          );
    return new PeriodicExportingMetricReader({ exporter, ...interval });
  });
  return { items, described: names.map((n) => (n === 'otlp' ? `otlp (${protocol})` : n)) };
}

/**
 * OTEL_EXPORTER_PROMETHEUS_HOST / _PORT, passed explicitly: exporter-prometheus 0.2xx reads them
 * itself, 0.30x (OpenTelemetry JS 3.x) leaves it to sdk-node, which reads them the same way.
 */
function prometheusOptions(): { host?: string; port?: number } {
  const host = envString('OTEL_EXPORTER_PROMETHEUS_HOST');
  const rawPort = envString('OTEL_EXPORTER_PROMETHEUS_PORT');
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    logger.warn(
      `invalid OTEL_EXPORTER_PROMETHEUS_PORT ${JSON.stringify(rawPort)}; using the default`,
    );
  }
  return {
    ...(host !== undefined ? { host } : {}),
    ...(port !== undefined && Number.isInteger(port) && port >= 0 && port <= 65535 ? { port } : {}),
  };
}

/**
 * The batch span processor's standard variables, which BatchSpanProcessor of
 * @opentelemetry/sdk-trace 2.x no longer reads itself (NodeSDK reads them for it):
 * OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_EXPORT_TIMEOUT, OTEL_BSP_MAX_QUEUE_SIZE,
 * OTEL_BSP_MAX_EXPORT_BATCH_SIZE. A bad value gets one warning and the default.
 */
export function batchOptions(): BatchOptions {
  const out: BatchOptions = {};
  const delay = envInteger('OTEL_BSP_SCHEDULE_DELAY', 0);
  const timeout = envInteger('OTEL_BSP_EXPORT_TIMEOUT', 1);
  const queue = envInteger('OTEL_BSP_MAX_QUEUE_SIZE', 1);
  const batch = envInteger('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1);
  if (delay !== undefined) out.scheduledDelayMillis = delay;
  if (timeout !== undefined) out.exportTimeoutMillis = timeout;
  if (queue !== undefined) out.maxQueueSize = queue;
  if (batch !== undefined) out.maxExportBatchSize = batch;
  return out;
}

/** An integer variable of at least `min`; unset or empty: undefined; bad: one warning, undefined. */
function envInteger(name: string, min: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    logger.warn(`invalid ${name} ${JSON.stringify(raw)}; using the default`);
    return undefined;
  }
  return n;
}

function exportInterval(): { exportIntervalMillis?: number; exportTimeoutMillis?: number } {
  const n = envInteger('OTEL_METRIC_EXPORT_INTERVAL', 1);
  return n === undefined
    ? {}
    : { exportIntervalMillis: n, exportTimeoutMillis: Math.min(n, 10_000) };
}
