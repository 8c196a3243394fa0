/**
 * The bench's A2A peer, in its own process (so the client's CPU can be measured alone):
 * the real `@a2a-js/sdk` server from test/peers/sdk-peer.ts on 127.0.0.1:<random port>,
 * plus a plain (non-A2A) JSON HTTP server for the "plain fetch" row.
 *
 *   node --import tsx --expose-gc bench/peer-process.ts
 *
 * Prints one line `BENCH_PEER {"baseUrl": ..., "plainUrl": ...}` on stdout when ready.
 * IPC (when forked): `{type: 'reset'}` drops the SDK's stored tasks (so the peer does not
 * grow across the run) and collects garbage, then answers `{type: 'reset-done'}`.
 *
 * Skills:
 * - `summarize-v2`: one small text/markdown artifact (row 1).
 * - `long-stream`: 97 artifact-update events, so a stream carries 100 events
 *   (task, WORKING, 97 artifacts, COMPLETED), sent back to back (row 2).
 * - `big-artifact`: one artifact of BENCH_BIG_ARTIFACT_BYTES (default 10 MiB) of text (row 3).
 * - `paced-stream`: 1,000 word-sized artifact updates ~1 ms apart (a language model's answer:
 *   each reaches the client in its own chunk), so a stream carries 1,003 events (row 2b).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_SKILL,
  LONG_STREAM_SKILL,
  startSdkPeer,
  type PeerSkillInput,
} from '../test/peers/sdk-peer';

export const STREAM_ARTIFACT_EVENTS = 97;
export const PACED_ARTIFACT_EVENTS = 1000;
export const PACED_SKILL: PeerSkillInput = {
  id: 'paced-stream',
  name: 'Paced stream',
  description: 'Streams an answer word by word, about 1 ms apart.',
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/markdown'],
};
const WORDS = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'a', 'lazy', 'dog', 'again'];
export const BIG_SKILL: PeerSkillInput = {
  id: 'big-artifact',
  name: 'Big artifact',
  description: 'Returns one very large text artifact.',
  tags: [],
  inputModes: ['text/plain'],
  outputModes: ['text/plain'],
};

const bigBytes = Number(process.env.BENCH_BIG_ARTIFACT_BYTES ?? 10 * 1024 * 1024);
let bigText: string | undefined;
function big(): string {
  if (bigText === undefined) {
    const line =
      'lorem ipsum dolor sit amet, consectetur adipiscing elit; sed do eiusmod tempor.\n'; // 81 bytes
    bigText = line.repeat(Math.ceil(bigBytes / line.length)).slice(0, bigBytes);
  }
  return bigText;
}

function defaultText(skillId: string, mediaType: string, chunk: number, chunks: number): string {
  const suffix = chunks > 1 ? ` (${chunk + 1}/${chunks})` : '';
  if (mediaType === 'text/markdown')
    return `## ${skillId}${suffix}\n\n- result from **${skillId}**\n`;
  return `result from ${skillId}${suffix}`;
}

/** The plain, non-A2A API: small JSON answers, like any REST backend an app also calls. */
function startPlainServer(): Promise<http.Server> {
  const item = (id: string) =>
    JSON.stringify({
      id,
      name: `item ${id}`,
      price: 12.5,
      tags: ['a', 'b', 'c'],
      updatedAt: '2025-01-01T00:00:00Z',
      stock: 42,
    });
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const id = (req.url ?? '').split('/').pop() ?? '0';
      const body = item(id);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    req.on('end', () => {
      const body = JSON.stringify({ results: [item('1'), item('2')], received: size });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

async function main(): Promise<void> {
  const peer = await startSdkPeer({
    skills: [DEFAULT_SKILL, LONG_STREAM_SKILL, BIG_SKILL, PACED_SKILL],
    behaviour: {
      settleDelayMs: 0,
      chunkDelayMs: 0,
      chunkDelays: { [PACED_SKILL.id]: 1 },
      artifactChunks: {
        [LONG_STREAM_SKILL.id]: STREAM_ARTIFACT_EVENTS,
        [PACED_SKILL.id]: PACED_ARTIFACT_EVENTS,
      },
      artifactText: (skillId, mediaType, chunk, chunks) =>
        skillId === BIG_SKILL.id
          ? big()
          : skillId === PACED_SKILL.id
            ? `${WORDS[chunk % WORDS.length]} `
            : defaultText(skillId, mediaType, chunk, chunks),
    },
  });
  const plain = await startPlainServer();
  const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  process.stdout.write(
    `BENCH_PEER ${JSON.stringify({ baseUrl: peer.baseUrl, plainUrl, pid: process.pid })}\n`,
  );

  const reset = (): void => {
    // The SDK's InMemoryTaskStore keeps every task; drop them between client processes.
    const store = (
      peer.requestHandler as unknown as {
        taskStore?: { _scopedStore?: { _store?: Map<unknown, unknown> } };
      }
    ).taskStore;
    store?._scopedStore?._store?.clear();
    peer.executions.length = 0;
    (globalThis as { gc?: () => void }).gc?.();
  };
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'reset') {
      reset();
      process.send?.({ type: 'reset-done' });
    } else if (m?.type === 'stop') {
      void Promise.all([peer.close(), new Promise<void>((r) => plain.close(() => r()))]).finally(
        () => process.exit(0),
      );
    }
  });
  process.on('disconnect', () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
