/**
 * The recorder of a row's live wire: `node --import tsx test/real-world/conformance/record.ts
 * <row id> [out dir]` runs the row's `recording` (its deployments in order, each replacing the
 * last on the same port, and the exchanges of each) with plain `fetch` — no instrumentation
 * loaded (an exchange's `first` call, FastA2A's send before its task is read back, is not
 * recorded) — and writes test/fixtures/<fixture>/ (or the out dir) through record-lib.mjs: per
 * exchange the body byte for byte and its meta, then index.json with the versions recorded with.
 */
import path from 'node:path';
import {
  createRecorder,
  firstSseJson,
  nodePackageVersions,
  pythonPackageVersions,
} from '../record-lib.mjs';
import { ROWS } from './implementations';
import type { Json } from '../lib';
import type { Peer } from './types';

/** A body as JSON (an event stream: its first event, the task it opened), or undefined (a text page). */
function jsonOf(text: string, contentType: string): Json | undefined {
  try {
    return (
      contentType.includes('text/event-stream') ? firstSseJson(text) : JSON.parse(text)
    ) as Json;
  } catch {
    return undefined;
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const [id, outArg] = process.argv.slice(2);
  const row = ROWS.find((r) => r.id === id);
  if (!row?.recording) {
    console.error(
      `no recording for ${id ?? '(no row id)'}; rows with one: ${ROWS.filter((r) => r.recording)
        .map((r) => r.id)
        .join(', ')}`,
    );
    process.exit(2);
  }
  const { recording } = row;
  const why = row.unavailable();
  if (why) {
    console.error(`${row.id} cannot run: ${why}`);
    process.exit(2);
  }
  const rec = createRecorder({
    out: outArg ?? path.resolve(__dirname, '../../fixtures', recording.fixture),
    keep: ['README.md'],
    dropResponseHeaders: ['date'],
    messageIdPrefix: 'rec-',
  });
  let last: Peer | undefined;
  let previous: Json | undefined;
  for (const step of recording.steps) {
    const peer: Peer = await row.start(step.deploy, last);
    last = peer;
    try {
      for (const x of step.exchanges) {
        let first: Json | undefined;
        if (x.first) {
          if (x.first.waitBeforeMs) await sleep(x.first.waitBeforeMs);
          const call = x.first.request(peer, rec);
          first = (await (await fetch(call.url, call.init)).json()) as Json;
          await sleep(x.first.waitMs);
        }
        const { url, init } = x.request(peer, rec, first, previous);
        const got = await rec.exchange(x.name, x.note, url, init);
        previous = jsonOf(got.text, got.contentType);
      }
    } finally {
      await peer.stop();
    }
  }
  const versions = recording.recordedWith
    ? recording.recordedWith()
    : row.agentPython
      ? pythonPackageVersions(row.agentPython, recording.versionsOf)
      : {
          ...nodePackageVersions(
            path.resolve(__dirname, '..', row.agentCode.split('/')[2]),
            recording.versionsOf,
          ),
          // a Node agent runs on the recorder's own Node
          node: process.version,
        };
  rec.writeIndex({ recordedWith: versions });
  console.log(`recorded ${rec.index.length} exchanges into ${rec.out}`, versions);
}

void main();
