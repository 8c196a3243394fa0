/**
 * Hardening, part 1: property-based fuzzing of the pure core.
 *
 * - Every decoder, the classifier, the fingerprint, the judge and the media-type matcher
 *   are total: they never throw on `fc.anything()`, on `fc.jsonValue()`, nor on real 1.0 /
 *   0.3 / 0.1 payloads whose sub-values were replaced by arbitrary values (own `__proto__`
 *   keys, deep nesting, huge strings, wrong types), and what they return keeps its shape
 *   and caps. Nothing pollutes `Object.prototype`.
 * - Conforming traffic (cards of every version, requests naming a listed skill, tasks and
 *   stream events whose artifact parts are drawn from that skill's own output modes,
 *   failed tasks whose texts avoid the patterns, ordinary protocol errors, card
 *   re-fetches that only reorder or bump the version) never yields a drift verdict; a
 *   positive control checks the same pipeline does flag a foreign media type.
 * - SSE: generated event lists serialised with LF / CRLF / CR / mixed line ends, comments,
 *   multi-line data, unknown fields, an optional BOM, with or without the final newline,
 *   parse to exactly the generated events, split at every boundary (random boundaries
 *   for long streams) as in one piece; size-capped parsing is split-invariant too.
 * - BodyReader: JSON and SSE bodies, identity / gzip / deflate / br, split at random byte
 *   boundaries (mid UTF-8 sequence included), give the same documents and never modify
 *   the chunks they are handed.
 *
 * Fixed seed (FUZZ_SEED to change it). FUZZ_RUNS sets the runs of the main properties
 * (default 300; heavy properties run a fixed fraction of it): FUZZ_RUNS=3000 is ten times
 * the default. The total number of generated cases is printed at the end.
 *
 *   node --import tsx --test test/hardening/fuzz-core.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { BodyReader, type BodyMode } from '../../src/core/body-reader';
import { decodeCard, MAX_ENDPOINTS, MAX_SKILLS } from '../../src/core/card';
import { classifyRequest } from '../../src/core/classify';
import { skillFingerprint } from '../../src/core/fingerprint';
import {
  compilePatterns,
  judge,
  type JudgeOptions,
  type NegotiationContext,
} from '../../src/core/judge';
import { partMatchesModes } from '../../src/core/media-type';
import type { DecodedCard, DecodedPart, DecodedRequest, DecodedResult } from '../../src/core/model';
import { decodeHttpJsonRequest } from '../../src/core/protocol/http-json';
import { decodeJsonRpcRequest, DEFAULT_SKILL_ID_PATHS } from '../../src/core/protocol/jsonrpc';
import { decodeResponse, decodeStreamEvent } from '../../src/core/protocol/results';
import { MAX_ARTIFACTS, MAX_PARTS, MAX_STATUS_TEXT } from '../../src/core/protocol/result-parts';
import { CardRegistry } from '../../src/core/card-registry';
import { SseParser, type SseEvent } from '../../src/core/sse';

// ---------------------------------------------------------------------------------------
// Budget and counting
// ---------------------------------------------------------------------------------------

const SEED =
  Number.isFinite(Number(process.env.FUZZ_SEED)) && process.env.FUZZ_SEED !== undefined
    ? Number(process.env.FUZZ_SEED)
    : 0x5eed;
const BASE = Number(process.env.FUZZ_RUNS) > 0 ? Math.floor(Number(process.env.FUZZ_RUNS)) : 300;
const runs = (weight: number): number => Math.max(1, Math.round(BASE * weight));

let cases = 0; // generated inputs checked
let parserRuns = 0; // SSE parser / BodyReader runs, split variants included

function check<T>(prop: fc.IProperty<T>, weight = 1): void {
  fc.assert(prop, { seed: SEED, numRuns: runs(weight) });
}
async function checkAsync<T>(prop: fc.IAsyncProperty<T>, weight = 1): Promise<void> {
  await fc.assert(prop, { seed: SEED, numRuns: runs(weight) });
}

const protoKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

// ---------------------------------------------------------------------------------------
// Arbitrary values
// ---------------------------------------------------------------------------------------

/** Keys the decoders look for, plus prototype names: arbitrary objects hit the real branches. */
const A2A_KEYS = [
  'jsonrpc',
  'id',
  'method',
  'params',
  'result',
  'error',
  'code',
  'message',
  'data',
  'details',
  'reason',
  'status',
  'title',
  'detail',
  'task',
  'msg',
  'statusUpdate',
  'status_update',
  'artifactUpdate',
  'artifact_update',
  'kind',
  'type',
  'state',
  'parts',
  'content',
  'text',
  'raw',
  'url',
  'file',
  'mimeType',
  'mediaType',
  'media_type',
  'artifacts',
  'artifact',
  'artifactId',
  'taskId',
  'task_id',
  'contextId',
  'context_id',
  'sessionId',
  'final',
  'tasks',
  'role',
  'metadata',
  'skillId',
  'skills',
  'inputModes',
  'outputModes',
  'input_modes',
  'output_modes',
  'capabilities',
  'streaming',
  'pushNotifications',
  'defaultInputModes',
  'defaultOutputModes',
  'name',
  'version',
  'protocolVersion',
  'supportedInterfaces',
  'protocolBinding',
  'additionalInterfaces',
  'transport',
  'tenant',
  'preferredTransport',
  'messageId',
  'fileWithUri',
  'fileWithBytes',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'toJSON',
  'length',
  '0',
];
const keyArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...A2A_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const NASTY: unknown[] = [
  null,
  undefined,
  NaN,
  -0,
  Infinity,
  -Infinity,
  0,
  1,
  -1,
  2 ** 53,
  1e308,
  '',
  ' ',
  '\u0000',
  '__proto__',
  'TASK_STATE_FAILED',
  'failed',
  'FAILED',
  'task_state_failed',
  'TASK_STATE_CANCELLED',
  'completed',
  'submitted',
  'rejected',
  'unknown skill',
  'unsupported mode',
  'text/plain',
  'TEXT/PLAIN; charset=x',
  'text/*',
  '*/*',
  '*/plain',
  'text',
  'text/',
  '/plain',
  'a/b/c',
  'text',
  'file',
  'data',
  'task',
  'message',
  'status-update',
  'artifact-update',
  -32602,
  -32005,
  -32001,
  404,
  500,
  true,
  false,
  [],
  {},
  [[]],
  [{}],
  { text: 'x' },
  { kind: 'text', text: 'unknown skill' },
  'x'.repeat(70_000),
  ['text/plain', 5, null, 'image/*'],
];

/** Objects, arrays, typed arrays, Maps, Sets, Dates, bigints, boxed values, null-prototype objects, sparse arrays. */
const anyValue = fc.anything({
  key: keyArb,
  maxDepth: 4,
  maxKeys: 6,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: 'binary',
});

/** What JSON.parse can produce (own `__proto__` data properties included). */
const jsonArb = fc.jsonValue({ maxDepth: 5 });
const jsonWithA2AKeys = fc.dictionary(keyArb, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

/**
 * A value nested `depth` levels deep (arrays and objects alternating), built without
 * recursion. A tree, as JSON.parse makes: one child per level (a node sharing one child
 * under several keys would be a DAG whose JSON text is exponential in the depth).
 */
function deepNest(depth: number, leaf: unknown, useObjects: boolean): unknown {
  const keys = ['parts', 'text', 'status', 'id'];
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++)
    v = useObjects && i % 2 === 0 ? { [keys[(i >> 1) % keys.length]]: v } : [v];
  return v;
}
const deepArb = fc
  .record({
    depth: fc.integer({ min: 500, max: 12_000 }),
    objects: fc.boolean(),
    leaf: fc.constantFrom<unknown>('text/plain', 1, null, {}),
  })
  .map(({ depth, objects, leaf }) => deepNest(depth, leaf, objects));

/** A JSON.parse result with an own "__proto__" key holding `inner`. */
const protoArb = fc
  .jsonValue({ maxDepth: 2 })
  .map(
    (inner) =>
      JSON.parse(
        `{"__proto__": ${JSON.stringify(inner) ?? 'null'}, "kind": "task", "polluted": true}`,
      ) as unknown,
  );

const replacementArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: anyValue },
  { weight: 3, arbitrary: jsonArb },
  { weight: 2, arbitrary: jsonWithA2AKeys },
  { weight: 1, arbitrary: protoArb },
  { weight: 1, arbitrary: deepArb },
);

// ---------------------------------------------------------------------------------------
// Real payloads (shapes observed from @a2a-js/sdk 1.3 and the 0.1 fleet), to be mutated
// ---------------------------------------------------------------------------------------

const REQUESTS: unknown[] = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: {
      message: {
        messageId: 'm-1',
        role: 'ROLE_USER',
        parts: [{ text: 'hello' }],
        contextId: 'c',
        taskId: 't',
      },
      metadata: { skillId: 'summarize-v2' },
      tenant: 'acme',
    },
  },
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'SendStreamingMessage',
    params: {
      message: {
        messageId: 'm-2',
        role: 'ROLE_USER',
        parts: [{ text: 'hi', mediaType: 'text/plain' }],
      },
    },
  },
  { jsonrpc: '2.0', id: 3, method: 'GetTask', params: { name: 'tasks/t-2', historyLength: 2 } },
  {
    jsonrpc: '2.0',
    id: 4,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: 'm',
        role: 'user',
        parts: [{ kind: 'text', text: 'x' }],
        metadata: { skillId: 's' },
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 5,
    method: 'message/stream',
    params: {
      message: {
        kind: 'message',
        messageId: 'm',
        role: 'user',
        parts: [{ kind: 'file', file: { uri: 'u', mimeType: 'a/b' } }],
      },
      metadata: { skillId: 's' },
    },
  },
  {
    jsonrpc: '2.0',
    id: 6,
    method: 'tasks/send',
    params: {
      id: 'task-a',
      sessionId: 's1',
      skillId: 'summarize-v2',
      message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    },
  },
  {
    jsonrpc: '2.0',
    id: 7,
    method: 'tasks/sendSubscribe',
    params: {
      id: 'task-b',
      sessionId: 's1',
      metadata: { skillId: 'x' },
      message: { role: 'user', parts: [{ type: 'data', data: { a: 1 } }] },
    },
  },
  { jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: 'task-a', historyLength: 1 } },
  {
    jsonrpc: '2.0',
    id: 9,
    method: 'GetTaskPushNotificationConfig',
    params: { name: 'tasks/t-4/pushNotificationConfigs/c' },
  },
  { jsonrpc: '2.0', id: 10, method: 'agent/getAuthenticatedExtendedCard' },
];

