/**
 * The real OpenTelemetry SDK with in-memory exporters, and one A2AInstrumentation
 * enabled against it, for the instrumentation tests.
 */
import { context, trace, metrics, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { MeterProvider, MetricReader, DataPointType } from '@opentelemetry/sdk-metrics';
import { A2AInstrumentation, type A2AInstrumentationConfig } from '../../src/index';
import { sharedState } from '../../src/telemetry/shared-state';
import { parseAllPending } from '../../src/core/body-reader';

class TestMetricReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Harness {
  exporter: InMemorySpanExporter;
  provider: TracerProvider;
  instrumentation: A2AInstrumentation;
  spans(name?: string): ReadableSpan[];
  waitForSpans(
    predicate: (spans: ReadableSpan[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReadableSpan[]>;
  /** Spans started and not yet ended (a span held open for a confirming card fetch, say). */
  openSpans(): number;
  /** Drift counter increments since the last reset (the counter itself is cumulative). */
  driftCount(attrs?: Attributes): Promise<number>;
  /** The package's own card requests (a2a.client.card_requests) since the last reset. */
  cardRequestCount(attrs?: Attributes): Promise<number>;
  reset(): Promise<void>;
  shutdown(): Promise<void>;
}

let contextManagerSet = false;
/** The key a counter point's metric name is kept under among its attributes (harness only). */
const METRIC_NAME = '\u0000metric';

export function setupOtel(config: A2AInstrumentationConfig = {}): Harness {
  if (!contextManagerSet) {
    const cm = new AsyncLocalStorageContextManager();
    cm.enable();
    context.setGlobalContextManager(cm);
    contextManagerSet = true;
  }
  const exporter = new InMemorySpanExporter();
  // counts spans in flight; after the exporter's processor, so an ended span is exported first
  let open = 0;
  const openCounter: SpanProcessor = {
    onStart: () => void open++,
    onEnd: () => void open--,
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter }), openCounter],
  });
  trace.setGlobalTracerProvider(provider);
  const reader = new TestMetricReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  // The peers of these tests run in this process: the agent's side (SERVER spans of the peers'
  // answers, their loopback card requests) only where a test asks for it.
  const instrumentation = new A2AInstrumentation({
    driftCallbackDebounceMs: 0,
    serverSpans: false,
    ...config,
  });
  // (a test's setConfig replaces the whole config: the agent's side stays off unless it says)
  const setConfig = instrumentation.setConfig.bind(instrumentation);
  instrumentation.setConfig = (c = {}) => setConfig({ serverSpans: false, ...c });
  instrumentation.setTracerProvider(provider);
  instrumentation.setMeterProvider(meterProvider);
  instrumentation.enable();

  let baseline: Array<{ attributes: Attributes; value: number }> = [];
  // A stream's held events are judged by the next chunk, its end or an idle timer (observe
  // mode): what a test reads right after a chunk is what the app's next turn would see.
  const spans = (name?: string) => {
    parseAllPending();
    return exporter.getFinishedSpans().filter((s) => name === undefined || s.name === name);
  };
  return {
    exporter,
    provider,
    instrumentation,
    spans,
    openSpans: () => open,
    async waitForSpans(predicate, timeoutMs = 3000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const all = spans();
        if (predicate(all)) return all;
        if (Date.now() > until) {
          throw new Error(
            `spans not as expected after ${timeoutMs} ms: ${JSON.stringify(
              all.map((s) => ({ name: s.name, attrs: s.attributes })),
              null,
              1,
            )}`,
          );
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async driftCount(attrs = {}) {
      parseAllPending();
      return (await driftTotal(attrs)) - (await baselineFor(attrs));
    },
    async cardRequestCount(attrs = {}) {
      const named = { [METRIC_NAME]: 'a2a.client.card_requests', ...attrs };
      return sum(await points(), named) - sum(baseline, named);
    },
    async reset() {
      parseAllPending(); // the previous test's last responses belong to it
      baseline = await points();
      exporter.reset();
      const s = sharedState();
      s.cards.clear();
      s.negotiations.clear();
      s.pushes?.clear();
      s.lastDispatch.clear();
    },
    async shutdown() {
      instrumentation.disable();
      await provider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
    },
  };

  /** The counters' points, each with its metric's name under METRIC_NAME among its attributes. */
  async function points(): Promise<Array<{ attributes: Attributes; value: number }>> {
    const { resourceMetrics } = await reader.collect();
    const out: Array<{ attributes: Attributes; value: number }> = [];
    for (const sm of resourceMetrics.scopeMetrics) {
      for (const m of sm.metrics) {
        if (m.dataPointType !== DataPointType.SUM) continue;
        for (const dp of m.dataPoints)
          out.push({
            attributes: { ...dp.attributes, [METRIC_NAME]: m.descriptor.name },
            value: dp.value as number,
          });
      }
    }
    return out;
  }
  function sum(list: Array<{ attributes: Attributes; value: number }>, attrs: Attributes): number {
    let total = 0;
    for (const dp of list)
      if (Object.entries(attrs).every(([k, v]) => dp.attributes[k] === v)) total += dp.value;
    return total;
  }
  async function driftTotal(attrs: Attributes): Promise<number> {
    return sum(await points(), { [METRIC_NAME]: 'a2a.client.card_drift', ...attrs });
  }
  async function baselineFor(attrs: Attributes): Promise<number> {
    return sum(baseline, { [METRIC_NAME]: 'a2a.client.card_drift', ...attrs });
  }
}

/** Spans that carry a drift verdict. */
export function drifted(spans: ReadableSpan[]): ReadableSpan[] {
  return spans.filter((s) => s.attributes['a2a.drift.kind'] !== undefined);
}

/** A2A calls the instrumentation has started and not yet ended (its private ActiveCalls). */
export function activeCallCount(h: Harness): number {
  const calls = (h.instrumentation as unknown as { activeCalls?: { size?: unknown } }).activeCalls;
  if (calls === undefined) return 0; // never enabled
  // A renamed field must fail the tests that count on it, not make them count zero.
  if (typeof calls.size !== 'number') throw new Error('A2AInstrumentation.activeCalls has no size');
  return calls.size;
}
