/**
 * Proves the reusable test peers work:
 *   cd /work/main && node --import tsx --test test/peers.test.ts
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TaskState } from '@a2a-js/sdk';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPTraceExporterProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';

import {
  startSdkPeer,
  TRANSLATE_SKILL,
  SUMMARIZE_PLAIN_SKILL,
  LONG_STREAM_SKILL,
  DEFAULT_SKILL,
  type SdkPeer,
} from './peers/sdk-peer';
import { createSdkClient, sendRequest, asTask, messageText, collect } from './peers/sdk-client';
import {
  startRawV01Peer,
  V01_TRANSLATE_SKILL,
  type RawV01Peer,
  type V01Task,
} from './peers/raw-v01-peer';
import { startOtlpReceiver, type OtlpReceiver } from './peers/otlp-receiver';
import { parseSse, recordingFetch } from './peers/wire';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function withSdkPeer(
  fn: (peer: SdkPeer) => Promise<void>,
  opts: Parameters<typeof startSdkPeer>[0] = {},
): Promise<void> {
  const peer = await startSdkPeer(opts);
  try {
    await fn(peer);
  } finally {
    await peer.close();
  }
}

async function withV01Peer(
  fn: (peer: RawV01Peer) => Promise<void>,
  opts: Parameters<typeof startRawV01Peer>[0] = {},
): Promise<void> {
  const peer = await startRawV01Peer(opts);
  try {
    await fn(peer);
  } finally {
    await peer.close();
  }
}

async function rpc(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
  id: number | string = 1,
): Promise<Json> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}

function firstArtifactPart(task: Task): { text: string; mediaType: string } {
  const part = task.artifacts[0]?.parts[0];
  assert.ok(part, 'task has an artifact part');
  assert.equal(part.content?.$case, 'text');
  return {
    text: part.content?.$case === 'text' ? part.content.value : '',
    mediaType: part.mediaType,
  };
}

function stateOf(ev: StreamResponse): TaskState | undefined {
  const p = ev.payload;
  if (p?.$case === 'task') return p.value.status?.state;
  if (p?.$case === 'statusUpdate') return p.value.status?.state;
  return undefined;
}

// ============================================================== SDK peer, 1.0

describe('sdk-peer (real @a2a-js/sdk server) with the real SDK client, A2A 1.0', () => {
  it('serves the 1.0 card by reference with Cache-Control and an ETag', async () => {
    await withSdkPeer(async (peer) => {
      const res = await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
      const etag1 = res.headers.get('etag');
      assert.ok(etag1);
      const card = (await res.json()) as Json;
      assert.equal(card['version'], '1.0');
      assert.equal(card['url'], undefined, '1.0 cards have no top-level url');
      assert.deepEqual(
        card['skills'].map((s: Json) => [s.id, s.outputModes]),
        [['summarize-v2', ['text/markdown']]],
      );
      assert.equal(card['supportedInterfaces'][0].url, peer.jsonRpcUrl);
      assert.equal(card['supportedInterfaces'][0].protocolBinding, 'JSONRPC');
      assert.equal(card['supportedInterfaces'][1].url, peer.restUrl);

      const skillsArray = peer.card.skills;
      peer.redeploy([TRANSLATE_SKILL]);
      assert.equal(peer.card.skills, skillsArray, 'skills mutated in place');
      const res2 = await fetch(peer.cardUrl, { headers: { 'A2A-Version': '1.0' } });
      const card2 = (await res2.json()) as Json;
      assert.equal(card2['version'], '1.0', 'version unchanged');
      assert.deepEqual(
        card2['skills'].map((s: Json) => s.id),
        ['translate-v1'],
      );
      assert.notEqual(
        res2.headers.get('etag'),
        etag1,
        'the SDK ETag is a body hash, so it does change',
      );
      assert.equal(peer.cardFetches, 2);
    });
  });

  it('healthy SendMessage completes with a text/markdown artifact; skillId travels in params.metadata', async () => {
    await withSdkPeer(async (peer) => {
      const rec = recordingFetch();
      const client = await createSdkClient(peer, 'jsonrpc', { fetchImpl: rec.fetch });
      const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      const part = firstArtifactPart(task);
      assert.equal(part.mediaType, 'text/markdown');
      assert.match(part.text, /summarize-v2/);

      // Wire: card GET with A2A-Version 1.0, then POST SendMessage to the JSON-RPC url.
      assert.equal(rec.exchanges[0]?.url, peer.cardUrl);
      assert.equal(rec.exchanges[0]?.requestHeaders['a2a-version'], '1.0');
      const post = rec.exchanges[1];
      assert.ok(post);
      assert.equal(post.url, peer.jsonRpcUrl);
      const body = JSON.parse(post.requestBody ?? '{}') as Json;
      assert.equal(body['method'], 'SendMessage');
      assert.equal(body['params'].metadata.skillId, 'summarize-v2');
      assert.equal(body['params'].message.metadata.skillId, 'summarize-v2');
      // SDK client is blocking by default; proto3 JSON omits the `false` default, so the wire has `configuration: {}`.
      assert.deepEqual(body['params'].configuration, {});
      const wire = JSON.parse(await post.responseBody) as Json;
      assert.equal(wire['result'].task.status.state, 'TASK_STATE_COMPLETED');
      assert.deepEqual(wire['result'].task.artifacts[0].parts[0].mediaType, 'text/markdown');

      assert.equal(peer.executions[0]?.skillIdSource, 'request-metadata');
      assert.equal(peer.executions[0]?.requestedVersion, '1.0');
    });
  });

  it('variant A: after redeploy to translate-v1 a cached client gets a FAILED task "unknown skill", no JSON-RPC error', async () => {
    await withSdkPeer(async (peer) => {
      const rec = recordingFetch();
      const client = await createSdkClient(peer, 'jsonrpc', { fetchImpl: rec.fetch });
      peer.redeploy([TRANSLATE_SKILL]);
      // The client still holds the old card (fetched once, no revalidation).
      const cached = await client.getAgentCard();
      assert.deepEqual(
        cached.skills.map((s) => s.id),
        ['summarize-v2'],
      );

      const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
      assert.equal(messageText(task.status?.message), 'unknown skill: summarize-v2');
      assert.equal(task.artifacts.length, 0);

      const wire = JSON.parse(
        await (rec.exchanges.at(-1)?.responseBody ?? Promise.resolve('{}')),
      ) as Json;
      assert.equal(wire['error'], undefined, 'no JSON-RPC error');
      assert.equal(wire['result'].task.status.state, 'TASK_STATE_FAILED');
      assert.equal(wire['result'].task.status.message.parts[0].text, 'unknown skill: summarize-v2');
      assert.equal(peer.executions.at(-1)?.outcome, 'failed');
    });
  });

  it('returnImmediately: SendMessage answers SUBMITTED, then GetTask shows FAILED (request flag, ClientConfig.polling, server force)', async () => {
    await withSdkPeer(async (peer) => {
      peer.redeploy([TRANSLATE_SKILL]);
      peer.setBehaviour({ settleDelayMs: 30 });

      const pollUntilTerminal = async (
        client: Awaited<ReturnType<typeof createSdkClient>>,
        id: string,
      ): Promise<Task> => {
        for (let i = 0; i < 100; i++) {
          const t = await client.getTask({ tenant: '', id });
          if (
            t.status?.state === TaskState.TASK_STATE_FAILED ||
            t.status?.state === TaskState.TASK_STATE_COMPLETED
          )
            return t;
          await sleep(10);
        }
        throw new Error('task never reached a terminal state');
      };

      // (1) per request: configuration.returnImmediately = true
      const client = await createSdkClient(peer, 'jsonrpc');
      const first = asTask(
        await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: true })),
      );
      assert.equal(first.status?.state, TaskState.TASK_STATE_SUBMITTED);
      const polled = await pollUntilTerminal(client, first.id);
      assert.equal(polled.status?.state, TaskState.TASK_STATE_FAILED);
      assert.match(messageText(polled.status?.message), /unknown skill/);

      // (2) ClientConfig.polling = true
      const pollingClient = await createSdkClient(peer, 'jsonrpc', {
        clientConfig: { polling: true },
      });
      const t2 = asTask(await pollingClient.sendMessage(sendRequest('summarize-v2')));
      assert.equal(t2.status?.state, TaskState.TASK_STATE_SUBMITTED);

      // (3) server-side force, client asks for blocking
      peer.setBehaviour({ returnImmediately: true });
      const t3 = asTask(
        await client.sendMessage(sendRequest('summarize-v2', { returnImmediately: false })),
      );
      assert.equal(t3.status?.state, TaskState.TASK_STATE_SUBMITTED);
      assert.equal(
        (await pollUntilTerminal(client, t3.id)).status?.state,
        TaskState.TASK_STATE_FAILED,
      );
    });
  });

  it('variant B: same skill id redeployed with text/plain output → artifact comes back text/plain, card version unchanged', async () => {
    await withSdkPeer(async (peer) => {
      const client = await createSdkClient(peer, 'jsonrpc');
      const before = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(firstArtifactPart(before).mediaType, 'text/markdown');

      peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
      const after = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(after.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(firstArtifactPart(after).mediaType, 'text/plain');
      assert.equal(peer.card.version, '1.0');
      // the client's cached card still advertises text/markdown
      assert.deepEqual((await client.getAgentCard()).skills[0]?.outputModes, ['text/markdown']);
    });
  });

  it('message-metadata skillId alone is honoured; no skill id routes to the first skill of the current card', async () => {
    await withSdkPeer(async (peer) => {
      const client = await createSdkClient(peer, 'jsonrpc');
      const t1 = asTask(
        await client.sendMessage(sendRequest('translate-v1', { inRequestMetadata: false })),
      );
      assert.equal(t1.status?.state, TaskState.TASK_STATE_FAILED);
      assert.equal(peer.executions[0]?.skillIdSource, 'message-metadata');
      const t2 = asTask(await client.sendMessage(sendRequest(undefined)));
      assert.equal(t2.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(peer.executions[1]?.skillIdSource, 'default');
      assert.equal(peer.executions[1]?.skillId, 'summarize-v2');
    });
  });

  it('HTTP+JSON (REST) 1.0: POST /message:send answers {task}, GET /tasks/{id} a bare Task', async () => {
    await withSdkPeer(async (peer) => {
      const rec = recordingFetch();
      const client = await createSdkClient(peer, 'rest', { fetchImpl: rec.fetch });
      assert.equal(client.transport.protocolName, 'HTTP+JSON');
      const task = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(firstArtifactPart(task).mediaType, 'text/markdown');
      const post = rec.exchanges.find((e) => e.method === 'POST');
      assert.ok(post);
      assert.equal(post.url, `${peer.restUrl}/message:send`);
      assert.match(post.responseHeaders['content-type'] ?? '', /application\/a2a\+json/);
      const wire = JSON.parse(await post.responseBody) as Json;
      assert.equal(wire['task'].status.state, 'TASK_STATE_COMPLETED');

      const got = await client.getTask({ tenant: '', id: task.id });
      assert.equal(got.id, task.id);
      const getEx = rec.exchanges.at(-1);
      assert.equal(getEx?.url.startsWith(`${peer.restUrl}/tasks/${task.id}`), true);
      const bare = JSON.parse((await getEx?.responseBody) ?? '{}') as Json;
      assert.equal(bare['id'], task.id, 'GetTask answers a bare Task');
      assert.equal(bare['status'].state, 'TASK_STATE_COMPLETED');
    });
  });

  it('streaming (JSON-RPC and REST): task, WORKING, N artifact chunks, COMPLETED; unknown skill streams SUBMITTED then FAILED', async () => {
    await withSdkPeer(
      async (peer) => {
        peer.setBehaviour({ artifactChunks: { [LONG_STREAM_SKILL.id]: 5 }, chunkDelayMs: 1 });
        for (const transport of ['jsonrpc', 'rest'] as const) {
          const client = await createSdkClient(peer, transport);
          const events = await collect(client.sendMessageStream(sendRequest(LONG_STREAM_SKILL.id)));
          assert.equal(events[0]?.payload?.$case, 'task');
          assert.equal(stateOf(events[0] as StreamResponse), TaskState.TASK_STATE_SUBMITTED);
          const artifacts = events.filter((e) => e.payload?.$case === 'artifactUpdate');
          assert.equal(artifacts.length, 5, transport);
          const last = artifacts.at(-1)?.payload;
          assert.ok(last?.$case === 'artifactUpdate' && last.value.lastChunk && last.value.append);
          assert.equal(stateOf(events.at(-1) as StreamResponse), TaskState.TASK_STATE_COMPLETED);

          const failed = await collect(client.sendMessageStream(sendRequest('nope-v9')));
          assert.deepEqual(failed.map(stateOf), [
            TaskState.TASK_STATE_SUBMITTED,
            TaskState.TASK_STATE_FAILED,
          ]);
        }

        // Raw wire of the 1.0 JSON-RPC stream.
        const res = await fetch(peer.jsonRpcUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'A2A-Version': '1.0',
            accept: 'text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'SendStreamingMessage',
            params: {
              message: { messageId: 'raw-1', role: 'ROLE_USER', parts: [{ text: 'x' }] },
              metadata: { skillId: 'summarize-v2' },
            },
          }),
        });
        assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
        const sse = parseSse(await res.text()).map((e) => JSON.parse(e.data) as Json);
        assert.deepEqual(
          sse.map((e) => Object.keys(e['result'])[0]),
          ['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate'],
        );
        assert.ok(sse.every((e) => e['jsonrpc'] === '2.0' && e['id'] === 7));
        assert.equal(
          sse[2]?.['result'].artifactUpdate.artifact.parts[0].mediaType,
          'text/markdown',
        );
        assert.equal(sse[3]?.['result'].statusUpdate.status.state, 'TASK_STATE_COMPLETED');
        assert.equal(sse[3]?.['result'].statusUpdate.final, undefined, '1.0 has no final flag');
      },
      { skills: [DEFAULT_SKILL, LONG_STREAM_SKILL] },
    );
  });
});

// ============================================================== SDK peer, 0.3 compat layer

describe('sdk-peer 0.3 legacy compatibility layer', () => {
  it('serves a 0.3 card without A2A-Version and the 1.0 card with A2A-Version: 1.0 at v03CardUrl', async () => {
    await withSdkPeer(async (peer) => {
      const legacy = (await (await fetch(peer.v03CardUrl)).json()) as Json;
      assert.equal(legacy['protocolVersion'], '0.3');
      assert.equal(legacy['url'], peer.v03JsonRpcUrl);
      assert.equal(legacy['preferredTransport'], 'JSONRPC');
      assert.deepEqual(legacy['additionalInterfaces'], [
        { url: peer.v03RestUrl, transport: 'HTTP+JSON' },
      ]);
      assert.equal(legacy['version'], '1.0');
      assert.deepEqual(legacy['skills'][0].outputModes, ['text/markdown']);
      const modern = (await (
        await fetch(peer.v03CardUrl, { headers: { 'A2A-Version': '1.0' } })
      ).json()) as Json;
      assert.equal(modern['url'], undefined);
      assert.ok(Array.isArray(modern['supportedInterfaces']));
    });
  });

  it('SDK client over 0.3 JSON-RPC and 0.3 REST: completes, then fails with "unknown skill" after redeploy', async () => {
    await withSdkPeer(async (peer) => {
      const rec = recordingFetch();
      const client = await createSdkClient(peer, 'v03-jsonrpc', { fetchImpl: rec.fetch });
      assert.equal(client.protocolVersion, '0.3');
      const ok = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(ok.status?.state, TaskState.TASK_STATE_COMPLETED);
      const post = rec.exchanges.find((e) => e.method === 'POST');
      assert.ok(post);
      assert.equal(post.url, peer.v03JsonRpcUrl);
      assert.equal(post.requestHeaders['a2a-version'], '0.3');
      const req = JSON.parse(post.requestBody ?? '{}') as Json;
      assert.equal(req['method'], 'message/send');
      assert.equal(req['params'].metadata.skillId, 'summarize-v2');
      assert.equal(req['params'].configuration.blocking, true);
      const wire = JSON.parse(await post.responseBody) as Json;
      assert.equal(wire['result'].kind, 'task');
      assert.equal(wire['result'].status.state, 'completed');
      assert.deepEqual(wire['result'].artifacts[0].parts[0], {
        kind: 'text',
        text: wire['result'].artifacts[0].parts[0].text,
      });

      peer.redeploy([TRANSLATE_SKILL]);
      const failed = asTask(await client.sendMessage(sendRequest('summarize-v2')));
      assert.equal(failed.status?.state, TaskState.TASK_STATE_FAILED);
      assert.equal(messageText(failed.status?.message), 'unknown skill: summarize-v2');
      const wire2 = JSON.parse(
        await (rec.exchanges.at(-1)?.responseBody ?? Promise.resolve('{}')),
      ) as Json;
      assert.equal(wire2['error'], undefined);
      assert.equal(wire2['result'].status.state, 'failed');
      assert.equal(wire2['result'].status.message.parts[0].text, 'unknown skill: summarize-v2');

      const restClient = await createSdkClient(peer, 'v03-rest');
      assert.equal(restClient.protocolVersion, '0.3');
      const viaRest = asTask(await restClient.sendMessage(sendRequest('translate-v1')));
      assert.equal(viaRest.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(peer.executions.at(-1)?.requestedVersion, '0.3');
    });
  });

  it('0.3 JSON-RPC raw: blocking=false answers submitted, tasks/get then failed; message/stream has kind + final', async () => {
    await withSdkPeer(async (peer) => {
      peer.redeploy([TRANSLATE_SKILL]);
      peer.setBehaviour({ settleDelayMs: 20 });
      const msg = {
        kind: 'message',
        messageId: 'v03-1',
        role: 'user',
        parts: [{ kind: 'text', text: 'hi' }],
      };
      const sent = await rpc(peer.v03JsonRpcUrl, 'message/send', {
        message: msg,
        metadata: { skillId: 'summarize-v2' },
        configuration: { blocking: false },
      });
      assert.equal(sent['result'].kind, 'task');
      assert.equal(sent['result'].status.state, 'submitted');
      let got: Json = {};
      for (let i = 0; i < 100; i++) {
        got = await rpc(peer.v03JsonRpcUrl, 'tasks/get', { id: sent['result'].id });
        if (got['result'].status.state !== 'submitted') break;
        await sleep(10);
      }
      assert.equal(got['result'].status.state, 'failed');
      assert.equal(got['result'].status.message.parts[0].text, 'unknown skill: summarize-v2');

      const res = await fetch(peer.v03JsonRpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'message/stream',
          params: {
            message: { ...msg, messageId: 'v03-2' },
            metadata: { skillId: 'translate-v1' },
          },
        }),
      });
      const events = parseSse(await res.text()).map((e) => JSON.parse(e.data) as Json);
      assert.deepEqual(
        events.map((e) => e['result'].kind),
        ['task', 'status-update', 'artifact-update', 'status-update'],
      );
      assert.equal(events[1]?.['result'].final, false);
      assert.equal(events[3]?.['result'].final, true);
      assert.equal(events[3]?.['result'].status.state, 'completed');
    });
  });
});

// ============================================================== raw 0.1 peer

async function pollV01(peer: RawV01Peer, id: string): Promise<V01Task> {
  for (let i = 0; i < 200; i++) {
    const r = await rpc(peer.rpcUrl, 'tasks/get', { id }, {}, `get-${i}`);
    const t = r['result'] as V01Task;
    if (['completed', 'failed', 'canceled'].includes(t.status.state)) return t;
    await sleep(5);
  }
  throw new Error('0.1 task never finished');
}

describe('raw-v01-peer (A2A 0.1 over node:http)', () => {
  it('serves the 0.1 card at /.well-known/agent.json; redeploy keeps version', async () => {
    await withV01Peer(async (peer) => {
      const card = (await (await fetch(peer.cardUrl)).json()) as Json;
      assert.equal(card['url'], peer.rpcUrl);
      assert.equal(card['version'], '1.0');
      assert.deepEqual(card['capabilities'], { streaming: true, pushNotifications: false });
      assert.deepEqual(
        card['skills'].map((s: Json) => [s.id, s.inputModes, s.outputModes]),
        [['summarize-v2', ['text/plain'], ['text/markdown']]],
      );
      peer.redeploy([V01_TRANSLATE_SKILL]);
      const card2 = (await (await fetch(peer.cardUrl)).json()) as Json;
      assert.equal(card2['version'], '1.0');
      assert.deepEqual(
        card2['skills'].map((s: Json) => s.id),
        ['translate-v1'],
      );
      assert.equal(peer.cardFetches, 2);
    });
  });

  it('tasks/send → submitted, tasks/get → completed (text part, no media type); after redeploy → failed "unknown skill"', async () => {
    await withV01Peer(async (peer) => {
      const params = (id: string): Json => ({
        id,
        sessionId: 'sess-1',
        skillId: 'summarize-v2',
        message: { role: 'user', parts: [{ type: 'text', text: 'summarize this' }] },
      });
      const sent = await rpc(peer.rpcUrl, 'tasks/send', params('t-ok'));
      assert.deepEqual(Object.keys(sent).sort(), ['id', 'jsonrpc', 'result']);
      assert.equal(sent['result'].id, 't-ok');
      assert.equal(sent['result'].sessionId, 'sess-1');
      assert.equal(sent['result'].status.state, 'submitted');
      const done = await pollV01(peer, 't-ok');
      assert.equal(done.status.state, 'completed');
      assert.deepEqual(done.artifacts?.[0]?.parts, [
        { type: 'text', text: 'result from summarize-v2' },
      ]);

      peer.redeploy([V01_TRANSLATE_SKILL]);
      const sent2 = await rpc(peer.rpcUrl, 'tasks/send', params('t-stale'));
      assert.equal(sent2['error'], undefined);
      assert.equal(sent2['result'].status.state, 'submitted');
      const failed = await pollV01(peer, 't-stale');
      assert.equal(failed.status.state, 'failed');
      assert.deepEqual(failed.status.message?.parts[0], { type: 'text', text: 'unknown skill' });
      assert.equal(peer.requests.filter((r) => r.method === 'tasks/send').length, 2);
    });
  });

  it('errorOnUnknownSkill: -32602 rejects at the JSON-RPC layer', async () => {
    await withV01Peer(
      async (peer) => {
        peer.redeploy([V01_TRANSLATE_SKILL]);
        const r = await rpc(peer.rpcUrl, 'tasks/send', {
          id: 't1',
          skillId: 'summarize-v2',
          message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
        });
        assert.equal(r['result'], undefined);
        assert.equal(r['error'].code, -32602);
        assert.equal(r['error'].message, 'Invalid params');
        assert.equal(peer.tasks.size, 0);
      },
      { errorOnUnknownSkill: -32602 },
    );
  });

  it('file-part artifacts carry file.mimeType from the current card (variant B visible); sendReturns "final"', async () => {
    await withV01Peer(
      async (peer) => {
        const send = async (id: string): Promise<V01Task> =>
          (
            await rpc(peer.rpcUrl, 'tasks/send', {
              id,
              skillId: 'summarize-v2',
              message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
            })
          )['result'] as V01Task;
        const a = await send('f1');
        assert.equal(a.status.state, 'completed');
        const part = a.artifacts?.[0]?.parts[0];
        assert.ok(part && part.type === 'file');
        assert.equal(part.file.mimeType, 'text/markdown');
        assert.equal(
          Buffer.from(part.file.bytes ?? '', 'base64').toString(),
          'result from summarize-v2',
        );
        peer.redeploy([
          {
            id: 'summarize-v2',
            name: 'Summarize',
            inputModes: ['text/plain'],
            outputModes: ['text/plain'],
          },
        ]);
        const b = await send('f2');
        const partB = b.artifacts?.[0]?.parts[0];
        assert.ok(partB && partB.type === 'file');
        assert.equal(partB.file.mimeType, 'text/plain');
      },
      { behaviour: { artifactKind: 'file', sendReturns: 'final' } },
    );
  });

  it('tasks/sendSubscribe streams 0.1 events; gzip + CRLF + many small writes still parse; tasks/resubscribe replays', async () => {
    await withV01Peer(
      async (peer) => {
        const res = await fetch(peer.rpcUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'accept-encoding': 'gzip',
            accept: 'text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 42,
            method: 'tasks/sendSubscribe',
            params: {
              id: 's1',
              sessionId: 'sess',
              metadata: { skillId: 'summarize-v2' },
              message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
            },
          }),
        });
        assert.equal(res.headers.get('content-type'), 'text/event-stream');
        assert.equal(res.headers.get('content-encoding'), 'gzip'); // fetch decodes it transparently
        const text = await res.text();
        assert.match(text, /\r\n\r\n/, 'CRLF framing');
        const events = parseSse(text).map((e) => JSON.parse(e.data) as Json);
        assert.ok(
          events.every((e) => e['jsonrpc'] === '2.0' && e['id'] === 42 && e['result'].id === 's1'),
        );
        const shape = events.map((e) =>
          'artifact' in e['result']
            ? 'artifact'
            : `${e['result'].status.state}${e['result'].final ? '!' : ''}`,
        );
        assert.deepEqual(shape, [
          'submitted',
          'working',
          'artifact',
          'artifact',
          'artifact',
          'completed!',
        ]);
        const arts = events
          .filter((e) => 'artifact' in e['result'])
          .map((e) => e['result'].artifact as Json);
        assert.deepEqual(
          arts.map((a) => [a['index'], a['append'], a['lastChunk']]),
          [
            [0, false, false],
            [0, true, false],
            [0, true, true],
          ],
        );
        assert.deepEqual(arts[0]?.['parts'][0], {
          type: 'text',
          text: 'result from summarize-v2 (1/3)',
        });

        const again = await fetch(peer.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 43,
            method: 'tasks/resubscribe',
            params: { id: 's1' },
          }),
        });
        const replay = parseSse(await again.text()).map((e) => JSON.parse(e.data) as Json);
        assert.equal(replay.at(-1)?.['result'].status.state, 'completed');
        assert.equal(replay.at(-1)?.['result'].final, true);

        // gzip on plain JSON responses too (fetch inflates it)
        const raw = await fetch(peer.cardUrl, { headers: { 'accept-encoding': 'gzip' } });
        assert.equal(raw.headers.get('content-encoding'), 'gzip');
        assert.equal(((await raw.json()) as Json)['name'], 'raw-v01-peer');
      },
      { gzip: true, splitSse: true, behaviour: { artifactChunks: 3 } },
    );
  });

  it('sendSubscribe for an unknown skill: submitted, then failed (final) with "unknown skill"', async () => {
    await withV01Peer(async (peer) => {
      peer.redeploy([V01_TRANSLATE_SKILL]);
      peer.setBehaviour({
        sse: { crlf: false, chunkBytes: 0, chunkDelayMs: 0, multilineData: true, comments: false },
      });
      const res = await fetch(peer.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tasks/sendSubscribe',
          params: {
            id: 'u1',
            skillId: 'summarize-v2',
            message: { role: 'user', parts: [{ type: 'text', text: 'x' }] },
          },
        }),
      });
      const events = parseSse(await res.text()).map((e) => JSON.parse(e.data) as Json);
      assert.deepEqual(
        events.map((e) => [e['result'].status.state, e['result'].final]),
        [
          ['submitted', false],
          ['failed', true],
        ],
      );
      assert.equal(events[1]?.['result'].status.message.parts[0].text, 'unknown skill');
    });
  });
});

// ============================================================== OTLP receiver

describe('otlp-receiver', () => {
  let receiver: OtlpReceiver;
  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    await receiver.close();
  });

  it('receives OTLP/JSON spans from TracerProvider + exporter-trace-otlp-http, flattened', async () => {
    receiver.clear();
    const provider = new TracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: receiver.tracesUrl }) }),
      ],
    });
    const tracer = provider.getTracer('peers-test', '9.9.9');
    const linkTarget = tracer.startSpan('link-target');
    linkTarget.end();
    const parent = tracer.startSpan('SendMessage', {
      kind: SpanKind.CLIENT,
      attributes: {
        'a2a.method.name': 'SendMessage',
        'server.port': 4242,
        ratio: 0.5,
        ok: false,
        'a2a.skills': ['a', 'b'],
      },
      links: [{ context: linkTarget.spanContext() }],
    });
    parent.addEvent('a2a.skill_drift', { 'a2a.skill.id': 'summarize-v2' });
    parent.setStatus({ code: SpanStatusCode.ERROR, message: 'unknown skill' });
    const ctx = trace.setSpan(context.active(), parent);
    const child = tracer.startSpan('child', {}, ctx);
    child.end();
    parent.end();
    await provider.forceFlush();

    const [span] = await receiver.waitForSpans((s) => s.name === 'SendMessage', 5000);
    assert.ok(span);
    assert.equal(span.encoding, 'json');
    assert.match(span.traceId, /^[0-9a-f]{32}$/);
    assert.equal(span.traceId, parent.spanContext().traceId);
    assert.equal(span.spanId, parent.spanContext().spanId);
    assert.equal(span.parentSpanId, '');
    assert.equal(span.kind, 3);
    assert.equal(span.kindName, 'CLIENT');
    assert.deepEqual(span.status, { code: 2, message: 'unknown skill' });
    assert.deepEqual(span.attributes, {
      'a2a.method.name': 'SendMessage',
      'server.port': 4242,
      ratio: 0.5,
      ok: false,
      'a2a.skills': ['a', 'b'],
    });
    assert.deepEqual(
      span.events.map((e) => [e.name, e.attributes]),
      [['a2a.skill_drift', { 'a2a.skill.id': 'summarize-v2' }]],
    );
    assert.deepEqual(
      span.links.map((l) => [l.traceId, l.spanId]),
      [[linkTarget.spanContext().traceId, linkTarget.spanContext().spanId]],
    );
    assert.equal(span.scopeName, 'peers-test');
    assert.equal(span.scopeVersion, '9.9.9');
    assert.equal(span.resource['telemetry.sdk.language'], 'nodejs');
    assert.ok(span.durationMs >= 0);
    const [childSpan] = await receiver.waitForSpans((s) => s.name === 'child');
    assert.equal(childSpan?.parentSpanId, span.spanId);
    assert.equal(childSpan?.traceId, span.traceId);
    assert.ok(receiver.exports.some((e) => e.contentType === 'application/json'));
    await provider.shutdown();
  });

  it('decodes OTLP protobuf (exporter-trace-otlp-proto) to the same flattened shape', async () => {
    receiver.clear();
    const provider = new TracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor({
          exporter: new OTLPTraceExporterProto({ url: receiver.tracesUrl }),
        }),
      ],
    });
    const span = provider.getTracer('proto-test').startSpan('GetTask', {
      kind: SpanKind.CLIENT,
      attributes: { s: 'x', i: -7, d: 1.25, b: true, arr: ['p', 'q'] },
    });
    span.addEvent('evt', { k: 1 });
    span.setStatus({ code: SpanStatusCode.OK });
    span.end();
    await provider.forceFlush();
    const [got] = await receiver.waitForSpans((s) => s.name === 'GetTask');
    assert.ok(got);
    assert.equal(got.encoding, 'protobuf');
    assert.equal(got.traceId, span.spanContext().traceId);
    assert.equal(got.spanId, span.spanContext().spanId);
    assert.equal(got.kindName, 'CLIENT');
    assert.deepEqual(got.status, { code: 1, message: '' });
    assert.deepEqual(got.attributes, { s: 'x', i: -7, d: 1.25, b: true, arr: ['p', 'q'] });
    assert.deepEqual(
      got.events.map((e) => [e.name, e.attributes]),
      [['evt', { k: 1 }]],
    );
    assert.equal(got.scopeName, 'proto-test');
    assert.ok(receiver.exports.some((e) => e.contentType === 'application/x-protobuf'));
    await provider.shutdown();
  });

  it('receives OTLP/JSON metrics (counter + histogram) from exporter-metrics-otlp-http', async () => {
    receiver.clear();
    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: receiver.metricsUrl }),
      exportIntervalMillis: 60_000,
    });
    const provider = new MeterProvider({ readers: [reader] });
    const meter = provider.getMeter('peers-metrics');
    meter
      .createCounter('a2a.client.skill_drift', { unit: '{event}' })
      .add(2, { 'a2a.skill.id': 'summarize-v2' });
    meter
      .createHistogram('a2a.client.duration', { unit: 's' })
      .record(0.25, { 'a2a.method.name': 'SendMessage' });
    await provider.forceFlush();
    const points = await receiver.waitForMetrics((p) => p.name.startsWith('a2a.client.'), 5000, 2);
    const counter = points.find((p) => p.name === 'a2a.client.skill_drift');
    assert.equal(counter?.type, 'sum');
    assert.equal(counter?.value, 2);
    assert.equal(counter?.unit, '{event}');
    assert.deepEqual(counter?.attributes, { 'a2a.skill.id': 'summarize-v2' });
    const hist = points.find((p) => p.name === 'a2a.client.duration');
    assert.equal(hist?.type, 'histogram');
    assert.equal(hist?.count, 1);
    assert.equal(hist?.sum, 0.25);
    assert.equal(hist?.scopeName, 'peers-metrics');
    await provider.shutdown();
  });

  it('waitForSpans rejects with a helpful message on timeout', async () => {
    await assert.rejects(
      receiver.waitForSpans((s) => s.name === 'never', 50),
      /timed out after 50 ms/,
    );
  });
});