const REST_BODIES: unknown[] = [
  {
    message: { messageId: 'm-2', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    metadata: { skillId: 'summarize-v2' },
  },
  {
    message: {
      messageId: 'm-3',
      role: 'ROLE_USER',
      parts: [{ text: 'hi' }],
      taskId: 't',
      contextId: 'c',
    },
    tenant: 'acme',
  },
];

const REST_PATHS = [
  '/a2a/rest/message:send',
  '/a2a/rest/message:stream',
  '/a2a/rest/tasks/t-1?historyLength=3',
  '/a2a/rest/tasks?contextId=c',
  '/a2a/rest/tasks/t-1:cancel',
  '/a2a/rest/tasks/t-1:subscribe',
  '/tasks/t-1/pushNotificationConfigs',
  '/tasks/t-1/pushNotificationConfigs/c-1',
  '/extendedAgentCard',
  '/v03/rest/v1/message:send',
  '/v1/card',
  '/v1/tasks/abc:subscribe',
  'http://agent.example:8080/acme/tasks/t%2F1#frag',
  'http://u:p@agent.example/tasks/%E0%A4%A',
  '/.well-known/agent-card.json',
  '/.well-known/agent.json?x=1',
  'https://h/a2a',
  '/tasks/',
  '//tasks//',
  '/message:s',
];

const RESPONSES: unknown[] = [
  {
    jsonrpc: '2.0',
    id: 1,
    result: {
      task: {
        id: 't',
        contextId: 'c',
        status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00Z' },
        artifacts: [
          { artifactId: 'a', name: 'n', parts: [{ text: '## x', mediaType: 'text/markdown' }] },
        ],
        history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hello' }] }],
        metadata: { skillId: 's' },
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 2,
    result: {
      task: {
        id: 't',
        contextId: 'c',
        status: {
          state: 'TASK_STATE_FAILED',
          message: {
            messageId: 'm',
            role: 'ROLE_AGENT',
            parts: [{ text: 'unknown skill: translate', mediaType: 'text/plain' }],
          },
        },
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 3,
    result: {
      message: {
        messageId: 'r',
        contextId: 'c',
        role: 'ROLE_AGENT',
        parts: [
          { text: 'hi' },
          { url: 'https://x/d.pdf', mediaType: 'application/pdf' },
          { raw: 'AA==', mediaType: 'image/png' },
          { data: { a: 1 } },
        ],
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 4,
    result: {
      kind: 'task',
      id: 't',
      contextId: 'c',
      status: { state: 'completed' },
      artifacts: [
        {
          artifactId: 'a',
          parts: [
            { kind: 'file', file: { uri: 'u', mimeType: 'image/png' } },
            { kind: 'data', data: {} },
          ],
        },
      ],
    },
  },
  {
    jsonrpc: '2.0',
    id: 5,
    result: {
      id: 'task-a',
      sessionId: 's1',
      status: {
        state: 'failed',
        message: { role: 'agent', parts: [{ type: 'text', text: 'unknown skill' }] },
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 6,
    result: {
      id: 'task-a',
      sessionId: 's1',
      status: { state: 'completed' },
      artifacts: [
        {
          name: 'r',
          parts: [{ type: 'file', file: { name: 'f', mimeType: 'text/plain', bytes: 'AA==' } }],
          index: 0,
        },
      ],
    },
  },
  {
    jsonrpc: '2.0',
    id: 7,
    error: {
      code: -32602,
      message: 'Invalid params',
      data: { skillId: 'x', reason: 'unknown skill' },
    },
  },
  {
    jsonrpc: '2.0',
    id: 8,
    error: {
      code: -32001,
      message: 'Task not found',
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }],
    },
  },
  {
    task: {
      id: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_CANCELLED' },
      artifacts: [
        {
          artifactId: 'a',
          parts: [{ file: { fileWithUri: 'u', mimeType: 'text/csv' } }, { data: { data: {} } }],
        },
      ],
    },
  },
  {
    id: 't',
    contextId: 'c',
    status: {
      state: 'TASK_STATE_WORKING',
      message: { role: 'ROLE_AGENT', content: [{ text: 'working' }] },
    },
  },
  { tasks: [{ id: 't' }], nextPageToken: '' },
  {
    error: {
      code: 404,
      status: 'NOT_FOUND',
      message: 'Task not found',
      details: [{ reason: 'TASK_NOT_FOUND' }],
    },
  },
  { code: -32001, message: 'Task not found' },
  { type: 'about:blank', title: 'Not Found', status: 404, detail: 'nope' },
];

const EVENTS: unknown[] = [
  {
    jsonrpc: '2.0',
    id: 3,
    result: {
      statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
    },
  },
  {
    jsonrpc: '2.0',
    id: 3,
    result: {
      artifactUpdate: {
        taskId: 't',
        contextId: 'c',
        artifact: { artifactId: 'a-1', parts: [{ text: 'r', mediaType: 'text/plain' }] },
        lastChunk: true,
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 3,
    result: {
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      status: { state: 'completed' },
      final: true,
    },
  },
  {
    jsonrpc: '2.0',
    id: 3,
    result: {
      kind: 'artifact-update',
      taskId: 't',
      contextId: 'c',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
    },
  },
  { jsonrpc: '2.0', id: 3, result: { id: 'task-a', status: { state: 'working' }, final: false } },
  {
    jsonrpc: '2.0',
    id: 3,
    result: {
      id: 'task-a',
      artifact: { parts: [{ type: 'text', text: 'x' }], index: 0, append: false, lastChunk: true },
    },
  },
  {
    statusUpdate: {
      taskId: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_FAILED', message: { content: [{ text: 'unsupported mode' }] } },
      final: true,
    },
  },
  {
    artifactUpdate: {
      taskId: 't',
      artifact: {
        artifactId: 'a',
        parts: [{ file: { fileWithBytes: 'AA==', mimeType: 'image/png' } }],
      },
    },
  },
  { error: { code: 500, status: 'INTERNAL', message: 'boom' } },
];

const CARDS: unknown[] = [
  {
    name: 'peer-a',
    description: 'x',
    url: 'https://peer-a.example/a2a',
    version: '1.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/markdown', 'application/json'],
    skills: [
      {
        id: 'summarize-v2',
        name: 'S',
        tags: [],
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
      },
      { id: 'extract', name: 'E', tags: [] },
    ],
  },
  {
    name: 'sdk-peer',
    version: '1.0',
    url: 'http://127.0.0.1:1/v03/jsonrpc',
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'summarize-v2',
        name: 's',
        tags: [],
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
      },
    ],
    additionalInterfaces: [
      { url: 'http://127.0.0.1:1/v03/jsonrpc', transport: 'JSONRPC' },
      { url: 'http://127.0.0.1:1/v03/rest', transport: 'HTTP+JSON' },
    ],
  },
  {
    name: 'sdk-peer',
    supportedInterfaces: [
      {
        url: 'http://127.0.0.1:1/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
      {
        url: 'http://127.0.0.1:1/a2a/rest',
        protocolBinding: 'HTTP+JSON',
        tenant: 'acme',
        protocolVersion: '1.0',
      },
    ],
    version: '1.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'summarize-v2',
        name: 's',
        description: '',
        tags: [],
        examples: [],
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
      },
    ],
    signatures: [],
  },
  {
    name: 'x',
    supported_interfaces: [
      { url: 'https://x/a2a', protocol_binding: 'GRPC', protocol_version: '1.0' },
    ],
    default_input_modes: ['text/plain'],
    default_output_modes: ['application/json'],
    capabilities: { push_notifications: true },
    skills: [{ id: 's', input_modes: ['image/png'] }],
  },
];

type Path = Array<string | number>;

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};

/** Paths to the values of a payload (through arrays and plain objects only), at most 400. */
function allPaths(root: unknown): Path[] {
  const out: Path[] = [];
  const stack: Array<[unknown, Path]> = [[root, []]];
  while (stack.length > 0 && out.length < 400) {
    const [v, p] = stack.pop() as [unknown, Path];
    out.push(p);
    if (p.length > 12) continue;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, [...p, i]]));
    else if (isPlain(v)) for (const k of Object.keys(v)) stack.push([v[k], [...p, k]]);
  }
  return out;
}

/** A shallow copy keeping the prototype, holes and own `__proto__` data properties. */
function shallow(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice();
  if (!isPlain(v)) return v;
  const c = Object.create(Object.getPrototypeOf(v)) as Record<string, unknown>;
  for (const k of Object.keys(v))
    Object.defineProperty(c, k, {
      value: v[k],
      enumerable: true,
      configurable: true,
      writable: true,
    });
  return c;
}

function setOwn(o: object, k: string | number, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, configurable: true, writable: true });
}

/**
 * Replace the value at `path` (or, when `addKey` is given and the target is an object, add
 * that key to it). Copy on write along the path: the sample itself is never modified.
 */
function mutate(root: unknown, path: Path, value: unknown, addKey: string | undefined): unknown {
  const copy = shallow(root);
  let node = copy;
  for (let i = 0; i < path.length; i++) {
    const child = shallow((node as Record<string | number, unknown>)[path[i]]);
    if (i === path.length - 1 && addKey === undefined) {
      setOwn(node as object, path[i], value);
      return copy;
    }
    setOwn(node as object, path[i], child);
    node = child;
  }
  if (addKey !== undefined && isPlain(node)) {
    setOwn(node, addKey, value);
    return copy;
  }
  return path.length === 0 ? value : copy;
}

