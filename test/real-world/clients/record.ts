/**
 * Records what the two real clients send and receive ON THE WIRE (server-side tap, see
 * wire-tap.mjs) and writes the fixtures:
 *   test/fixtures/google-adk/*       @google/adk RemoteA2AAgent (@a2a-js/sdk 0.3 client) vs the
 *                                    project's @a2a-js/sdk 1.3 test peer (test/peers/sdk-peer.ts)
 *   test/fixtures/reactive-agents/*  @reactive-agents/a2a client vs its own server (ra-server.mjs)
 *                                    and vs the @a2a-js/sdk 1.3 test peer
 *
 *   cd /work/main && node --import tsx test/real-world/clients/record.ts
 *
 * No instrumentation is loaded here: this is the plain wire.
 */
import { mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RemoteA2AAgent, runAdk, putSkillId, raCall, raMessage, raDiscover } from './lib.js';
import {
  startSdkPeer,
  DEFAULT_SKILL,
  TRANSLATE_SKILL,
  SUMMARIZE_PLAIN_SKILL,
} from '../../peers/sdk-peer.js';
import { startRaPeer } from '../ra-peer.js';
import { startWireTap, type TappedExchange } from './wire-tap.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIX = path.resolve(here, '../../fixtures');

const tapped: TappedExchange[] = [];
startWireTap((x: TappedExchange) => tapped.push(x));
const settle = () => new Promise((r) => setTimeout(r, 150));

function label(x: TappedExchange): string {
  if (x.method === 'GET') return 'GET' + x.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/_+$/, '');
  try {
    const m = (JSON.parse(x.requestBody) as { method?: string }).method;
    return 'POST_' + String(m).replace(/[^A-Za-z0-9]+/g, '_');
  } catch {
    return 'POST';
  }
}

const written: Record<string, string[]> = {};
function save(dir: string, scenario: string, exchanges: TappedExchange[], note?: string): void {
  const out = path.join(FIX, dir);
  mkdirSync(out, { recursive: true });
  exchanges.forEach((x, i) => {
    const base = `${scenario}-${String(i + 1).padStart(2, '0')}-${label(x)}`;
    const isSse = String(x.responseHeaders['content-type'] ?? '').includes('text/event-stream');
    let body: unknown = x.responseBody;
    if (!isSse) {
      try {
        body = JSON.parse(x.responseBody);
      } catch {
        /* keep text */
      }
    }
    let reqBody: unknown = x.requestBody;
    try {
      reqBody = x.requestBody ? JSON.parse(x.requestBody) : '';
    } catch {
      /* keep text */
    }
    const file = {
      ...(note ? { note } : {}),
      request: { method: x.method, path: x.path, headers: x.requestHeaders, body: reqBody },
      response: {
        status: x.status,
        headers: x.responseHeaders,
        body: isSse ? `(see ${base}.sse)` : body,
      },
    };
    writeFileSync(path.join(out, `${base}.json`), JSON.stringify(file, null, 2) + '\n');
    (written[dir] ??= []).push(`${base}.json`);
    if (isSse) {
      writeFileSync(path.join(out, `${base}.sse`), x.responseBody);
      written[dir].push(`${base}.sse`);
    }
  });
}
function take(): TappedExchange[] {
  return tapped.splice(0, tapped.length);
}

/** Runs `act`, lets its exchanges settle, and saves what was tapped as `dir`/`scenario`. */
async function scene<T>(
  dir: string,
  scenario: string,
  note: string,
  act: () => Promise<T>,
  tap: () => TappedExchange[] = take,
): Promise<T> {
  const got = await act();
  await settle();
  save(dir, scenario, tap(), note);
  return got;
}

// ---------------------------------------------------------------- @google/adk
/** A RemoteA2AAgent reading the card at `agentCard`; `skill`: it puts that skill id on the wire. */
function remote(agentCard: string, skill?: string): InstanceType<typeof RemoteA2AAgent> {
  return new RemoteA2AAgent({
    name: 'remote',
    agentCard,
    ...(skill ? { beforeRequestCallbacks: [putSkillId(skill) as never] } : {}),
  });
}

