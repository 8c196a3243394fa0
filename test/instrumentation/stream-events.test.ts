/**
 * Long streams of small events against a REAL `@a2a-js/sdk` server (127.0.0.1, port 0) whose
 * executor publishes a scripted sequence (repeated status events, hundreds of appended words,
 * a late part of another media type or a late failure), read by the real SDK client: the span
 * says the same as for any stream (ids, state, version, event count, drift), and the events that
 * repeat what the span already says set nothing on it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import express from 'express';
import { TaskState, type AgentCard, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { drifted, setupOtel, type Harness } from '../helpers/otel';
import { toAgentSkill, type SdkPeer } from '../peers/sdk-peer';
import { collect, createSdkClient, sendRequest } from '../peers/sdk-client';

const SKILL = 'summarize-v2';

/** What the executor publishes after the SUBMITTED task, in order. */
type Step =
  { status: TaskState; said?: string } | { words: string[]; mediaType?: string } | { part: Part };

const text = (value: string, mediaType: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType,
});

let script: Step[] = [];

class ScriptedExecutor implements AgentExecutor {
  cancelTask = async (): Promise<void> => {};
  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    const status = (state: TaskState, said?: string) =>
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state,
          message:
            said === undefined
              ? undefined
              : {
                  messageId: `m-${Math.random()}`,
                  contextId,
                  taskId,
                  role: 2, // ROLE_AGENT
                  parts: [text(said, 'text/plain')],
                  metadata: undefined,
                  extensions: [],
                  referenceTaskIds: [],
                },
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      });
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: '' },
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    let first = true;
    const artifact = (parts: Part[]) => {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: 'answer',
            name: 'answer',
            description: '',
            parts,
            metadata: undefined,
            extensions: [],
          },
          append: !first,
          lastChunk: false,
          metadata: undefined,
        }),
      );
      first = false;
    };
    for (const step of script) {
      await new Promise((r) => setImmediate(r));
      if ('status' in step) bus.publish(status(step.status, step.said));
      else if ('words' in step)
        for (const w of step.words) artifact([text(w, step.mediaType ?? 'text/markdown')]);
      else artifact([step.part]);
    }
    bus.finished();
  };
}

let h: Harness;
let server: http.Server;
let baseUrl: string;
/** Per span: the attributes each `setAttributes` call set, after the span started. */
const writes = new Map<Span, Attributes[]>();

before(async () => {
  h = setupOtel({
    requestHook: (span) => {
      const log: Attributes[] = [];
      writes.set(span, log);
      const set = span.setAttributes.bind(span);
      span.setAttributes = (attrs: Attributes) => {
        log.push({ ...attrs });
        return set(attrs);
      };
    },
  });
  const card: AgentCard = {
    name: 'stream-peer',
    description: 'streams words',
    supportedInterfaces: [],
    provider: undefined,
    version: '1.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/markdown'],
    skills: [
      toAgentSkill({ id: SKILL, inputModes: ['text/plain'], outputModes: ['text/markdown'] }),
    ],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new ScriptedExecutor(),
  );
  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(
    '/a2a/jsonrpc',
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }),
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card.supportedInterfaces.push({
    url: `${baseUrl}/a2a/jsonrpc`,
    protocolBinding: 'JSONRPC',
    tenant: '',
    protocolVersion: '1.0',
  });
});

after(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await h.shutdown();
});

beforeEach(async () => {
  await h.reset();
  writes.clear();
});

const words = (n: number): string[] => Array.from({ length: n }, (_, i) => `word${i} `);

/** One streamed call with `steps`; its SendStreamingMessage span and what was set on it. */
async function stream(steps: Step[]) {
  script = steps;
  const client = await createSdkClient({ baseUrl } as SdkPeer, 'jsonrpc');
  const received = await collect(client.sendMessageStream(sendRequest(SKILL)));
  const [span] = (
    await h.waitForSpans((s) => s.some((x) => x.name === 'SendStreamingMessage'))
  ).filter((s) => s.name === 'SendStreamingMessage');
  const log = [...writes.entries()].find(
    ([s]) => s.spanContext().spanId === span.spanContext().spanId,
  );
  assert.ok(log, 'the span went through the request hook');
  return { span, received: received.length, log: log[1] };
}

/** How many `setAttributes` calls set `key`, and to what. */
const setsOf = (log: Attributes[], key: string): unknown[] =>
  log.filter((a) => key in a).map((a) => a[key]);