/** Replacements JSON.stringify can serialise in bounded time (no sparse arrays of length 2^32 - 1, no bigint). */
const jsonReplacementArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 3, arbitrary: jsonArb },
  { weight: 2, arbitrary: jsonWithA2AKeys },
  { weight: 1, arbitrary: protoArb },
);

function mutatedArb(
  samples: unknown[],
  replacements: fc.Arbitrary<unknown> = replacementArb,
): fc.Arbitrary<unknown> {
  return fc
    .record({
      base: fc.constantFrom(...samples),
      edits: fc.array(
        fc.record({
          at: fc.nat(),
          value: replacements,
          add: fc.option(keyArb, { nil: undefined }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    })
    .map(({ base, edits }) => {
      let v = base;
      for (const e of edits) {
        const paths = allPaths(v);
        v = mutate(v, paths[e.at % paths.length], e.value, e.add);
      }
      return v;
    });
}

/** Anything, JSON, A2A-keyed JSON, or a mutated real payload. */
function inputArb(samples: unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: anyValue },
    { weight: 2, arbitrary: jsonArb },
    { weight: 1, arbitrary: jsonWithA2AKeys },
    { weight: 5, arbitrary: mutatedArb(samples) },
  );
}

// ---------------------------------------------------------------------------------------
// Shape checks of what the decoders return
// ---------------------------------------------------------------------------------------

const OPS = new Set([
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'CancelTask',
  'SubscribeToTask',
  'ListTasks',
  'GetExtendedAgentCard',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);
const STATES = new Set([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_UNSPECIFIED',
]);
const KINDS = new Set([
  'task',
  'message',
  'status-update',
  'artifact-update',
  'task-list',
  'error',
  'other',
]);
const PART_KINDS = new Set(['text', 'file', 'data', 'unknown']);
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

function assertRequest(r: DecodedRequest | undefined): void {
  if (r === undefined) return;
  assert.ok(OPS.has(r.operation), `operation ${String(r.operation)}`);
  assert.ok(r.binding === 'jsonrpc' || r.binding === 'http+json');
  assert.equal(typeof r.streaming, 'boolean');
  assert.equal(typeof r.wireMethod, 'string');
  for (const k of [
    'taskId',
    'contextId',
    'messageId',
    'skillId',
    'skillIdSource',
    'tenant',
    'protocolVersion',
  ] as const)
    assert.ok(optStr(r[k]), k);
  assert.ok(r.rpcId === undefined || typeof r.rpcId === 'string' || Number.isFinite(r.rpcId));
}

function assertParts(parts: DecodedPart[]): void {
  assert.ok(Array.isArray(parts) && parts.length <= MAX_PARTS);
  for (const p of parts) {
    assert.ok(PART_KINDS.has(p.kind));
    assert.ok(optStr(p.mediaType));
  }
}

function assertResult(r: DecodedResult): void {
  assert.ok(r !== null && typeof r === 'object');
  assert.ok(KINDS.has(r.kind), `kind ${String(r.kind)}`);
  assert.ok(Array.isArray(r.artifacts) && r.artifacts.length <= MAX_ARTIFACTS);
  for (const a of r.artifacts) {
    assert.ok(optStr(a.artifactId));
    assertParts(a.parts);
  }
  if (r.messageParts !== undefined) assertParts(r.messageParts);
  assert.ok(r.state === undefined || STATES.has(r.state));
  assert.ok(
    r.statusText === undefined ||
      (typeof r.statusText === 'string' && r.statusText.length <= MAX_STATUS_TEXT),
  );
  for (const k of ['taskId', 'contextId', 'problem', 'protocolVersion'] as const)
    assert.ok(optStr(r[k]), k);
  assert.ok(r.final === undefined || typeof r.final === 'boolean');
  if (r.error !== undefined) {
    assert.ok(r.error.code === undefined || Number.isInteger(r.error.code));
    assert.ok(optStr(r.error.message) && optStr(r.error.reason));
  }
}

function assertCard(c: DecodedCard): void {
  assert.ok(Array.isArray(c.skills) && c.skills.length <= MAX_SKILLS);
  assert.ok(Array.isArray(c.endpoints) && c.endpoints.length <= MAX_ENDPOINTS);
  assert.equal(typeof c.streaming, 'boolean');
  assert.equal(typeof c.pushNotifications, 'boolean');
  for (const k of ['name', 'version', 'description', 'protocolVersion', 'problem'] as const)
    assert.ok(optStr(c[k]), k);
  for (const s of c.skills) {
    assert.ok(typeof s.id === 'string' && s.id.length > 0);
    assert.ok(
      s.inputModes.every((m) => typeof m === 'string') &&
        s.outputModes.every((m) => typeof m === 'string'),
    );
  }
  for (const e of c.endpoints) assert.ok(typeof e.url === 'string' && e.url.length > 0);
}

const JUDGE_OPTS: JudgeOptions = {
  unknownSkillPatterns: compilePatterns(['unknown skill']),
  unsupportedModePatterns: compilePatterns(['unsupported mode']),
  strictTextParts: false,
};
const DRIFT_KINDS = new Set([
  'unknown_skill',
  'unsupported_mode',
  'invalid_params',
  'skill_not_in_card',
  'output_mode_mismatch',
  'card_changed',
]);

function assertJudgement(j: unknown): void {
  assert.ok(j !== null && typeof j === 'object');
  const v = j as { drift?: { kind: string; error: unknown }; unjudged?: unknown };
  if (v.drift !== undefined) {
    assert.ok(DRIFT_KINDS.has(v.drift.kind));
    assert.ok(v.drift.error instanceof Error);
  }
  assert.ok(v.unjudged === undefined || typeof v.unjudged === 'string');
}

const ctxArb: fc.Arbitrary<NegotiationContext> = fc.oneof(
  fc.record({
    skillId: fc.option(fc.constantFrom('summarize-v2', 'extract', 's', ''), { nil: undefined }),
    cardKnown: fc.boolean(),
    cardUrl: fc.option(fc.constant('http://peer/.well-known/agent.json'), { nil: undefined }),
    fingerprint: fc.option(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
      { nil: undefined },
    ),
    skillInCard: fc.option(fc.boolean(), { nil: undefined }),
    outputModes: fc.option(
      fc.array(
        fc.oneof(
          fc.constantFrom('text/plain', 'text/*', '*/*', 'text', 'image/png; q=1'),
          fc.string(),
        ),
      ),
      { nil: undefined },
    ),
  }),
  anyValue as fc.Arbitrary<NegotiationContext>,
);

// ---------------------------------------------------------------------------------------
// 1. Totality
// ---------------------------------------------------------------------------------------

test('request decoders and the classifier never throw on arbitrary and mutated requests', () => {
  const header = fc.oneof(
    fc.constantFrom(undefined, '1.0', '0.3', ' 0.3.0 ', '1.1', 'garbage', '99999.1'),
    anyValue,
  );
  const skillPaths = fc.oneof(
    fc.constant(undefined),
    fc.constant(DEFAULT_SKILL_ID_PATHS as string[]),
    fc.array(
      fc.oneof(
        fc.constantFrom(
          'params.skillId',
          'params..x',
          '',
          'params.__proto__.x',
          'params.message.parts.0.text',
          'a.'.repeat(40),
        ),
        fc.string(),
        anyValue,
      ),
      { maxLength: 80 },
    ),
    anyValue,
  );
  check(
    fc.property(inputArb(REQUESTS), skillPaths, header, (body, paths, h) => {
      cases++;
      assertRequest(decodeJsonRpcRequest(body, paths as string[], h as string));
    }),
    1,
  );
  const method = fc.oneof(
    fc.constantFrom('GET', 'POST', 'DELETE', 'get', 'post', 'PUT', 'OPTIONS', 'POSTPOSTPOST', ''),
    anyValue,
  );
  const path = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...REST_PATHS) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...REST_PATHS), fc.string({ unit: 'binary' }), fc.nat())
        .map(([p, s, i]) => p.slice(0, i % (p.length + 1)) + s + p.slice(i % (p.length + 1))),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('/tasks/' + 'a'.repeat(9000), '/' + 'tasks/'.repeat(2000)),
    },
    { weight: 1, arbitrary: anyValue },
  );
  check(
    fc.property(method, path, inputArb(REST_BODIES), skillPaths, header, (m, p, body, paths, h) => {
      cases++;
      assertRequest(
        decodeHttpJsonRequest(m as string, p as string, body, paths as string[], h as string),
      );
    }),
    1,
  );
  const bodyText = fc.oneof(
    mutatedArb(REQUESTS, jsonReplacementArb).map((v) => {
      try {
        return JSON.stringify(v) ?? 'null';
      } catch {
        return String(typeof v);
      }
    }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(
      undefined,
      '',
      ' \uFEFF{"method"',
      '{"method":"tasks/send"',
      '{'.repeat(5000) + '"method"',
      '\u00e9'.repeat(400_000) + '{"method":"x"}',
    ),
    anyValue,
  );
  const opts = fc.oneof(
    fc.record({
      skillIdPaths: skillPaths,
      a2aVersionHeader: header,
      maxBodyBytes: fc.oneof(fc.constantFrom(0, 10, 1 << 20, NaN, -1, Infinity), fc.nat()),
      knownA2AEndpoint: fc.oneof(fc.boolean(), anyValue),
    }),
    anyValue,
  );
  check(
    fc.property(method, path, bodyText, opts, (m, p, b, o) => {
      cases++;
      const c = classifyRequest(m as string, p as string, b as string, o as never);
      if (c !== undefined) {
        assert.ok(c.type === 'card' || c.type === 'operation' || c.type === 'maybe-operation');
        if (c.type === 'operation') assertRequest(c.request);
      }
    }),
    1,
  );
});

