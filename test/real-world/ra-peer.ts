/**
 * Spawns `clients/ra-server.mjs` (the real `@reactive-agents/a2a` server, see there) in a child
 * `node` process on 127.0.0.1. `redeploy(skills)` kills it and starts it again on the SAME port
 * with another skill set and the SAME card `version`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
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
  return { id: s.id, name: s.name ?? s.id, description: s.description ?? '', tags: s.tags ?? [], inputModes: s.inputModes ?? [], outputModes: s.outputModes ?? [] };
}

async function launch(port: number, opts: RaPeerOptions, skills: PeerSkillInput[]): Promise<{ child: ChildProcess; port: number }> {
  const cfg = { port, name: opts.name ?? 'ra-peer', version: opts.version ?? '1.0', skills: skills.map(fullSkill), tapFile: opts.tapFile };
  const child = spawn(process.execPath, [SERVER, JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += String(c)));
  const lines = createInterface({ input: child.stdout! });
  const bound = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ra-server did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ra-server exited ${code}: ${stderr}`));
    });
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  child.removeAllListeners('exit');
  return { child, port: bound };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startRaPeer(opts: RaPeerOptions): Promise<RaPeer> {
  let { child, port } = await launch(0, opts, opts.skills);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    port,
    baseUrl,
    rpcUrl: `${baseUrl}/`,
    async redeploy(skills) {
      await stop(child);
      ({ child } = await launch(port, opts, skills));
    },
    async close() {
      await stop(child);
    },
  };
}