test('a long stream with repeated events: the same span, and nothing set for an event that repeats', async () => {
  const steps: Step[] = [
    { status: TaskState.TASK_STATE_WORKING },
    { status: TaskState.TASK_STATE_WORKING },
    { status: TaskState.TASK_STATE_WORKING },
    { words: words(300) },
    { status: TaskState.TASK_STATE_WORKING },
    { words: ['again ', 'again ', 'again '] },
    { status: TaskState.TASK_STATE_COMPLETED },
  ];
  const { span, received, log } = await stream(steps);
  const a = span.attributes;
  assert.equal(received, 1 + 4 + 300 + 3 + 1, 'every event reached the app');
  assert.equal(a['a2a.stream.event_count'], received);
  assert.equal(a['a2a.task.state'], 'TASK_STATE_COMPLETED');
  assert.equal(typeof a['a2a.task.id'], 'string');
  assert.equal(typeof a['gen_ai.conversation.id'], 'string');
  assert.equal(a['a2a.protocol.version'], '1.0');
  assert.equal(a['a2a.drift.unjudged_reason'], undefined);
  assert.equal(a['a2a.drift.kind'], undefined);
  assert.notEqual(span.status.code, SpanStatusCode.ERROR);
  assert.equal(drifted(h.spans()).length, 0);
  // Set when it changed, not per event: SUBMITTED, WORKING, COMPLETED.
  assert.deepEqual(setsOf(log, 'a2a.task.state'), [
    'TASK_STATE_SUBMITTED',
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
  ]);
  assert.equal(setsOf(log, 'gen_ai.conversation.id').length, 1);
  assert.ok(setsOf(log, 'a2a.protocol.version').length <= 1);
  assert.ok(log.length < 12, `${log.length} setAttributes calls for ${received} events`);
});

test('a late part of another media type after hundreds of words: output_mode_mismatch', async () => {
  const { span, received } = await stream([
    { status: TaskState.TASK_STATE_WORKING },
    { words: words(200) },
    { words: ['plain '], mediaType: 'text/plain' },
    { words: words(5) },
    { status: TaskState.TASK_STATE_COMPLETED },
  ]);
  assert.equal(span.attributes['a2a.stream.event_count'], received);
  assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(span.attributes['a2a.drift.actual_media_type'], 'text/plain');
  assert.deepEqual(span.attributes['a2a.drift.expected_output_modes'], ['text/markdown']);
  assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_COMPLETED');
  assert.equal(span.status.code, SpanStatusCode.ERROR);
});

test('a late data part where the card allows text/markdown only: output_mode_mismatch', async () => {
  const { span } = await stream([
    { words: words(50) },
    {
      part: {
        content: { $case: 'data', value: { rows: 3 } },
        metadata: undefined,
        filename: '',
        mediaType: '',
      },
    },
    { status: TaskState.TASK_STATE_COMPLETED },
  ]);
  assert.equal(span.attributes['a2a.drift.kind'], 'output_mode_mismatch');
  assert.equal(span.attributes['a2a.drift.actual_media_type'], 'application/json');
});

test('a late failure saying the skill is unknown after hundreds of words: unknown_skill, state FAILED', async () => {
  const { span, received } = await stream([
    { status: TaskState.TASK_STATE_WORKING },
    { words: words(200) },
    { status: TaskState.TASK_STATE_WORKING },
    { status: TaskState.TASK_STATE_FAILED, said: `unknown skill: ${SKILL}` },
  ]);
  assert.equal(span.attributes['a2a.stream.event_count'], received);
  assert.equal(span.attributes['a2a.drift.kind'], 'unknown_skill');
  assert.equal(span.attributes['a2a.task.state'], 'TASK_STATE_FAILED');
  assert.equal(span.attributes['error.type'], 'StaleAgentCardError');
});

test('a phrase naming the skill as missing split across appended words: suspected, the card says otherwise', async () => {
  const { span } = await stream([
    { words: words(100) },
    { words: ['unkn', 'own sk', 'ill: summ', 'arize-v2', ' sorry'] },
    { status: TaskState.TASK_STATE_COMPLETED },
  ]);
  // Content evidence: a suspicion the card fetched again (it still lists the skill) refutes.
  const until = Date.now() + 3000;
  let s = span;
  while (s.attributes['a2a.drift.unconfirmed'] === undefined && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    s = h.spans('SendStreamingMessage')[0] ?? s;
  }
  assert.equal(s.attributes['a2a.drift.unconfirmed'], 'unknown_skill');
  assert.equal(s.attributes['a2a.drift.kind'], undefined);
});

test("a model's words are decoded from their bytes: JSON.parse runs about once per event (the SDK client's), not twice", async () => {
  const parse = JSON.parse;
  let calls = 0;
  JSON.parse = function counted(this: unknown, ...args: Parameters<typeof JSON.parse>) {
    calls++;
    return parse.apply(this, args);
  } as typeof JSON.parse;
  let result: Awaited<ReturnType<typeof stream>>;
  try {
    result = await stream([
      { status: TaskState.TASK_STATE_WORKING },
      { words: words(300) },
      { status: TaskState.TASK_STATE_COMPLETED },
    ]);
  } finally {
    JSON.parse = parse;
  }
  const { span, received } = result;
  assert.equal(span.attributes['a2a.stream.event_count'], received);
  assert.equal(span.attributes['a2a.drift.unjudged_reason'], undefined);
  // The SDK client parses every event once; reading each as well would double it.
  assert.ok(calls >= received, `${calls} parses for ${received} events: the client's are counted`);
  assert.ok(calls < received * 1.2, `${calls} parses for ${received} events`);
});