test('response and stream-event decoders never throw on arbitrary and mutated results; output keeps its shape and caps', () => {
  const reqArb: fc.Arbitrary<DecodedRequest | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...REQUESTS).map((r) => decodeJsonRpcRequest(r)),
    fc
      .constantFrom(...REST_PATHS)
      .map((p) =>
        decodeHttpJsonRequest(
          p.includes('message:') || p.includes(':cancel') ? 'POST' : 'GET',
          p,
          undefined,
        ),
      ),
    anyValue as fc.Arbitrary<DecodedRequest>,
  );
  const status = fc.oneof(
    fc.constantFrom(undefined, 200, 400, 404, 500, 599, 600, 399, NaN, -1, 404.5),
    anyValue,
  );
  check(
    fc.property(inputArb(RESPONSES), reqArb, status, (body, req, s) => {
      cases++;
      assertResult(decodeResponse(body, req, s as number));
    }),
    1.5,
  );
  const eventName = fc.oneof(fc.constantFrom(undefined, 'error', 'message', 'ERROR', ''), anyValue);
  check(
    fc.property(inputArb(EVENTS), reqArb, eventName, (data, req, e) => {
      cases++;
      assertResult(decodeStreamEvent(data, req, e as string));
    }),
    1.5,
  );
  // The status text the patterns see: the text parts joined by a space, cut at MAX_STATUS_TEXT.
  const textPart = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer({ min: 0, max: 9000 }).map((n) => 'a'.repeat(n)),
  );
  check(
    fc.property(
      fc.constantFrom<Dialect>('v10-jsonrpc', 'v10-rest', 'v03-jsonrpc', 'v03-rest', 'v01'),
      fc.array(textPart, { minLength: 1, maxLength: 1200 }),
      (d, texts) => {
        cases++;
        const body = pollEnvelope(
          d,
          taskBody(d, 't', stateName(d, 'failed'), [], statusMessage(d, texts)),
        );
        const r = decodeResponse(body);
        assertResult(r);
        const joined = texts.slice(0, MAX_PARTS).join(' ');
        assert.equal(
          r.statusText,
          joined.length > MAX_STATUS_TEXT ? joined.slice(0, MAX_STATUS_TEXT) : joined,
        );
      },
    ),
    0.3,
  );
});

/**
 * True when `v` holds an array whose length is beyond anything JSON.parse can make from a
 * body under the inspection cap (fast-check's sparse arrays reach 2^32 - 1). The skill
 * fingerprint mirrors Python over EVERY element (a hole is None), so it is linear in the
 * length: such values are not fed to it (JSON.parse only makes dense arrays).
 */
function hasHugeArray(v: unknown): boolean {
  const stack: unknown[] = [v];
  for (let seen = 0; stack.length > 0 && seen < 20_000; seen++) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      if (x.length > 4 * 1024 * 1024) return true;
      for (const k of Object.keys(x).slice(0, 1000)) stack.push(x[Number(k)]);
    } else if (x !== null && typeof x === 'object') {
      try {
        for (const k of Object.keys(x).slice(0, 1000))
          stack.push((x as Record<string, unknown>)[k]);
      } catch {
        // exotic object: skip
      }
    }
  }
  return false;
}

test('decodeCard and skillFingerprint never throw on arbitrary, mutated, deep and huge cards', () => {
  check(
    fc.property(inputArb(CARDS), (card) => {
      cases++;
      assertCard(decodeCard(card));
      if (hasHugeArray(card)) return;
      const fp = skillFingerprint(card);
      assert.match(fp, /^[0-9a-f]{64}$/);
    }),
    1.5,
  );
  // Hostile shapes the generators reach rarely: deep mode lists (fingerprint recursion),
  // a card whose skills are a getter that throws, a Proxy, a cycle, 20,000 skills.
  const cyclic: Record<string, unknown> = { name: 'c', skills: [] };
  (cyclic.skills as unknown[]).push({ id: 'x', inputModes: [cyclic] });
  const throwing = Object.defineProperty({ name: 't' }, 'skills', {
    enumerable: true,
    get: () => {
      throw new Error('boom');
    },
  });
  const proxy = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error('trap');
      },
      get: () => {
        throw new Error('trap');
      },
      getOwnPropertyDescriptor: () => {
        throw new Error('trap');
      },
    },
  );
  const many = {
    name: 'm',
    skills: Array.from({ length: 20_000 }, (_, i) => ({
      id: `s${i}`,
      outputModes: ['text/plain'],
    })),
  };
  const deep = {
    name: 'd',
    skills: [
      {
        id: 'x',
        inputModes: deepNest(50_000, 'a', false),
        outputModes: [deepNest(5_000, 'b', true)],
      },
    ],
  };
  for (const card of [cyclic, throwing, proxy, many, deep]) {
    cases++;
    assertCard(decodeCard(card));
    assert.match(skillFingerprint(card), /^[0-9a-f]{64}$/);
  }
  assert.equal(decodeCard(many).skills.length, MAX_SKILLS);
});

test('judge and partMatchesModes never throw, whatever the result, context and options', () => {
  const resultArb: fc.Arbitrary<DecodedResult> = fc.oneof(
    { weight: 3, arbitrary: inputArb(RESPONSES).map((b) => decodeResponse(b)) },
    { weight: 3, arbitrary: inputArb(EVENTS).map((b) => decodeStreamEvent(b)) },
    { weight: 2, arbitrary: anyValue as fc.Arbitrary<DecodedResult> },
  );
  const reqArb = fc.oneof(
    fc.constantFrom(...REQUESTS).map((r) => decodeJsonRpcRequest(r)),
    anyValue as fc.Arbitrary<DecodedRequest>,
  );
  const optsArb: fc.Arbitrary<JudgeOptions> = fc.oneof(
    fc.constant(JUDGE_OPTS),
    fc.record({
      unknownSkillPatterns: fc.constant(
        compilePatterns(['unknown skill', /skill\s+\w+/, /(a+)+$/]),
      ),
      unsupportedModePatterns: fc.constant([
        {
          label: 'throws',
          test: () => {
            throw new Error('user pattern');
          },
        },
      ]),
      strictTextParts: fc.boolean(),
    }),
    anyValue as fc.Arbitrary<JudgeOptions>,
  );
  check(
    fc.property(reqArb, ctxArb, resultArb, optsArb, (req, ctx, result, opts) => {
      cases++;
      assertJudgement(judge(req, ctx, result, opts));
    }),
    1.5,
  );
  const partArb = fc.oneof(
    inputArb([...RESPONSES, ...EVENTS]).map(
      (v) => decodeResponse(v).artifacts[0]?.parts[0] ?? { kind: 'text' as const },
    ),
    fc.record({
      kind: fc.constantFrom('text', 'file', 'data', 'unknown'),
      mediaType: fc.option(
        fc.oneof(
          fc.constantFrom(...NASTY.filter((x) => typeof x === 'string')),
          fc.string({ unit: 'binary' }),
        ),
        { nil: undefined },
      ),
    }),
    anyValue,
  );
  const modesArb = fc.oneof(
    fc.array(
      fc.oneof(
        fc.constantFrom('text/plain', 'TEXT/*', '*/*', 'text', '*/x', 'a/b;c=d', ' image/png '),
        fc.string({ unit: 'binary' }),
        anyValue,
      ),
      { maxLength: 20 },
    ),
    anyValue,
  );
  check(
    fc.property(
      partArb,
      modesArb,
      fc.oneof(fc.record({ strictTextParts: fc.boolean() }), anyValue),
      (part, modes, o) => {
        cases++;
        const v = partMatchesModes(part as DecodedPart, modes as string[], o as never);
        assert.ok(v === 'match' || v === 'mismatch' || v === 'unjudgeable', String(v));
      },
    ),
    1,
  );
});

/** JSON-shaped values whose objects are keyed mostly `__proto__` / `constructor` / `prototype` (own data properties, as JSON.parse makes them). */
const protoJsonArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 0 }),
    tie('arr'),
    tie('obj'),
  ),
  arr: fc.array(tie('value'), { maxLength: 3 }),
  obj: fc.dictionary(
    fc.oneof(
      fc.constantFrom('__proto__', '__proto__', 'constructor', 'prototype'),
      fc.constantFrom(...A2A_KEYS),
    ),
    tie('value'),
    { maxKeys: 4 },
  ),
})).value;

function assertPrototypeClean(): void {
  assert.deepEqual(
    Object.getOwnPropertyNames(Object.prototype).sort(),
    protoKeysBefore,
    'Object.prototype gained properties',
  );
  assert.deepEqual(
    Object.getOwnPropertyNames(Array.prototype).length,
    arrayProtoKeys,
    'Array.prototype gained properties',
  );
}
const arrayProtoKeys = Object.getOwnPropertyNames(Array.prototype).length;