/** One Runner run of `agent`, saved as the google-adk scenario. */
function adkScene(scenario: string, note: string, agent: InstanceType<typeof RemoteA2AAgent>) {
  return scene('google-adk', scenario, note, () => runAdk(agent));
}

async function recordAdk(): Promise<Record<string, unknown>> {
  const notes: Record<string, unknown> = {};
  // 1. The peer with the SDK's legacyCompat on its main paths (one URL, 0.3 card for 0.3 clients).
  const peer = await startSdkPeer({ name: 'peer-a', legacyOnMainPaths: true });
  take();
  const ev = await adkScene(
    'healthy-stream',
    'RemoteA2AAgent({agentCard: peer.baseUrl}) run once by a Runner; no skill id anywhere on the wire',
    remote(peer.baseUrl),
  );
  notes.healthyEvents = ev.length;

  const withSkill = remote(peer.baseUrl, 'summarize-v2');
  await adkScene(
    'healthy-stream-skillid-callback',
    'beforeRequestCallbacks sets params.message.metadata.skillId (what an app can do to put a skill id on the wire)',
    withSkill,
  );

  peer.redeploy([TRANSLATE_SKILL]);
  // same agent instance: its card (and client) is cached since init()
  notes.variantAEvents = await adkScene(
    'variant-a-stream',
    'peer redeployed with translate-v1 only (same version); same RemoteA2AAgent (cached card) asks summarize-v2 via message.metadata.skillId',
    withSkill,
  );

  peer.redeploy([SUMMARIZE_PLAIN_SKILL]);
  await adkScene(
    'variant-b-stream-cached-card',
    'peer redeployed: summarize-v2 now outputModes text/plain; same RemoteA2AAgent (cached card)',
    withSkill,
  );
  await adkScene(
    'variant-b-refetch',
    'a NEW RemoteA2AAgent fetches the card again (same version, other fingerprint)',
    remote(peer.baseUrl, 'summarize-v2'),
  );
  await peer.close();

  // 2. Non-streaming card: RemoteA2AAgent uses message/send.
  const peerNs = await startSdkPeer({ name: 'peer-ns', legacyOnMainPaths: true, streaming: false });
  take();
  await adkScene(
    'healthy-nonstreaming',
    'card capabilities.streaming=false: RemoteA2AAgent calls message/send',
    remote(peerNs.baseUrl, 'summarize-v2'),
  );
  await peerNs.close();

  // 3. Default peer (1.0 card on the main path, 0.3 under /v03).
  const peer10 = await startSdkPeer({ name: 'peer-10' });
  take();
  const unusable = await adkScene(
    'card-1.0-unusable',
    'the main path serves a 1.0 card (supportedInterfaces, no url): the 0.3 ClientFactory finds no transport, no A2A call is made',
    remote(peer10.baseUrl),
  );
  notes.card10Error = unusable.at(-1);
  await adkScene(
    'v03-base-trailing-slash',
    'agentCard: `${base}/v03/` resolves the card as new URL(".well-known/agent-card.json", base)',
    remote(`${peer10.v03BaseUrl}/`),
  );
  await adkScene(
    'v03-base-no-slash',
    'agentCard: `${base}/v03` (no slash): relative resolution DROPS /v03, so the 1.0 card at /.well-known/agent-card.json is fetched',
    remote(peer10.v03BaseUrl),
  );
  await peer10.close();
  return notes;
}

