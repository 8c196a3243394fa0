/**
 * The table of live implementations the real-world suite runs: one row per agent, saying how to
 * start it and redeploy it in place, what it serves, where its client puts the skill id and what
 * it can express — each fact with the source that says so. The checks (checks.ts) run against
 * every row that declares what they need; conformance.test.ts runs them; docs/real-world.md is
 * generated from this table (`npm run docs:real-world`).
 *
 * Adding an implementation: its agent code in its own folder (a peer that prints {"port":N} and
 * reads VARIANT / PORT from its environment, e.g. python/<impl>/peer.py + its entry in python/peers.json), its
 * row in a file of its own (rows/<impl>.ts, beside its quirks; what rows share is in
 * row-kit.ts, row-probes.ts and row-recording.ts), and that row's line here.
 */
import { strands } from '../rows/python-strands';
import { pythonSdk, pythonSdkGrpc } from '../rows/python-a2a-sdk';
import { pythonAdk } from '../rows/python-google-adk';
import { fasta2a } from '../rows/python-fasta2a';
import { pythonA2a } from '../rows/python-python-a2a';
import { agentFramework } from '../rows/python-agent-framework';
import { langgraph } from '../rows/python-langgraph';
import { goJsonRpc, goGrpc } from '../rows/go-a2a-go';
import { adkJs } from '../rows/node-adk';
import { voltagent } from '../rows/node-voltagent';
import { mastra } from '../rows/node-mastra';
import { a2aJsSdk } from '../rows/node-a2a-js-sdk';
import { crewai } from '../rows/python-crewai';
import { agno } from '../rows/python-agno';
import type { DocOnlyRow, Row } from './types';

export const ROWS: Row[] = [
  pythonSdk,
  pythonAdk,
  fasta2a,
  pythonA2a,
  strands,
  agentFramework,
  langgraph,
  goJsonRpc,
  pythonSdkGrpc,
  goGrpc,
  adkJs,
  voltagent,
  mastra,
  a2aJsSdk,
  crewai,
  agno,
];

/** Implementations known from recorded wire only (test/fixtures/), listed in the doc. */
export const RECORDED: DocOnlyRow[] = [
  {
    id: 'recorded-a2a-sdk-1x',
    name: 'Python `a2a-sdk` 1.x',
    testedAs:
      'fixtures derived from its source (PyPI was not reachable; checked against the live 1.3.0 server, `test/fixtures/a2a-python-live/`)',
    bindings: '1.0 + 0.3 JSON-RPC and HTTP+JSON, CRLF SSE',
    card: '`/.well-known/agent-card.json` (1.0 + 0.3 fields)',
    judged:
      '-32603 `unknown skill: x` → `unknown_skill` for x only; 400 google.rpc.Status `INVALID_ARGUMENT` / `INVALID_PARAMS`, also as `event: error` → `invalid_params`',
  },
  {
    id: 'recorded-fasta2a-0.5',
    name: 'fasta2a ≈0.5',
    testedAs: 'fixtures from its real app (run here; 2.1.1 live in its own row)',
    bindings: '0.2.5 JSON-RPC at `/`',
    card: '`/.well-known/agent.json`',
    judged:
      'failed task whose text is only in `history` → `unknown_skill`; typeless text against its forced `application/json` → unjudged',
  },
];