/** A real payload with own `__proto__` keys (object values) added to random objects in it. */
function protoInsertArb(samples: unknown[]): fc.Arbitrary<unknown> {
  const payload = fc.oneof(
    fc.constant<unknown>({ polluted: true, kind: 'task' }),
    jsonWithA2AKeys,
    protoJsonArb.filter((v) => isPlain(v)),
    fc.constant<unknown>(
      JSON.parse(
        '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
      ),
    ),
  );
  return fc
    .record({
      base: fc.constantFrom(...samples),
      edits: fc.array(
        fc.record({
          at: fc.nat(),
          value: payload,
          key: fc.constantFrom('__proto__', '__proto__', 'constructor', 'prototype'),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    })
    .map(({ base, edits }) => {
      let v = base;
      for (const e of edits) {
        const objects = allPaths(v).filter((p) =>
          isPlain(p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v)),
        );
        if (objects.length > 0) v = mutate(v, objects[e.at % objects.length], e.value, e.key);
      }
      return v;
    });
}

test('no decoder pollutes Object.prototype, whatever `__proto__` / `constructor` keys the input holds and wherever', () => {
  const families: Array<[unknown[], (v: unknown) => void]> = [
    [
      REQUESTS,
      (v) => {
        decodeJsonRpcRequest(v);
        try {
          classifyRequest('POST', 'http://peer/a2a', JSON.stringify(v), {
            skillIdPaths: [
              'params.__proto__.skillId',
              'params.constructor.prototype.x',
              ...DEFAULT_SKILL_ID_PATHS,
            ],
            maxBodyBytes: 1 << 20,
          });
        } catch {
          // JSON.stringify of a value it cannot serialise: not the code under test
        }
      },
    ],
    [REST_BODIES, (v) => void decodeHttpJsonRequest('POST', '/a2a/message:send', v)],
    [
      RESPONSES,
      (v) => {
        const r = decodeResponse(v, decodeJsonRpcRequest(REQUESTS[0]), 500);
        judge(
          undefined,
          { cardKnown: true, skillId: 's', skillInCard: true, outputModes: ['text/*'] },
          decodeResponse(v),
          JUDGE_OPTS,
        );
        judge(
          undefined,
          { cardKnown: true, skillId: 's', skillInCard: true, outputModes: ['text/*'] },
          r,
          JUDGE_OPTS,
        );
      },
    ],
    [
      EVENTS,
      (v) =>
        void decodeStreamEvent(
          v,
          decodeHttpJsonRequest('POST', '/a2a/message:stream', undefined),
          'error',
        ),
    ],
    [
      CARDS,
      (v) =>
        void new CardRegistry().put(
          'http://peer/.well-known/agent-card.json',
          decodeCard(v),
          skillFingerprint(v),
          0,
        ),
    ],
  ];
  for (const [samples, run] of families) {
    check(
      fc.property(fc.oneof(protoInsertArb(samples), protoJsonArb), (v) => {
        cases++;
        run(v);
        assertPrototypeClean();
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      }),
      0.3,
    );
  }
  assertPrototypeClean();
});

// ---------------------------------------------------------------------------------------
// 2. Conforming traffic never drifts
// ---------------------------------------------------------------------------------------

const CONCRETE = [
  'text/plain',
  'text/markdown',
  'text/html',
  'text/csv',
  'application/json',
  'application/pdf',
  'application/vnd.acme.report+json',
  'image/png',
  'image/jpeg',
  'audio/wav',
  'video/mp4',
];
const MODE_POOL = [
  ...CONCRETE,
  'text/*',
  'image/*',
  'application/*',
  '*/*',
  'text/markdown; charset=utf-8',
  'Application/JSON',
];

function essence(m: string): string {
  return m.split(';')[0].trim().toLowerCase();
}
/** Independent oracle of the MIME rules (allowed side only has wildcards). */
function allowedBy(concrete: string, modes: readonly string[]): boolean {
  const a = essence(concrete);
  return modes.some((m) => {
    const e = essence(m);
    return (
      e === '*/*' ||
      e === a ||
      (e.endsWith('/*') && a.startsWith(e.slice(0, -1)) && a.length > e.length - 1)
    );
  });
}
const texty = (modes: readonly string[]): boolean =>
  modes.some((m) => essence(m) === '*/*' || essence(m).startsWith('text/'));
const jsonOk = (modes: readonly string[]): boolean => allowedBy('application/json', modes);

/** A concrete media type allowed by mode `m`, with random case and parameters. */
function concreteArb(m: string): fc.Arbitrary<string> {
  const e = essence(m);
  const base =
    e === '*/*'
      ? fc.constantFrom(...CONCRETE)
      : e.endsWith('/*')
        ? fc
            .constantFrom('plain', 'x-foo', 'vnd.a+json', 'png', 'markdown')
            .map((s) => e.slice(0, -1) + s)
        : fc.constant(m.split(';')[0].trim());
  return fc
    .tuple(
      base,
      fc.array(fc.boolean(), { maxLength: 40 }),
      fc.constantFrom('', '; charset=utf-8', ';q=0.5', ' ; version="1"'),
    )
    .map(
      ([t, ups, params]) =>
        [...t].map((ch, i) => (ups[i] ? ch.toUpperCase() : ch)).join('') + params,
    );
}

type Dialect = 'v10-jsonrpc' | 'v10-rest' | 'v03-jsonrpc' | 'v03-rest' | 'v01';
const DIALECTS: Dialect[] = ['v10-jsonrpc', 'v10-rest', 'v03-jsonrpc', 'v03-rest', 'v01'];

/** One conforming artifact part for `modes` in `dialect`. */
function partArb(dialect: Dialect, modes: readonly string[]): fc.Arbitrary<unknown> {
  const choices: Array<fc.Arbitrary<unknown>> = [];
  if (modes.length > 0) {
    const typed = fc.constantFrom(...modes).chain(concreteArb);
    switch (dialect) {
      case 'v10-jsonrpc':
      case 'v10-rest':
        choices.push(
          typed.chain((mediaType) =>
            fc.constantFrom<unknown>(
              { text: 'body', mediaType },
              { raw: 'AAEC', mediaType, filename: 'f' },
              { url: 'https://files.example/f', mediaType },
              { data: { k: 1 }, mediaType },
            ),
          ),
        );
        break;
      case 'v03-jsonrpc':
        choices.push(
          typed.map((mimeType) => ({
            kind: 'file',
            file: { name: 'f', mimeType, uri: 'https://files.example/f' },
          })),
        );
        break;
      case 'v03-rest':
        choices.push(
          typed.map((mimeType) => ({ file: { fileWithUri: 'https://files.example/f', mimeType } })),
        );
        break;
      case 'v01':
        choices.push(
          typed.map((mimeType) => ({ type: 'file', file: { name: 'f', mimeType, bytes: 'AAEC' } })),
        );
        break;
    }
  }
  if (texty(modes)) {
    choices.push(
      fc
        .string()
        .map((text) =>
          dialect === 'v03-jsonrpc'
            ? { kind: 'text', text }
            : dialect === 'v01'
              ? { type: 'text', text }
              : { text },
        ),
    );
  }
  if (jsonOk(modes)) {
    choices.push(
      fc
        .jsonValue({ maxDepth: 2 })
        .map((data) =>
          dialect === 'v03-jsonrpc'
            ? { kind: 'data', data }
            : dialect === 'v01'
              ? { type: 'data', data }
              : dialect === 'v03-rest'
                ? { data: { data } }
                : { data },
        ),
    );
  }
  if (choices.length === 0) {
    // The card advertises nothing this dialect can state: anything goes (the judge must say "cannot judge", not drift).
    choices.push(
      fc
        .constantFrom(...CONCRETE)
        .map((mimeType) => ({ kind: 'file', file: { mimeType, uri: 'u' } })),
    );
  }
  return fc.oneof(...choices);
}

/** Texts of a failed status that avoid the patterns, built from near misses. */
const failureTextArb = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'unknown',
        'skill',
        'Unknown skil',
        'skill unknown',
        'unsupported',
        'mode',
        'mode unsupported',
        'UNSUPPORTED  MODE',
        'unknown_skill',
        'unknown-skill',
        'internal error',
        'quota exceeded',
      ),
      fc.string({ maxLength: 30 }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .filter((parts) => {
    const t = parts.join(' ').toLowerCase();
    return !t.includes('unknown skill') && !t.includes('unsupported mode');
  });

interface Scenario {
  dialect: Dialect;
  card: Record<string, unknown>;
  cardUrl: string;
  /** URL the operation is posted to. */
  opUrl: string;
  versionHeader?: string;
  skillId: string;
  modes: string[];
  request: Record<string, unknown>;
  taskId: string;
  /** unary response bodies (send, then polls) */
  responses: Array<{ body: unknown; status: number }>;
  /** stream events (data documents) */
  events: unknown[];
}

const HOST = 'http://peer.test:8080';

function cardFor(
  dialect: Dialect,
  skills: Array<Record<string, unknown>>,
  defaults: string[],
  version: string,
): { card: Record<string, unknown>; opBase: string } {
  const common = {
    name: 'peer',
    description: 'conforming peer',
    version,
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: defaults,
    skills,
  };
  switch (dialect) {
    case 'v01':
      return { card: { ...common, url: `${HOST}/a2a` }, opBase: `${HOST}/a2a` };
    case 'v03-jsonrpc':
    case 'v03-rest':
      return {
        card: {
          ...common,
          url: `${HOST}/v03/jsonrpc`,
          preferredTransport: 'JSONRPC',
          protocolVersion: '0.3',
          additionalInterfaces: [
            { url: `${HOST}/v03/jsonrpc`, transport: 'JSONRPC' },
            { url: `${HOST}/v03/rest`, transport: 'HTTP+JSON' },
          ],
        },
        opBase: dialect === 'v03-rest' ? `${HOST}/v03/rest` : `${HOST}/v03/jsonrpc`,
      };
    default:
      return {
        card: {
          ...common,
          supportedInterfaces: [
            { url: `${HOST}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
            { url: `${HOST}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
          ],
        },
        opBase: dialect === 'v10-rest' ? `${HOST}/a2a/rest` : `${HOST}/a2a/jsonrpc`,
      };
  }
}

function stateName(
  dialect: Dialect,
  s: 'submitted' | 'working' | 'completed' | 'failed' | 'rejected' | 'canceled' | 'input-required',
): string {
  if (dialect === 'v01' || dialect === 'v03-jsonrpc') return s;
  if (dialect === 'v03-rest' && s === 'canceled') return 'TASK_STATE_CANCELLED';
  return `TASK_STATE_${s.toUpperCase().replace('-', '_')}`;
}

function statusMessage(dialect: Dialect, texts: string[]): unknown {
  switch (dialect) {
    case 'v01':
      return { role: 'agent', parts: texts.map((text) => ({ type: 'text', text })) };
    case 'v03-jsonrpc':
      return {
        kind: 'message',
        messageId: 'sm',
        role: 'agent',
        parts: texts.map((text) => ({ kind: 'text', text })),
      };
    case 'v03-rest':
      return { messageId: 'sm', role: 'ROLE_AGENT', content: texts.map((text) => ({ text })) };
    default:
      return {
        messageId: 'sm',
        role: 'ROLE_AGENT',
        parts: texts.map((text) => ({ text, mediaType: 'text/plain' })),
      };
  }
}

function taskBody(
  dialect: Dialect,
  taskId: string,
  state: string,
  artifacts: unknown[][],
  message?: unknown,
): Record<string, unknown> {
  const status: Record<string, unknown> = { state };
  if (message !== undefined) status.message = message;
  const arts = artifacts.map((parts, i) =>
    dialect === 'v01'
      ? { name: `a${i}`, parts, index: i }
      : { artifactId: `a${i}`, name: `a${i}`, parts },
  );
  const t: Record<string, unknown> = { id: taskId, status };
  if (dialect === 'v01') t.sessionId = 'sess';
  else t.contextId = 'ctx';
  if (dialect === 'v03-jsonrpc') t.kind = 'task';
  if (arts.length > 0) t.artifacts = arts;
  return t;
}

/** The unary result of a send, in its dialect's envelope. */
function sendEnvelope(dialect: Dialect, task: Record<string, unknown>): unknown {
  switch (dialect) {
    case 'v10-jsonrpc':
      return { jsonrpc: '2.0', id: 1, result: { task } };
    case 'v10-rest':
    case 'v03-rest':
      return { task };
    default:
      return { jsonrpc: '2.0', id: 1, result: task };
  }
}
function pollEnvelope(dialect: Dialect, task: Record<string, unknown>): unknown {
  return dialect === 'v10-rest' || dialect === 'v03-rest'
    ? task
    : { jsonrpc: '2.0', id: 2, result: task };
}

function streamEvent(
  dialect: Dialect,
  taskId: string,
  ev: { status?: { state: string; message?: unknown }; artifact?: unknown[]; final?: boolean },
  i: number,
): unknown {
  let inner: unknown;
  if (ev.artifact !== undefined) {
    const artifact =
      dialect === 'v01'
        ? { parts: ev.artifact, index: 0, append: i > 0 }
        : { artifactId: `a${i}`, parts: ev.artifact };
    if (dialect === 'v01') inner = { id: taskId, artifact };
    else if (dialect === 'v03-jsonrpc')
      inner = { kind: 'artifact-update', taskId, contextId: 'ctx', artifact };
    else inner = { artifactUpdate: { taskId, contextId: 'ctx', artifact } };
  } else {
    const status = ev.status;
    if (dialect === 'v01') inner = { id: taskId, status, final: ev.final === true };
    else if (dialect === 'v03-jsonrpc')
      inner = { kind: 'status-update', taskId, contextId: 'ctx', status, final: ev.final === true };
    else if (dialect === 'v03-rest')
      inner = { statusUpdate: { taskId, contextId: 'ctx', status, final: ev.final === true } };
    else inner = { statusUpdate: { taskId, contextId: 'ctx', status } };
  }
  return dialect === 'v10-rest' || dialect === 'v03-rest'
    ? inner
    : { jsonrpc: '2.0', id: 1, result: inner };
}

function requestFor(
  dialect: Dialect,
  skillId: string,
  taskId: string,
  streaming: boolean,
  where: number,
): { body: Record<string, unknown>; url: string; header?: string } {
  const metadata = { skillId };
  switch (dialect) {
    case 'v01':
      return {
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: streaming ? 'tasks/sendSubscribe' : 'tasks/send',
          params: {
            id: taskId,
            sessionId: 'sess',
            ...(where === 0 ? { skillId } : { metadata }),
            message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
          },
        },
        url: `${HOST}/a2a`,
      };
    case 'v03-jsonrpc':
      return {
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: streaming ? 'message/stream' : 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: 'm1',
              role: 'user',
              parts: [{ kind: 'text', text: 'hello' }],
              ...(where === 2 ? { metadata } : {}),
            },
            ...(where !== 2 ? { metadata } : {}),
          },
        },
        url: `${HOST}/v03/jsonrpc`,
      };
    case 'v03-rest':
      return {
        body: {
          message: { messageId: 'm1', role: 'ROLE_USER', content: [{ text: 'hello' }] },
          metadata,
        },
        url: `${HOST}/v03/rest/v1/message:${streaming ? 'stream' : 'send'}`,
      };
    case 'v10-rest':
      return {
        body: {
          message: {
            messageId: 'm1',
            role: 'ROLE_USER',
            parts: [{ text: 'hello' }],
            ...(where === 2 ? { metadata } : {}),
          },
          ...(where !== 2 ? { metadata } : {}),
        },
        url: `${HOST}/a2a/rest/message:${streaming ? 'stream' : 'send'}`,
        header: '1.0',
      };
    default:
      return {
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: streaming ? 'SendStreamingMessage' : 'SendMessage',
          params: {
            message: {
              messageId: 'm1',
              role: 'ROLE_USER',
              parts: [{ text: 'hello' }],
              ...(where === 2 ? { metadata } : {}),
            },
            ...(where !== 2 ? { metadata } : {}),
          },
        },
        url: `${HOST}/a2a/jsonrpc`,
        header: where === 1 ? '1.0' : undefined,
      };
  }
}