// ---------------------------------------------------------------- @reactive-agents/a2a
async function recordRa(): Promise<Record<string, unknown>> {
  const notes: Record<string, unknown> = {};
  const tapFile = path.join(here, '.ra-tap.jsonl');
  rmSync(tapFile, { force: true });
  const readTap = (): TappedExchange[] => {
    if (!existsSync(tapFile)) return [];
    const xs = readFileSync(tapFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as TappedExchange);
    rmSync(tapFile, { force: true });
    return xs;
  };
  const ra = await startRaPeer({ name: 'ra-peer', skills: [DEFAULT_SKILL], tapFile });
  const card = await raCall(ra.rpcUrl, (c) => c.getAgentCard(ra.baseUrl));
  const disc = await raDiscover(ra.baseUrl);
  const sent = (await raCall(ra.rpcUrl, (c) =>
    c.sendMessage(raMessage('summarize this', 'summarize-v2')),
  )) as { id: string };
  await raCall(ra.rpcUrl, (c) => c.getTask({ id: sent.id }));
  const failed = await raCall(ra.rpcUrl, (c) =>
    c.sendMessage(raMessage('please fail', 'summarize-v2')),
  );
  let notFound: unknown;
  try {
    await raCall(ra.rpcUrl, (c) => c.getTask({ id: 'no-such-task' }));
  } catch (e) {
    notFound = String(e).split('\n')[0];
  }
  // The server's message/stream (the client has no streaming method): a plain fetch.
  const streamRes = await fetch(ra.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'message/stream',
      params: raMessage('summarize this', 'summarize-v2'),
    }),
  });
  await streamRes.text();
  await settle();
  save(
    'reactive-agents',
    'server-healthy',
    readTap(),
    '@reactive-agents/a2a client (getAgentCard, then discoverAgent, sendMessage, getTask, a failing executor, an unknown task) and a plain-fetch message/stream, against createA2AHttpServer',
  );
  notes.card = card;
  notes.discovered = disc;
  notes.failedTask = failed;
  notes.notFound = notFound;

  // the server restarted as `skills`, same version: message/send with the old skill id, then the
  // card again
  const redeployed = async (scenario: string, note: string, skills: (typeof DEFAULT_SKILL)[]) => {
    await ra.redeploy(skills);
    await scene(
      'reactive-agents',
      scenario,
      note,
      async () => {
        await raCall(ra.rpcUrl, (c) => c.sendMessage(raMessage('summarize this', 'summarize-v2')));
        await raCall(ra.rpcUrl, (c) => c.getAgentCard(ra.baseUrl));
      },
      readTap,
    );
  };
  await redeployed(
    'server-variant-a',
    'server restarted on the same port with translate-v1 only, same version: message/send with the old skill id (the server never sees skill ids), then the card again',
    [TRANSLATE_SKILL],
  );
  await redeployed(
    'server-variant-b',
    'server restarted: summarize-v2 now text/plain, same version',
    [SUMMARIZE_PLAIN_SKILL],
  );
  await ra.close();

  // The @reactive-agents/a2a client against the @a2a-js/sdk 1.3 peer (0.3 JSON-RPC endpoint).
  const peer = await startSdkPeer({ name: 'peer-a' });
  take();
  try {
    await raCall(peer.v03JsonRpcUrl, (c) => c.getAgentCard(peer.v03BaseUrl));
  } catch (e) {
    notes.sdkPeerGetAgentCard = String(e).split('\n')[0];
  }
  try {
    await raDiscover(peer.v03BaseUrl);
  } catch (e) {
    notes.sdkPeerDiscover = String(e).split('\n')[0];
  }
  await raCall(peer.v03JsonRpcUrl, (c) =>
    c.sendMessage(raMessage('summarize this', 'summarize-v2')),
  );
  peer.redeploy([TRANSLATE_SKILL]);
  await raCall(peer.v03JsonRpcUrl, (c) =>
    c.sendMessage(raMessage('summarize this', 'summarize-v2')),
  );
  await settle();
  save(
    'reactive-agents',
    'sdk-peer',
    take(),
    '@reactive-agents/a2a client vs @a2a-js/sdk 1.3 peer: card at ${v03}/agent/card and /.well-known/agent.json are 404; message/send to /v03/jsonrpc healthy, then after redeploy([translate-v1])',
  );
  await peer.close();
  return notes;
}

const adkNotes = await recordAdk();
const raNotes = await recordRa();
writeFileSync(path.join(FIX, 'google-adk', 'notes.json'), JSON.stringify(adkNotes, null, 2) + '\n');
writeFileSync(
  path.join(FIX, 'reactive-agents', 'notes.json'),
  JSON.stringify(raNotes, null, 2) + '\n',
);
console.log(JSON.stringify(written, null, 1));
process.exit(0);
