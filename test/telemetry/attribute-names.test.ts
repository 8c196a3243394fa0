/**
 * The telemetry contract's names are written once (src/semconv.ts) and attributes are built in one
 * module (src/telemetry/span-attributes.ts): a new attribute touches those two files (and the
 * documentation), nothing else. Checked on the source text of every file under src/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');
const SEMCONV = 'semconv.ts';
const BUILDER = join('telemetry', 'span-attributes.ts');

/**
 * Quoted strings that look like a contract name but are not one: diagnostics channel names and
 * the 0.3 gRPC service's full name.
 */
const NOT_ATTRIBUTE_NAMES = new Set([
  'http.client.request.start',
  'http.server.request.start',
  'a2a.v1.A2AService',
]);

/** A whole quoted string that is a dotted name of the contract's namespaces. */
const NAME_LITERAL = /(['"])((?:a2a|gen_ai|rpc|server|url|http|error)\.[A-Za-z0-9_.]+)\1/g;
/** A use of one of semconv.ts's attribute or span-event names. */
const ATTR_REFERENCE = /\b(?:ATTR|EVENT)_[A-Z0-9_]+\b/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) out.push(...sourceFiles(p));
    else if (d.name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

/** Line comments and block comments removed (a name may be mentioned in prose). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function offences(files: Array<{ path: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    if (path === SEMCONV) continue;
    const code = withoutComments(text);
    for (const m of code.matchAll(NAME_LITERAL))
      if (!NOT_ATTRIBUTE_NAMES.has(m[2]!)) found.push(`${path}: literal '${m[2]}'`);
    if (path !== BUILDER)
      for (const m of code.matchAll(ATTR_REFERENCE)) found.push(`${path}: uses ${m[0]}`);
  }
  return found;
}

test('contract names only in semconv.ts; attributes built only in span-attributes.ts', () => {
  const files = sourceFiles(SRC).map((p) => ({
    path: relative(SRC, p),
    text: readFileSync(p, 'utf8'),
  }));
  assert.ok(files.some((f) => f.path === BUILDER));
  assert.deepEqual(offences(files), []);
});

test('the check fails on a name written outside semconv.ts or an attribute set outside the builder', () => {
  assert.deepEqual(
    offences([
      { path: join('telemetry', 'a2a-call.ts'), text: "span.setAttribute('a2a.task.id', id);" },
      { path: 'x.ts', text: `const a = { "error.type": 1 }; // 'a2a.in.a.comment'` },
      { path: join('telemetry', 'grpc-calls.ts'), text: 'attrs[sc.ATTR_RPC_SYSTEM] = 1;' },
      { path: BUILDER, text: 'attrs[sc.ATTR_RPC_SYSTEM] = 1;' },
      { path: SEMCONV, text: "export const ATTR_A2A_TASK_ID = 'a2a.task.id';" },
      { path: 'hooks/x.ts', text: "const CHANNEL = 'http.client.request.start';" },
    ]),
    [
      `${join('telemetry', 'a2a-call.ts')}: literal 'a2a.task.id'`,
      "x.ts: literal 'error.type'",
      `${join('telemetry', 'grpc-calls.ts')}: uses ATTR_RPC_SYSTEM`,
    ],
  );
});