const skillIdArb = fc.oneof(
  fc.constantFrom(
    'summarize-v2',
    'translate-v1',
    '__proto__',
    'constructor',
    'a.b',
    'ünï',
    'x'.repeat(300),
  ),
  fc.string({ minLength: 1, maxLength: 20 }),
);

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    dialect: fc.constantFrom(...DIALECTS),
    ids: fc.uniqueArray(skillIdArb, { minLength: 1, maxLength: 6 }),
    defaults: fc.subarray(MODE_POOL, { maxLength: 4 }),
    version: fc.constantFrom('1.0', '2.3.1', ''),
    pick: fc.nat(),
    where: fc.nat({ max: 2 }),
    streaming: fc.boolean(),
    taskId: fc.string({ minLength: 1, maxLength: 12 }),
  })
  .chain((b) =>
    fc
      .tuple(
        ...b.ids.map(() => fc.option(fc.subarray(MODE_POOL, { maxLength: 4 }), { nil: undefined })),
      )
      .chain((own) => {
        const skills = b.ids.map((id, i) => {
          const s: Record<string, unknown> = { id, name: `skill ${i}`, description: '', tags: [] };
          if (own[i] !== undefined) s.outputModes = own[i];
          return s;
        });
        const idx = b.pick % b.ids.length;
        const ownModes = own[idx];
        const modes = ownModes !== undefined && ownModes.length > 0 ? ownModes : b.defaults;
        const { card } = cardFor(b.dialect, skills, b.defaults, b.version);
        const d = b.dialect;
        const parts = fc.array(partArb(d, modes), { minLength: 1, maxLength: 3 });
        const artifacts = fc.array(parts, { minLength: 0, maxLength: 3 });
        const outcome = fc.oneof(
          artifacts.map((a) => ({
            state: 'completed' as const,
            artifacts: a,
            texts: undefined as string[] | undefined,
          })),
          fc
            .tuple(
              fc.constantFrom('failed' as const, 'rejected' as const, 'canceled' as const),
              failureTextArb,
            )
            .map(([state, texts]) => ({ state, artifacts: [] as unknown[][], texts })),
          // not failed: any text at all, even one matching the patterns, is no verdict
          fc
            .tuple(
              fc.constantFrom('working' as const, 'input-required' as const),
              fc.array(
                fc.oneof(fc.string(), fc.constantFrom('unknown skill', 'Unsupported Mode')),
                { minLength: 1, maxLength: 2 },
              ),
            )
            .map(([state, texts]) => ({ state, artifacts: [] as unknown[][], texts })),
        );
        const error = fc.constantFrom(
          -32001,
          -32002,
          -32003,
          -32004,
          -32600,
          -32601,
          -32603,
          -32700,
          1,
          0,
        );
        return fc
          .record({
            outcome,
            chunks: fc.array(parts, { minLength: 0, maxLength: 4 }),
            error: fc.option(error, { nil: undefined }),
          })
          .map(({ outcome, chunks, error: errCode }): Scenario => {
            const req = requestFor(d, b.ids[idx], b.taskId, b.streaming, b.where);
            const message =
              outcome.texts === undefined ? undefined : statusMessage(d, outcome.texts);
            const submitted = taskBody(d, b.taskId, stateName(d, 'submitted'), []);
            const last = taskBody(
              d,
              b.taskId,
              stateName(d, outcome.state),
              outcome.artifacts,
              message,
            );
            const rest = d === 'v10-rest' || d === 'v03-rest';
            const responses: Scenario['responses'] = [
              { body: sendEnvelope(d, submitted), status: 200 },
              { body: pollEnvelope(d, last), status: 200 },
            ];
            if (errCode !== undefined) {
              responses.push(
                rest
                  ? {
                      body: {
                        error: { code: 404, status: 'NOT_FOUND', message: 'Task not found' },
                      },
                      status: 404,
                    }
                  : {
                      body: {
                        jsonrpc: '2.0',
                        id: 3,
                        error: { code: errCode, message: 'Task not found' },
                      },
                      status: 200,
                    },
              );
            }
            const events: unknown[] = [
              streamEvent(d, b.taskId, { status: { state: stateName(d, 'submitted') } }, 0),
            ];
            events.push(
              streamEvent(d, b.taskId, { status: { state: stateName(d, 'working') } }, 0),
            );
            chunks.forEach((c, i) => events.push(streamEvent(d, b.taskId, { artifact: c }, i)));
            events.push(
              streamEvent(
                d,
                b.taskId,
                {
                  status:
                    message === undefined
                      ? { state: stateName(d, outcome.state) }
                      : { state: stateName(d, outcome.state), message },
                  final: true,
                },
                0,
              ),
            );
            return {
              dialect: d,
              card,
              cardUrl: `${HOST}/.well-known/agent-card.json`,
              opUrl: req.url,
              versionHeader: req.header,
              skillId: b.ids[idx],
              modes,
              request: req.body,
              taskId: b.taskId,
              responses,
              events,
            };
          });
      }),
  );

