import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCard, normaliseUrl, notACardReason, MAX_SKILLS } from '../../src/core/card';
import type { DecodedCard } from '../../src/core/model';

test('0.1 card (/.well-known/agent.json era): url only, defaults inherited by skills without modes', () => {
  const card = {
    name: 'peer-a',
    description: 'Summaries',
    url: 'https://peer-a.example/a2a',
    version: '1.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    authentication: { schemes: ['bearer'] },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/markdown', 'application/json'],
    skills: [
      {
        id: 'summarize-v2',
        name: 'Summarize',
        description: 'x',
        tags: ['text'],
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
      },
      { id: 'extract', name: 'Extract', tags: [] },
    ],
  };
  assert.deepEqual(decodeCard(card), {
    name: 'peer-a',
    version: '1.0',
    description: 'Summaries',
    endpoints: [{ url: 'https://peer-a.example/a2a', binding: 'JSONRPC' }],
    streaming: true,
    pushNotifications: false,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/markdown', 'application/json'],
    skills: [
      {
        id: 'summarize-v2',
        name: 'Summarize',
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
      },
      {
        id: 'extract',
        name: 'Extract',
        inputModes: ['text/plain'],
        outputModes: ['text/markdown', 'application/json'],
      },
    ],
  });
});

test('0.3 card: url + preferredTransport + additionalInterfaces, top-level protocolVersion', () => {
  const card = {
    name: 'sdk-peer',
    description: 'A2A test peer built on @a2a-js/sdk',
    version: '1.0',
    url: 'http://127.0.0.1:44095/v03/jsonrpc',
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'summarize-v2',
        name: 'summarize-v2',
        description: '',
        tags: [],
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
      },
    ],
    additionalInterfaces: [
      { url: 'http://127.0.0.1:44095/v03/jsonrpc', transport: 'JSONRPC' },
      { url: 'http://127.0.0.1:44095/v03/rest', transport: 'HTTP+JSON' },
    ],
  };
  const d = decodeCard(card);
  assert.equal(d.protocolVersion, '0.3');
  assert.deepEqual(d.endpoints, [
    { url: 'http://127.0.0.1:44095/v03/jsonrpc', binding: 'JSONRPC', protocolVersion: '0.3' },
    { url: 'http://127.0.0.1:44095/v03/rest', binding: 'HTTP+JSON', protocolVersion: '0.3' },
  ]);
  assert.equal(d.problem, undefined);
});

