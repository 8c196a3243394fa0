/**
 * Spawns `clients/ra-server.mjs` (the real `@reactive-agents/a2a` server, see there) in a child
 * `node` process on 127.0.0.1. `redeploy(skills)` kills it and starts it again on the SAME port
 * with another skill set and the SAME card `version`.
 */
import path from 'node:path';
import { startChildPeer, type ChildPeer } from './child-peer.mjs';
import type { PeerSkillInput } from '../peers/sdk-peer';

const SERVER = path.join(path.dirname(__filename), 'clients', 'ra-server.mjs');

export interface RaPeerOptions {
  name?: string;
  version?: string;
  skills: PeerSkillInput[];
  /** Append every HTTP exchange the server handles (JSON lines) to this file. */
  tapFile?: string;
}

export interface RaPeer {
  readonly port: number;
  /** `http://127.0.0.1:<port>`: what the app gives `getAgentCard(url)` (it requests `${url}/agent/card`). */
  readonly baseUrl: string;
  /** The JSON-RPC endpoint, the card's `url`: `${baseUrl}/`. */
  readonly rpcUrl: string;
  redeploy(skills: PeerSkillInput[]): Promise<void>;
  close(): Promise<void>;
}

function fullSkill(s: PeerSkillInput) {
  return {
    id: s.id,
    name: s.name ?? s.id,
    description: s.description ?? '',
    tags: s.tags ?? [],
    inputModes: s.inputModes ?? [],
    outputModes: s.outputModes ?? [],
  };
}

function launch(port: number, opts: RaPeerOptions, skills: PeerSkillInput[]): Promise<ChildPeer> {
  const cfg = {
    port,
    name: opts.name ?? 'ra-peer',
    version: opts.version ?? '1.0',
    skills: skills.map(fullSkill),
    tapFile: opts.tapFile,
  };
  return startChildPeer({
    name: 'reactive-agents',
    script: SERVER,
    args: [JSON.stringify(cfg)],
    startTimeoutMs: 15_000,
  });
}

export async function startRaPeer(opts: RaPeerOptions): Promise<RaPeer> {
  let child = await launch(0, opts, opts.skills);
  const port = child.port;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    port,
    baseUrl,
    rpcUrl: `${baseUrl}/`,
    async redeploy(skills) {
      await child.stop();
      child = await launch(port, opts, skills);
    },
    async close() {
      await child.stop();
    },
  };
}