/** What the instrumentation does at request time (a2a-call's negotiationContext), over a private registry. */
function negotiate(s: Scenario): {
  req: DecodedRequest;
  ctx: NegotiationContext;
  registry: CardRegistry;
} {
  const registry = new CardRegistry();
  registry.put(s.cardUrl, decodeCard(s.card), skillFingerprint(s.card), 0);
  const cls = classifyRequest('POST', s.opUrl, JSON.stringify(s.request), {
    skillIdPaths: DEFAULT_SKILL_ID_PATHS,
    a2aVersionHeader: s.versionHeader,
    maxBodyBytes: 1 << 20,
  });
  assert.ok(cls?.type === 'operation', `not classified: ${s.opUrl}`);
  const req = cls.request;
  assert.equal(req.skillId, s.skillId, 'skill id read from the request');
  const entry = registry.forRequestUrl(s.opUrl);
  assert.ok(entry, 'the card is found for the operation URL');
  const skill = entry.skills.get(s.skillId);
  assert.ok(skill, 'the skill is in the card');
  return {
    req,
    registry,
    ctx: {
      skillId: s.skillId,
      cardKnown: true,
      cardUrl: entry.cardUrl,
      fingerprint: entry.fingerprint,
      agentName: entry.card.name,
      cardVersion: entry.card.version,
      skillInCard: true,
      outputModes: skill.outputModes,
    },
  };
}

function sseBytes(docs: unknown[], eol: string, multiline: boolean, comments: boolean): Buffer {
  let out = '';
  for (const d of docs) {
    if (comments) out += `: keep-alive${eol}`;
    const json = multiline ? JSON.stringify(d, null, 1) : JSON.stringify(d);
    out +=
      json
        .split('\n')
        .map((l) => `data: ${l}`)
        .join(eol) +
      eol +
      eol;
  }
  return Buffer.from(out, 'utf8');
}

function encode(buf: Buffer, enc: string | undefined): Buffer {
  switch (enc) {
    case 'gzip':
      return zlib.gzipSync(buf);
    case 'deflate':
      return zlib.deflateSync(buf);
    case 'br':
      return zlib.brotliCompressSync(buf);
    default:
      return buf;
  }
}

function splitBytes(buf: Buffer, cuts: number[]): Buffer[] {
  const pos = [...new Set(cuts.map((c) => (buf.length === 0 ? 0 : c % (buf.length + 1))))].sort(
    (a, b) => a - b,
  );
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of pos) {
    if (p > prev) out.push(buf.subarray(prev, p));
    prev = Math.max(prev, p);
  }
  if (prev < buf.length) out.push(buf.subarray(prev));
  return out;
}

/** Runs a body through BodyReader chunk by chunk; resolves with the documents and problems at onEnd. */
function readBody(
  mode: BodyMode,
  encoding: string | undefined,
  chunks: Buffer[],
  maxBytes: number,
  complete = true,
): Promise<{ docs: unknown[]; problems: string[] }> {
  parserRuns++;
  return new Promise((resolve, reject) => {
    const docs: unknown[] = [];
    const problems: string[] = [];
    const timer = setTimeout(() => reject(new Error('BodyReader never ended')), 5000);
    const reader = new BodyReader(mode, encoding, maxBytes, {
      onDocument: (v) => docs.push(v),
      onProblem: (p) => problems.push(p),
      onEnd: () => {
        clearTimeout(timer);
        resolve({ docs, problems });
      },
    });
    for (const c of chunks) reader.push(c);
    reader.end(complete);
  });
}

const ENCODINGS = [undefined, 'identity', 'gzip', 'deflate', 'br'] as const;

test('conforming traffic of every dialect never yields a drift verdict (send, polls, errors, streams through BodyReader)', async () => {
  await checkAsync(
    fc.asyncProperty(
      scenarioArb,
      fc.constantFrom(...ENCODINGS),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 12 }),
      async (s, enc, eol, multiline, comments, cuts) => {
        cases++;
        const { req, ctx } = negotiate(s);
        for (const r of s.responses) {
          const result = decodeResponse(r.body, req, r.status);
          const v = judge(req, ctx, result, JUDGE_OPTS);
          assert.equal(
            v.drift,
            undefined,
            `drift ${v.drift?.kind} on ${JSON.stringify(r.body)} modes ${JSON.stringify(s.modes)}`,
          );
        }
        const wire = encode(
          sseBytes(s.events, eol, multiline, comments),
          enc === 'identity' ? undefined : enc,
        );
        const { docs, problems } = await readBody('sse', enc, splitBytes(wire, cuts), 4 << 20);
        assert.deepEqual(problems, []);
        assert.equal(docs.length, s.events.length, 'every event read');
        const streamReq: DecodedRequest = { ...req, streaming: true };
        for (const d of docs) {
          const v = judge(streamReq, ctx, decodeStreamEvent(d, streamReq), JUDGE_OPTS);
          assert.equal(
            v.drift,
            undefined,
            `drift ${v.drift?.kind} on event ${JSON.stringify(d)} modes ${JSON.stringify(s.modes)}`,
          );
        }
      },
    ),
    1,
  );
});

test('positive control: the same pipeline flags a part whose explicit media type is outside the modes', () => {
  check(
    fc.property(scenarioArb, fc.constantFrom(...CONCRETE), (s, foreign) => {
      fc.pre(s.modes.length > 0 && !allowedBy(foreign, s.modes));
      cases++;
      const { req, ctx } = negotiate(s);
      const parts = s.dialect.startsWith('v10')
        ? [{ raw: 'AA==', mediaType: foreign }]
        : s.dialect === 'v03-rest'
          ? [{ file: { fileWithUri: 'u', mimeType: foreign } }]
          : s.dialect === 'v01'
            ? [{ type: 'file', file: { mimeType: foreign } }]
            : [{ kind: 'file', file: { mimeType: foreign } }];
      const body = pollEnvelope(
        s.dialect,
        taskBody(s.dialect, s.taskId, stateName(s.dialect, 'completed'), [parts]),
      );
      const v = judge(req, ctx, decodeResponse(body, req, 200), JUDGE_OPTS);
      assert.equal(
        v.drift?.kind,
        'output_mode_mismatch',
        `${foreign} vs ${JSON.stringify(s.modes)}`,
      );
    }),
    0.5,
  );
});