test('1.0 card as @a2a-js/sdk 1.3 serves it: supportedInterfaces, per-interface version, tenant', () => {
  const card = {
    name: 'sdk-peer',
    description: 'A2A test peer built on @a2a-js/sdk',
    supportedInterfaces: [
      {
        url: 'http://127.0.0.1:44095/a2a/jsonrpc',
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
      {
        url: 'http://127.0.0.1:44095/a2a/rest',
        protocolBinding: 'HTTP+JSON',
        tenant: 'acme',
        protocolVersion: '1.0',
      },
      {
        url: 'http://127.0.0.1:44095/v03/jsonrpc',
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: '0.3',
      },
    ],
    version: '1.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'summarize-v2',
        name: 'summarize-v2',
        description: '',
        tags: [],
        examples: [],
        inputModes: ['text/plain'],
        outputModes: ['text/markdown'],
        securityRequirements: [],
      },
      {
        id: 'translate-v1',
        name: 'Translate',
        description: 'Translates text.',
        tags: [],
        examples: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const d = decodeCard(card);
  assert.equal(d.protocolVersion, undefined); // 1.0 has none at the top
  assert.deepEqual(d.endpoints, [
    { url: 'http://127.0.0.1:44095/a2a/jsonrpc', binding: 'JSONRPC', protocolVersion: '1.0' },
    {
      url: 'http://127.0.0.1:44095/a2a/rest',
      binding: 'HTTP+JSON',
      protocolVersion: '1.0',
      tenant: 'acme',
    },
    { url: 'http://127.0.0.1:44095/v03/jsonrpc', binding: 'JSONRPC', protocolVersion: '0.3' },
  ]);
  assert.deepEqual(d.skills, [
    {
      id: 'summarize-v2',
      name: 'summarize-v2',
      inputModes: ['text/plain'],
      outputModes: ['text/markdown'],
    },
    {
      id: 'translate-v1',
      name: 'Translate',
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
    },
  ]);
  assert.equal(d.streaming, true);
});

test('snake_case proto JSON is accepted as a fallback', () => {
  const d = decodeCard({
    name: 'x',
    supported_interfaces: [
      { url: 'https://x/a2a', protocol_binding: 'GRPC', protocol_version: '1.0' },
    ],
    default_input_modes: ['text/plain'],
    default_output_modes: ['application/json'],
    capabilities: { push_notifications: true },
    skills: [{ id: 's', input_modes: ['image/png'] }],
  });
  assert.deepEqual(d.endpoints, [
    { url: 'https://x/a2a', binding: 'GRPC', protocolVersion: '1.0' },
  ]);
  assert.equal(d.pushNotifications, true);
  assert.deepEqual(d.skills, [
    { id: 's', inputModes: ['image/png'], outputModes: ['application/json'] },
  ]);
});

test('effective modes: absent / non-array / empty inherit defaults; only string entries kept', () => {
  const d = decodeCard({
    name: 'x',
    defaultInputModes: ['text/plain', 5, null, 'image/*'],
    defaultOutputModes: ['text/markdown'],
    skills: [
      { id: 'own', inputModes: ['application/pdf', 7], outputModes: ['text/csv'] },
      { id: 'absent' },
      { id: 'string-not-array', inputModes: 'text/html', outputModes: { a: 1 } },
      { id: 'empty', inputModes: [], outputModes: [1, 2] },
      { id: 'null', inputModes: null },
    ],
  });
  assert.deepEqual(d.defaultInputModes, ['text/plain', 'image/*']);
  const by = Object.fromEntries(d.skills.map((s) => [s.id, s]));
  assert.deepEqual(by.own, {
    id: 'own',
    inputModes: ['application/pdf'],
    outputModes: ['text/csv'],
  });
  assert.deepEqual(by.absent.inputModes, ['text/plain', 'image/*']);
  assert.deepEqual(by.absent.outputModes, ['text/markdown']);
  assert.deepEqual(by['string-not-array'].inputModes, ['text/plain', 'image/*']);
  assert.deepEqual(by.empty.inputModes, ['text/plain', 'image/*']);
  assert.deepEqual(by.empty.outputModes, ['text/markdown']);
  assert.deepEqual(by.null.inputModes, ['text/plain', 'image/*']);
  assert.match(d.problem ?? '', /1 skill\(s\) with non-array modes/);
  // effective mode arrays are copies, not shared with the defaults
  by.absent.inputModes.push('mutated');
  assert.deepEqual(d.defaultInputModes, ['text/plain', 'image/*']);
});

test('capabilities: only true is true', () => {
  for (const v of ['true', 1, {}, [], null, 'yes']) {
    const d = decodeCard({ name: 'x', capabilities: { streaming: v, pushNotifications: v } });
    assert.equal(d.streaming, false, String(v));
    assert.equal(d.pushNotifications, false, String(v));
  }
  assert.equal(decodeCard({ name: 'x', capabilities: { streaming: true } }).streaming, true);
  assert.match(
    decodeCard({ name: 'x', capabilities: [] }).problem ?? '',
    /capabilities is not an object/,
  );
});

test('skills without a string id are skipped and counted', () => {
  const d = decodeCard({
    name: 'x',
    skills: [{ id: 1 }, { name: 'no id' }, null, 'summarize', { id: '' }, { id: 'ok' }],
  });
  assert.deepEqual(
    d.skills.map((s) => s.id),
    ['ok'],
  );
  assert.match(d.problem ?? '', /5 skill\(s\) without a string id skipped/);
});

test('caps: at most 10 000 skills', () => {
  const skills = Array.from({ length: MAX_SKILLS + 10 }, (_, i) => ({ id: `s${i}` }));
  const d = decodeCard({ name: 'x', skills });
  assert.equal(d.skills.length, MAX_SKILLS);
  assert.match(d.problem ?? '', /first 10000 skills/);
});

test('endpoints: duplicates once, non-string urls dropped', () => {
  const d = decodeCard({
    name: 'x',
    url: 'https://a/rpc',
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: 'https://a/rpc', transport: 'JSONRPC' },
      { url: 5, transport: 'GRPC' },
      null,
      { transport: 'HTTP+JSON' },
    ],
    supportedInterfaces: 'nope',
  });
  assert.deepEqual(d.endpoints, [{ url: 'https://a/rpc', binding: 'JSONRPC' }]);
  assert.match(d.problem ?? '', /supportedInterfaces is not an array/);
});

test('not a card: problem set; error bodies are not cards', () => {
  assert.match(
    decodeCard({ error: { code: 400, status: 'FAILED_PRECONDITION' } }).problem ?? '',
    /not an Agent Card/,
  );
  assert.match(decodeCard('<html>').problem ?? '', /not a JSON object/);
});

