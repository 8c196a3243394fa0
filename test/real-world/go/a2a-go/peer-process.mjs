/**
 * Starts the Go peer (main.go in this folder: the official Go SDK `github.com/a2aproject/a2a-go`
 * v0.3.3 serving a deterministic agent) through ../../child-peer.mjs and waits for its
 * `{"port":N}` line. Used by its rows of the conformance table (checks and recording). The same
 * binary run as `peer client` is a2a-go's client (client.go; conformance/agent-side.ts runs it).
 *
 * The binary is built by scripts/real-world-go.sh (cached by the hash of go.mod, go.sum and
 * the *.go files; .bin links to the cached build). `buildGoPeer()` runs that script, so the test works
 * without running scripts/real-world.sh first, as long as `go` is on PATH.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startChildPeer } from '../../child-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../../..');
export const PEER_BIN = path.join(here, '.bin', 'peer');

/**
 * Builds the peer if its cached build is missing or stale: true when the binary is there, else
 * the reason (go missing, build failed) as a string.
 * @returns {true | string}
 */
export function buildGoPeer() {
  try {
    execFileSync('bash', [path.join(ROOT, 'scripts', 'real-world-go.sh'), 'a2a-go'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (e) {
    const err = /** @type {NodeJS.ErrnoException & { stderr?: Buffer }} */ (e);
    return `scripts/real-world-go.sh a2a-go failed: ${err.stderr?.toString().slice(-500) ?? err.message}`;
  }
  return fs.existsSync(PEER_BIN) ? true : `${PEER_BIN} missing after the build`;
}

/**
 * `grpc: true`: GRPC=1, the SDK's gRPC handler (a2a.v1.A2AService, 0.3) on `grpcPort`, a free
 * port chosen here when none is given (so a redeploy can keep it as the card names it); the card
 * then prefers GRPC.
 * @param {{ variant?: 'healthy'|'A'|'B', port?: number, unknownSkill?: 'status'|'error'|'unsupported'|'plain', nilTags?: boolean, grpc?: boolean, grpcPort?: number }} [opts]
 */
export async function startGoPeer(opts = {}) {
  const variant = opts.variant ?? 'healthy';
  const grpcPort = opts.grpc ? (opts.grpcPort ?? (await freePort())) : undefined;
  const peer = await startChildPeer({
    name: 'a2a-go',
    script: String(opts.port ?? 0),
    node: PEER_BIN,
    cwd: here,
    env: {
      VARIANT: variant,
      UNKNOWN_SKILL: opts.unknownSkill ?? 'status',
      NIL_TAGS: opts.nilTags ? '1' : '',
      ...(grpcPort === undefined ? {} : { GRPC: '1', GRPC_PORT: String(grpcPort) }),
    },
  });
  return {
    ...peer,
    variant,
    baseUrl: peer.origin,
    cardUrl: `${peer.origin}/.well-known/agent-card.json`,
    jsonRpcUrl: `${peer.origin}/invoke`,
    grpcPort,
    grpcTarget: grpcPort === undefined ? undefined : `127.0.0.1:${grpcPort}`,
  };
}
