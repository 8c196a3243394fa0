/**
 * A call's span is complete when the app holds the result it describes: an app with its own
 * tracer provider that calls `forceFlush()` right after its last A2A call (no turn of the event
 * loop in between) exports that call's span, judged. Own tracer providers with a
 * SimpleSpanProcessor and a BatchSpanProcessor, observe and enforce mode, the real
 * @a2a-js/sdk client over global fetch (JSON-RPC and HTTP+JSON), and `undici.request`.
 *
 * Before judging JSON answers at once, observe mode judged them one turn after the app had
 * them, and this flush missed the span.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import type * as UndiciNs from 'undici';
import { A2AInstrumentation } from '../../src/index';
import { startSdkPeer, SUMMARIZE_PLAIN_SKILL, type SdkPeer } from '../peers/sdk-peer';
import { asTask, collect, createSdkClient, sendRequest } from '../peers/sdk-client';
import { JSON_RPC_1_0_HEADERS, jsonRpcSendBody } from '../peers/wire';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici: typeof UndiciNs = require('undici');

const cm = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(cm);

let peer: SdkPeer;
let instrumentation: A2AInstrumentation;

before(async () => {
  instrumentation = new A2AInstrumentation({ driftCallbackDebounceMs: 0, serverSpans: false });
  instrumentation.enable();
});

after(async () => {
  instrumentation.disable();
  context.disable();
});

type Processor = 'simple' | 'batch';

/** The app's own provider, as an app that owns its SDK makes it. */
function ownProvider(kind: Processor): {
  provider: TracerProvider;
  exporter: InMemorySpanExporter;
} {
  const exporter = new InMemorySpanExporter();
  const processor =
    kind === 'simple'
      ? new SimpleSpanProcessor({ exporter })
      : new BatchSpanProcessor({ exporter, scheduledDelayMillis: 60_000 });
  // The SDK's TracerProvider with the AsyncLocalStorage context manager set above: what
  // NodeTracerProvider is on the 2.x line (and all there is on the 3.x line).
  const provider = new TracerProvider({ spanProcessors: [processor] });
  instrumentation.setTracerProvider(provider);
  return { provider, exporter };
}

const sendMessages = (spans: ReadableSpan[]) => spans.filter((s) => s.name === 'SendMessage');

/** An undici.request JSON-RPC SendMessage for `skillId`, body read as the app reads it. */
async function undiciSend(skillId: string): Promise<unknown> {
  const res = await undici.request(peer.jsonRpcUrl, {
    method: 'POST',
    headers: JSON_RPC_1_0_HEADERS,
    body: jsonRpcSendBody(skillId),
  });
  return res.body.json();
}

for (const mode of ['observe', 'enforce'] as const) {
  describe(`${mode} mode`, () => {
    before(async () => {
      instrumentation.setConfig({ mode, driftCallbackDebounceMs: 0, serverSpans: false });
      peer = await startSdkPeer({
        name: `flush-${mode}`,
        streaming: true,
        behaviour: { settleDelayMs: 0 },
      });
    });
    after(async () => {
      await peer.close();
    });

    for (const kind of ['simple', 'batch'] as const) {
      for (const transport of ['jsonrpc', 'rest'] as const) {
        test(`SDK client over fetch (${transport}), ${kind} processor: forceFlush right after the call exports its judged span`, async () => {
          const { provider, exporter } = ownProvider(kind);
          try {
            const client = await createSdkClient(peer, transport);
            const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
            const appGotIt = performance.timeOrigin + performance.now();
            await provider.forceFlush();
            const [span, ...more] = sendMessages(exporter.getFinishedSpans());
            assert.ok(span, 'the last SendMessage span was exported by the flush');
            assert.equal(more.length, 0);
            assert.equal(span.attributes['a2a.task.id'], task.id);
            assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
            assert.equal(span.attributes['a2a.skill.id'], 'summarize-v2');
            assert.equal(span.attributes['a2a.drift.kind'], undefined);
            assert.ok(
              hrTimeToMilliseconds(span.endTime) <= appGotIt + 1,
              'ended before the app had the result',
            );
          } finally {
            await provider.shutdown();
          }
        });
      }

      test(`SDK client stream, ${kind} processor: forceFlush right after the stream's end exports its judged span`, async () => {
        const { provider, exporter } = ownProvider(kind);
        try {
          const client = await createSdkClient(peer, 'jsonrpc');
          const events = await collect(client.sendMessageStream(sendRequest('summarize-v2')));
          assert.ok(events.length > 0);
          await provider.forceFlush();
          const spans = exporter
            .getFinishedSpans()
            .filter((s) => s.name === 'SendStreamingMessage');
          assert.equal(spans.length, 1, 'the stream span was exported by the flush');
          assert.equal(spans[0]!.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
          assert.equal(spans[0]!.attributes['a2a.skill.id'], 'summarize-v2');
        } finally {
          await provider.shutdown();
        }
      });

      test(`undici.request, ${kind} processor: forceFlush right after the body is read exports the judged span`, async () => {
        const { provider, exporter } = ownProvider(kind);
        try {
          // the card first: the call is judged against it
          await undici
            .request(peer.cardUrl, { headers: { 'a2a-version': '1.0' } })
            .then((r) => r.body.json());
          const answer = (await undiciSend('summarize-v2')) as {
            result?: { task?: { id?: string } };
          };
          await provider.forceFlush();
          const [span] = sendMessages(exporter.getFinishedSpans());
          assert.ok(span, 'the last SendMessage span was exported by the flush');
          assert.equal(span.attributes['a2a.task.id'], answer.result?.task?.id);
          assert.equal(span.attributes['a2a.skill.id'], 'summarize-v2');
          assert.equal(span.attributes['a2a.drift.kind'], undefined);
        } finally {
          await provider.shutdown();
        }
      });

      test(`a drifting answer (other output modes), ${kind} processor: the flushed span carries the verdict`, async () => {
        const { provider, exporter } = ownProvider(kind);
        const skills = peer.card.skills.map((s) => ({ ...s }));
        try {
          const client = await createSdkClient(peer, 'jsonrpc');
          peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
          const sent = client.sendMessage(sendRequest('summarize-v2'));
          if (mode === 'enforce') await assert.rejects(sent);
          else await sent;
          await provider.forceFlush();
          const [span] = sendMessages(exporter.getFinishedSpans());
          assert.ok(span, 'the drifting call was exported by the flush');
          assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
        } finally {
          peer.redeploy(skills as never);
          await provider.shutdown();
        }
      });
    }
  });
}