test('a conforming re-fetch (reordered skills, modes and keys, other names; or a version bump) is never card_changed', () => {
  const shuffle = <T>(a: T[], seed: number[]): T[] => {
    const out = [...a];
    for (let i = out.length - 1; i > 0; i--) {
      const j = (seed[i % Math.max(1, seed.length)] ?? 0) % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const reorderKeys = (o: Record<string, unknown>, seed: number[]): Record<string, unknown> =>
    Object.fromEntries(shuffle(Object.entries(o), seed));
  check(
    fc.property(
      scenarioArb,
      fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      (s, seed, bump) => {
        cases++;
        const registry = new CardRegistry();
        const first = registry.put(s.cardUrl, decodeCard(s.card), skillFingerprint(s.card), 0);
        assert.equal(first.changed, false);
        const skills = shuffle(s.card.skills as Array<Record<string, unknown>>, seed).map((sk) => {
          const c = reorderKeys(
            { ...sk, name: `${String(sk.name)} (renamed)`, description: 'new words' },
            seed,
          );
          if (Array.isArray(sk.outputModes))
            c.outputModes = shuffle(sk.outputModes as string[], seed);
          return c;
        });
        const again = JSON.parse(
          JSON.stringify(
            reorderKeys(
              {
                ...s.card,
                skills,
                name: 'peer (renamed)',
                description: 'other',
                version: bump ? `${String(s.card.version)}+1` : s.card.version,
              },
              seed,
            ),
          ),
        ) as Record<string, unknown>;
        const update = registry.put(s.cardUrl, decodeCard(again), skillFingerprint(again), 1);
        assert.equal(update.changed, false, 'card_changed on a conforming re-fetch');
        if (!bump) assert.equal(update.entry.fingerprint, first.entry.fingerprint);
      },
    ),
    0.5,
  );
});

// ---------------------------------------------------------------------------------------
// 3. SSE parser: exact events, split invariance
// ---------------------------------------------------------------------------------------

const noBreak = (s: string): string => s.replace(/[\r\n]/g, '');
const lineArb = fc.string({ unit: 'binary', maxLength: 24 }).map(noBreak);
const genEventArb = fc.record({
  event: fc.option(
    fc
      .string({ unit: 'binary', minLength: 1, maxLength: 10 })
      .map(noBreak)
      .filter((s) => s.length > 0),
    { nil: undefined },
  ),
  id: fc.option(
    fc.string({ unit: 'binary', maxLength: 10 }).map((s) => noBreak(s).replace(/\0/g, '')),
    { nil: undefined },
  ),
  data: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
  comments: fc.array(fc.string({ maxLength: 12 }).map(noBreak), { maxLength: 2 }),
  extras: fc.array(
    fc.constantFrom('retry: 1500', 'retry: x', 'foo: bar', 'unknownfield', 'id', 'event'),
    { maxLength: 2 },
  ),
  order: fc.array(fc.nat(), { maxLength: 8 }),
  dataStyle: fc.array(fc.nat({ max: 2 }), { maxLength: 4 }),
});
type GenEvent = typeof genEventArb extends fc.Arbitrary<infer T> ? T : never;

const streamArb = fc.record({
  events: fc.array(genEventArb, { maxLength: 8 }),
  eol: fc.constantFrom('lf', 'crlf', 'cr', 'mixed'),
  eolPicks: fc.array(fc.nat({ max: 2 }), { maxLength: 64 }),
  bom: fc.boolean(),
  ending: fc.constantFrom('blank', 'no-blank', 'no-eol'),
  leadingComment: fc.boolean(),
});

/** Serialises a generated stream; returns the text and the events a conforming parser must give. */
function serialise(g: typeof streamArb extends fc.Arbitrary<infer T> ? T : never): {
  text: string;
  expected: SseEvent[];
  sizes: number[];
} {
  const EOLS = ['\n', '\r\n', '\r'];
  let pick = 0;
  let prevEol = '';
  const eolFor = (line: string): string => {
    let e =
      g.eol === 'lf'
        ? '\n'
        : g.eol === 'crlf'
          ? '\r\n'
          : g.eol === 'cr'
            ? '\r'
            : EOLS[g.eolPicks[pick++ % Math.max(1, g.eolPicks.length)] ?? 0];
    // "\r" then an empty line ended by "\n" would read as one CRLF break: not what was meant.
    if (prevEol === '\r' && line === '' && e === '\n') e = '\r\n';
    prevEol = e;
    return e;
  };
  const expected: SseEvent[] = [];
  /** Per dispatched event: the size the cap counts (its non-comment lines, each + 1). */
  const sizes: number[] = [];
  const blocks: string[][] = [];
  if (g.leadingComment) blocks.push([': hello', '']);
  g.events.forEach((ev: GenEvent, n) => {
    const fields: string[] = ev.data.map((l, i) => {
      const style = ev.dataStyle[i] ?? 0;
      if (l === '' && style === 2) return 'data';
      if (style === 1 && !l.startsWith(' ')) return `data:${l}`;
      return `data: ${l}`;
    });
    const extra: string[] = [...ev.comments.map((c) => `:${c}`), ...ev.extras];
    if (ev.event !== undefined) extra.push(`event: ${ev.event}`);
    if (ev.id !== undefined) extra.push(`id: ${ev.id}`);
    // insert the extra lines at generated positions among the data lines (data order kept)
    const block = [...fields];
    extra.forEach((x, i) => block.splice((ev.order[i] ?? 0) % (block.length + 1), 0, x));
    // "event"/"id" without a colon reset the field to empty: where they land decides the value
    let eventName = '';
    let id: string | undefined;
    for (const line of block) {
      if (line === 'event') eventName = '';
      else if (line.startsWith('event: ')) eventName = line.slice(7);
      else if (line === 'id') id = '';
      else if (line.startsWith('id: ')) id = line.slice(4);
    }
    const e: SseEvent = { data: ev.data.join('\n') };
    if (eventName.length > 0) e.event = eventName;
    if (id !== undefined) e.id = id;
    const last = n === g.events.length - 1;
    if (!last || g.ending === 'blank') {
      expected.push(e);
      sizes.push(block.filter((l) => !l.startsWith(':')).reduce((n, l) => n + l.length + 1, 0));
    }
    block.push('');
    blocks.push(block);
  });
  let text = g.bom ? '\uFEFF' : '';
  const flat = blocks.flat();
  if (g.events.length > 0 && g.ending !== 'blank') flat.pop(); // drop the final blank line
  flat.forEach((line, i) => {
    const isLast = i === flat.length - 1;
    text += line + (isLast && g.ending === 'no-eol' && g.events.length > 0 ? '' : eolFor(line));
  });
  return { text, expected, sizes };
}

function parseChunks(chunks: string[], max?: number): { events: SseEvent[]; parser: SseParser } {
  parserRuns++;
  const parser = new SseParser(max === undefined ? undefined : { maxEventBytes: max });
  const events: SseEvent[] = [];
  for (const c of chunks) {
    events.push(...parser.push(c));
    if (max !== undefined) {
      // Memory stays O(max): the buffered line and the event's data never exceed the cap.
      const inner = parser as unknown as { line: string; data: string; dataMore?: string[] };
      assert.ok(inner.line.length <= max, `buffered line ${inner.line.length} > cap ${max}`);
      assert.ok(
        inner.data.length + (inner.dataMore ?? []).reduce((n, d) => n + d.length, 0) <= max,
        'buffered data over the cap',
      );
    }
  }
  events.push(...parser.end());
  return { events, parser };
}

function randomCuts(text: string, cuts: number[]): string[] {
  const pos = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of pos) {
    out.push(text.slice(prev, p));
    prev = p;
  }
  out.push(text.slice(prev));
  return out;
}

test('SSE: generated streams parse to exactly the generated events, in one piece, split at every boundary, and char by char', () => {
  check(
    fc.property(
      streamArb,
      fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
      (g, cutSets) => {
        cases++;
        const { text, expected } = serialise(g);
        const whole = parseChunks([text]);
        assert.deepEqual(whole.events, expected, JSON.stringify(text));
        if (text.length <= 600) {
          for (let i = 0; i <= text.length; i++)
            assert.deepEqual(
              parseChunks([text.slice(0, i), text.slice(i)]).events,
              expected,
              `split at ${i} of ${JSON.stringify(text)}`,
            );
        }
        for (const cuts of cutSets)
          assert.deepEqual(parseChunks(randomCuts(text, cuts)).events, expected, `cuts ${cuts}`);
        if (text.length <= 4000)
          assert.deepEqual(parseChunks([...text]).events, expected, 'code point by code point');
        const units: string[] = [];
        for (let i = 0; i < text.length; i++) units.push(text[i]); // UTF-16 units: lone surrogate halves per chunk
        assert.deepEqual(parseChunks(units).events, expected, 'UTF-16 unit by unit');
      },
    ),
    1,
  );
});

test('SSE: with a size cap, exactly the events that fit are dispatched, the rest counted, memory bounded, and split parsing equals whole parsing', () => {
  check(
    fc.property(
      streamArb,
      fc.integer({ min: 1, max: 120 }),
      fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 6 }),
      (g, max, cutSets) => {
        cases++;
        const { text, expected, sizes } = serialise(g);
        const whole = parseChunks([text], max);
        const sig = (r: { events: SseEvent[]; parser: SseParser }): unknown => [
          r.events,
          r.parser.oversizedEvents,
          r.parser.truncated,
        ];
        // Oracle: an event is dispatched iff its field lines (comments excluded, each + 1) fit the cap.
        assert.deepEqual(
          whole.events,
          expected.filter((_, i) => sizes[i] <= max),
          `cap ${max}: ${JSON.stringify(text)}`,
        );
        assert.equal(
          whole.parser.oversizedEvents,
          sizes.filter((n) => n > max).length,
          'oversized events counted',
        );
        if (text.length <= 300) {
          for (let i = 0; i <= text.length; i++)
            assert.deepEqual(
              sig(parseChunks([text.slice(0, i), text.slice(i)], max)),
              sig(whole),
              `cap ${max} split at ${i}: ${JSON.stringify(text)}`,
            );
        }
        for (const cuts of cutSets)
          assert.deepEqual(
            sig(parseChunks(randomCuts(text, cuts), max)),
            sig(whole),
            `cap ${max} cuts ${cuts}`,
          );
      },
    ),
    1,
  );
});

// ---------------------------------------------------------------------------------------
// 4. BodyReader: encodings × random byte boundaries
// ---------------------------------------------------------------------------------------

const docArb = fc
  .jsonValue({ maxDepth: 4, stringUnit: 'binary' })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

test('BodyReader: JSON and SSE bodies, identity/gzip/deflate/br, split at random byte boundaries, give the same documents and leave the chunks untouched', async () => {
  await checkAsync(
    fc.asyncProperty(
      fc.constantFrom<BodyMode>('json', 'sse'),
      fc.constantFrom(undefined, 'identity', 'gzip', 'x-gzip', 'deflate', 'br', ' GZIP ', 'Br'),
      fc.array(docArb, { minLength: 1, maxLength: 5 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 20 }),
      async (mode, enc, docs, eol, multiline, comments, cuts) => {
        cases++;
        const plain =
          mode === 'json'
            ? Buffer.from(JSON.stringify(docs[0]), 'utf8')
            : sseBytes(docs, eol, multiline, comments);
        const e = enc?.trim().toLowerCase();
        const wire = encode(plain, e === 'x-gzip' ? 'gzip' : e === 'identity' ? undefined : e);
        const chunks = splitBytes(wire, cuts);
        const copies = chunks.map((c) => Buffer.from(c));
        const { docs: got, problems } = await readBody(mode, enc, chunks, 4 << 20);
        assert.deepEqual(problems, []);
        assert.deepEqual(got, mode === 'json' ? [docs[0]] : docs);
        chunks.forEach((c, i) =>
          assert.ok(c.equals(copies[i]), 'a chunk handed to BodyReader was modified'),
        );
      },
    ),
    1,
  );
});

test('BodyReader: past the cap (plain or decompressed), or cut short, it reports a problem and no document; never throws', async () => {
  await checkAsync(
    fc.asyncProperty(
      fc.constantFrom<BodyMode>('json', 'sse'),
      fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'compress', 'gzip, br'),
      fc.array(docArb, { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 1, max: 64 }),
      fc.oneof(fc.constant(undefined), fc.nat()),
      async (mode, enc, docs, max, truncateAt) => {
        cases++;
        const big = docs.map((d) => ({ pad: 'x'.repeat(max + 1), d }));
        const plain =
          mode === 'json' ? Buffer.from(JSON.stringify(big[0])) : sseBytes(big, '\n', false, false);
        let wire: Buffer = ['gzip', 'deflate', 'br'].includes(enc ?? '')
          ? encode(plain, enc)
          : plain;
        if (truncateAt !== undefined)
          wire = wire.subarray(0, truncateAt % Math.max(1, wire.length));
        const { docs: got, problems } = await readBody(
          mode,
          enc,
          splitBytes(wire, [truncateAt ?? 0, 7, 13]),
          max,
          truncateAt === undefined,
        );
        assert.deepEqual(got, [], 'nothing over the cap is parsed');
        if (mode === 'json' || enc === 'compress' || enc === 'gzip, br')
          assert.ok(problems.length > 0, 'the reason is reported');
      },
    ),
    0.5,
  );
});

// Last (tests in a file run in order): the figure the README cites.
test('fuzz case count', () => {
  assert.ok(cases > 0);

  console.log(
    `fuzz-core: ${cases} generated cases checked (${parserRuns} SSE/BodyReader parser runs incl. split variants), seed ${SEED}, FUZZ_RUNS ${BASE}`,
  );
});
