/**
 * docs/real-world.md, generated from the table (implementations.ts, and the implementations
 * still in their own files, not-migrated.ts) and the checks (checks.ts): `npm run
 * docs:real-world` writes it; test/docs/real-world-doc.test.ts fails while it is stale.
 */
import { CHECKS } from './checks';
import { RECORDED, ROWS } from './implementations';
import { NOT_MIGRATED } from './not-migrated';
import { isNA, type DocOnlyRow, type Row } from './types';

const cellText = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const INTRO = `# Real-world implementations

<!-- generated from test/real-world/conformance/ by \`npm run docs:real-world\`; do not edit -->

Tested against the real packages (\`npm run test:real-world\`: each installed from npm at an
exact version into \`test/real-world/<name>/\`, or from PyPI with \`pip install --require-hashes\`
into \`test/real-world/python/<name>/.venv\`, or built with Go from the module proxy (\`go.sum\`)
into one binary, \`test/real-world/go/<name>/\`; peers in child processes driven by deterministic
mock models, no network, no LLM; venvs and Go builds are cached by lock hash in
\`\${A2A_TEST_CACHE:-~/.cache/a2a-instrumentation-tests}\`) or against their recorded wire (\`test/fixtures/<name>/\`,
fed to the decoders and the judge by \`test/core/real-world-fixtures.test.ts\`).

The live implementations are rows of one table, one file per implementation
(\`test/real-world/rows/<implementation>.ts\`, assembled in \`test/real-world/conformance/implementations.ts\`):
how to start the agent and redeploy it in place, what it serves, where its client puts the skill
id and what it can express, each with its source. One set of checks
(\`test/real-world/conformance/checks.ts\`, run by \`test/real-world/conformance.test.ts\`) runs
against every row that declares what a check needs and is N/A, with the row's reason, elsewhere;
\`scripts/real-world.sh\` prints the matrix of a run. Implementations not yet in the table are
tested by their own file, named below.
`;

const OUTRO = `Bad input from a live Python server (\`test/real-world/python-bad-input.test.ts\`, a Starlette
app run with the FastA2A venv; raw fetch and the \`@a2a-js/sdk\` client, each with the
instrumentation on and off): a 500 with the Python traceback page (text or HTML) is an error
span, \`response is text/plain, not JSON\`, the traceback never on it; an SSE stream that ends or
is dropped inside a \`data:\` line says \`stream ended inside an event … not judged\`; a card with
\`None\` for \`defaultOutputModes\`, a skill's \`tags\` and \`outputModes\` is a card whose calls are
unjudged (\`the skill advertises no output modes\`; the field report's own Python fingerprint raises on
it), one with \`skills: null\` is \`not an Agent Card (skills is null)\` (the \`@a2a-js/sdk\` client
refuses both cards itself). No exception, no drift, the app's bytes and outcome unchanged.

How eleven frameworks mark intermediate work, word a missing tool and name skills — and what
of it the product handles by rule, by data, or not — is surveyed in
[docs/framework-survey.md](framework-survey.md).

Variant B (a skill id reused with another output mode) cannot be expressed by Mastra or
VoltAgent cards (no per-skill modes, fixed defaults, typeless text parts): there only the
card re-fetch (\`card_changed\`) shows it. LLM-backed agents state a missing tool in words
their model chooses: the tests' mock models repeat the framework's error verbatim; a real
model may rephrase it, and a rephrasing the phrasings above do not cover is not caught.
`;

function applicable(row: Row): { runs: string[]; na: Array<[string, string]> } {
  const runs: string[] = [];
  const na: Array<[string, string]> = [];
  for (const c of CHECKS) {
    const a = c.applies(row);
    if (a === true) runs.push(c.id);
    else na.push([c.id, a]);
  }
  return { runs, na };
}

function tableRow(r: Row | DocOnlyRow): string {
  if ('facts' in r) {
    const { runs } = applicable(r);
    const quirks = r.quirks?.length ? ` + ${r.quirks.length} of its own` : '';
    const fixtures = r.facts.fixtures ? `; live fixtures \`${r.facts.fixtures}\`` : '';
    const testedAs = `real peer, conformance table: ${runs.length} of ${CHECKS.length} checks${quirks}${fixtures}`;
    return `| ${[r.name, testedAs, `${r.facts.bindings.value}; ${r.facts.clients.value}`, r.facts.card.value, r.facts.judged.value].map(cellText).join(' | ')} |`;
  }
  const testedAs = r.file ? `${r.testedAs} (\`test/real-world/${r.file}\`)` : r.testedAs;
  return `| ${[r.name, testedAs, r.bindings, r.card, r.judged].map(cellText).join(' | ')} |`;
}

function rowSection(r: Row): string {
  const out = [`### ${r.id}`, '', `${r.name}. Agent code: \`${r.agentCode}\`.`, ''];
  if (r.optional) out.push(`Optional (CI may leave it unrun): ${r.optional}.`, '');
  const fact = (label: string, f: { value: unknown; source: string }) =>
    `- ${label}: ${typeof f.value === 'string' ? f.value : JSON.stringify(f.value)} — ${f.source}`;
  out.push(
    fact('bindings', r.facts.bindings),
    fact('clients', r.facts.clients),
    fact('card', r.facts.card),
    fact('streaming', r.capabilities.streaming),
    fact('push notifications', r.capabilities.push),
    fact('gRPC', r.capabilities.grpc),
    fact('variant B by', r.capabilities.variantB),
  );
  if (r.agentSide && !isNA(r.agentSide))
    out.push(
      fact(
        `the agent's side (run with \`--${r.agentSide.load}\` of the register entry), the served card`,
        r.agentSide.card,
      ),
    );
  if (!isNA(r.variantA))
    for (const p of r.variantA.paths)
      out.push(
        `- a skill gone, ${p.label}: ${p.says.value} (verdict ${p.verdict}) — ${p.says.source}`,
      );
  const { na } = applicable(r);
  for (const [id, why] of na) out.push(`- N/A ${id}: ${why}`);
  for (const q of r.quirks ?? []) out.push(`- its own test "${q.title}": ${q.why}`);
  return out.join('\n');
}

export function realWorldMarkdown(): string {
  const header =
    '| implementation | tested as | version × binding | card | judged |\n|---|---|---|---|---|';
  const table = [header, ...[...ROWS, ...NOT_MIGRATED, ...RECORDED].map(tableRow)].join('\n');
  const checks = CHECKS.map((c) => `- \`${c.id}\` (${c.title}): ${c.asserts}.`).join('\n');
  const matrixHead = `| implementation | ${CHECKS.map((c) => `\`${c.id}\``).join(' | ')} |\n|---|${CHECKS.map(() => '---|').join('')}`;
  const matrix = ROWS.map(
    (r) =>
      `| ${r.id} | ${CHECKS.map((c) => (c.applies(r) === true ? 'runs' : 'N/A')).join(' | ')} |`,
  ).join('\n');
  return [
    INTRO,
    table,
    '',
    '## Conformance checks',
    '',
    checks,
    '',
    matrixHead,
    matrix,
    '',
    '## The rows',
    '',
    ROWS.map(rowSection).join('\n\n'),
    '',
    '## Other live tests',
    '',
    OUTRO,
  ].join('\n');
}