function hostileValues(): unknown[] {
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    undefined,
    null,
    0,
    NaN,
    'card',
    [],
    [{ name: 'x' }],
    {},
    Object.create(null),
    JSON.parse('{"__proto__": {"skills": [{"id": "evil"}], "capabilities": {"streaming": true}}}'),
    { name: 5, version: {}, description: [], protocolVersion: 1 },
    { skills: {}, defaultInputModes: 'text/plain', defaultOutputModes: 1, capabilities: 'x' },
    { skills: [{ id: 'x', inputModes: new Array(100_000).fill('text/plain') }] },
    { skills: new Array(50_000).fill({ id: 'dup' }) },
    { supportedInterfaces: new Array(100_000).fill({ url: 'https://x' }) },
    new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
      },
    ),
    revocable.proxy,
  ];
}

test('hostile values: decodeCard never throws, never invents skills or capabilities', () => {
  for (const v of hostileValues()) {
    let d: DecodedCard | undefined;
    assert.doesNotThrow(() => {
      d = decodeCard(v);
    });
    assert.ok(d);
    assert.ok(Array.isArray(d.skills) && Array.isArray(d.endpoints));
    assert.ok(d.skills.every((s) => s.id !== 'evil'));
    assert.ok(d.skills.every((s) => s.inputModes.length <= 1000));
    assert.ok(d.endpoints.length <= 100);
    assert.equal(typeof d.streaming, 'boolean');
  }
  assert.equal(
    decodeCard(JSON.parse('{"__proto__": {"capabilities": {"streaming": true}}}')).streaming,
    false,
  );
});

test('prototype pollution does not leak into card decoding', () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto.skills = [{ id: 'polluted' }];
  proto.streaming = true;
  try {
    const d = decodeCard({ name: 'x', capabilities: {} });
    assert.equal(d.skills.length, 0);
    assert.equal(d.streaming, false);
  } finally {
    delete proto.skills;
    delete proto.streaming;
  }
});

test('normaliseUrl', () => {
  const cases: [unknown, unknown, string | undefined][] = [
    ['HTTPS://Peer-A.Example:443/a2a/?x=1#frag', undefined, 'https://peer-a.example/a2a'],
    ['http://user:pw@host:80/', undefined, 'http://host'],
    ['http://host:8080/a2a//', undefined, 'http://host:8080/a2a'],
    ['https://h', undefined, 'https://h'],
    ['/a2a/jsonrpc', 'http://127.0.0.1:4000/x', 'http://127.0.0.1:4000/a2a/jsonrpc'],
    ['jsonrpc', 'http://h/base/', 'http://h/base/jsonrpc'],
    [new URL('https://H/x/'), undefined, 'https://h/x'],
    ['grpc://GRPC.example:50051/', undefined, 'grpc://grpc.example:50051'],
    ['http://[::1]:9000/a', undefined, 'http://[::1]:9000/a'],
    ['/relative-without-base', undefined, undefined],
    ['not a url', undefined, undefined],
    ['', undefined, undefined],
    [42, undefined, undefined],
    [null, undefined, undefined],
  ];
  for (const [u, b, want] of cases)
    assert.equal(normaliseUrl(u as string, b as string), want, String(u));
  // the same endpoint written two ways matches
  assert.equal(
    normaliseUrl('https://agent.example/a2a/'),
    normaliseUrl('HTTPS://AGENT.EXAMPLE:443/a2a?tenant=x'),
  );
});

test("notACardReason names the fields: a Python server's None is `is null`", () => {
  assert.equal(
    notACardReason({ name: 'x', url: 'http://a/', protocolVersion: '0.3.0', skills: null }),
    'skills is null',
  );
  assert.equal(notACardReason({ url: 'http://a/', skills: [] }), 'no name');
  assert.equal(
    notACardReason({ name: '', skills: 'summarize' }),
    'name is not a non-empty string; skills is not an array; no url, supportedInterfaces or protocolVersion',
  );
  assert.equal(notACardReason('<html>'), 'not a JSON object');
  assert.equal(notACardReason({ name: 'x', url: 'http://a/', skills: [] }), 'an Agent Card');
  const hostile = new Proxy(
    {},
    {
      get: () => {
        throw new Error('boom');
      },
      ownKeys: () => {
        throw new Error('boom');
      },
      getOwnPropertyDescriptor: () => {
        throw new Error('boom');
      },
    },
  );
  assert.equal(typeof notACardReason(hostile), 'string');
});
