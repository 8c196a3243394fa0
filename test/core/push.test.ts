/**
 * core/push.ts: webhooks read from outgoing requests of every version (secrets only as
 * digests), the bounded registry (cap, age, pending → bound, held pushes), decodePush.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyRequest } from '../../src/core/classify';
import {
  decodePush,
  MAX_HELD_PUSHES,
  PushRegistry,
  pushWebhookOf,
  secretDigest,
  type PushRegistration,
} from '../../src/core/push';

const opts = { skillIdPaths: ['params.metadata.skillId'], maxBodyBytes: 1 << 20 };

function decoded(url: string, body: unknown) {
  const cls = classifyRequest('POST', url, JSON.stringify(body), opts);
  assert.equal(cls?.type, 'operation');
  return (cls as { request: import('../../src/core/model').DecodedRequest }).request;
}

test('1.0 SendMessage taskPushNotificationConfig (token, authentication) and 0.3 message/send pushNotificationConfig', () => {
  const v1 = decoded('http://a.example/a2a', {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: {
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
      configuration: {
        returnImmediately: true,
        taskPushNotificationConfig: {
          url: 'https://Hook.example:8443/cb?x=1',
          token: 'tok',
          authentication: { scheme: 'Bearer', credentials: 'cred' },
        },
      },
    },
  });
  assert.deepEqual(v1.pushWebhook, {
    pathKey: '/cb?x=1',
    authority: 'hook.example:8443',
    port: 8443,
    secrets: [secretDigest('token', 'tok'), secretDigest('authorization', 'Bearer cred')],
  });
  assert.ok(!JSON.stringify(v1).includes('tok"') && !JSON.stringify(v1).includes('cred'));
  const v03 = decoded('http://a.example/a2a', {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        messageId: 'm',
        role: 'user',
        parts: [{ kind: 'text', text: 'x' }],
      },
      configuration: {
        blocking: false,
        pushNotificationConfig: {
          url: 'http://127.0.0.1:9/hook',
          authentication: { schemes: ['Basic', 'Bearer'], credentials: 'c' },
        },
      },
    },
  });
  assert.equal(v03.pushWebhook?.pathKey, '/hook');
  assert.equal(v03.pushWebhook?.port, 9);
  assert.deepEqual(v03.pushWebhook?.secrets, [
    secretDigest('authorization', 'Basic c'),
    secretDigest('authorization', 'Bearer c'),
  ]);
});

test('CreateTaskPushNotificationConfig: 0.3 tasks/pushNotificationConfig/set and the 1.0 flat config', () => {
  const set = decoded('http://a.example/a2a', {
    jsonrpc: '2.0',
    id: 1,
    method: 'tasks/pushNotificationConfig/set',
    params: { taskId: 't1', pushNotificationConfig: { url: 'http://h/x', token: 'k' } },
  });
  assert.equal(set.taskId, 't1');
  assert.equal(set.pushWebhook?.pathKey, '/x');
  assert.equal(
    pushWebhookOf('CreateTaskPushNotificationConfig', {
      taskId: 't',
      url: 'http://h/y',
      token: 'k',
    })?.pathKey,
    '/y',
  );
  // odd input: nothing, never a throw
  for (const bad of [
    null,
    1,
    'x',
    { url: 'ftp://h/x' },
    { url: 'not a url' },
    { url: 'x'.repeat(5000) },
  ])
    assert.equal(pushWebhookOf('CreateTaskPushNotificationConfig', bad), undefined);
  assert.equal(pushWebhookOf('GetTask', { url: 'http://h/x', token: 'k' }), undefined);
});

function reg(taskId: string | undefined, createdAt: number, path = '/hook'): PushRegistration {
  return {
    webhook: {
      pathKey: path,
      authority: '127.0.0.1:9',
      port: 9,
      secrets: [secretDigest('token', 'k')],
    },
    origin: { endpointUrl: 'http://a/a2a', binding: 'jsonrpc', wireMethod: 'SendMessage' },
    createdAt,
    ...(taskId !== undefined ? { taskId } : {}),
  };
}
const facts = (secret = 'k', path = '/hook') => ({
  pathKey: path,
  host: '127.0.0.1:9',
  localPort: 9,
  secrets: [secretDigest('token', secret)],
});

test('PushRegistry: matches webhook + secret + task; pending registrations hold a few pushes until bound', () => {
  const r = new PushRegistry({ maxEntries: 10, maxAgeMs: 1000 });
  const bound = reg('t1', 0);
  r.add(bound);
  assert.ok(r.watchesPath('/hook'));
  assert.deepEqual(r.match(facts(), 't1', 10), { bound });
  assert.equal(r.match(facts('wrong'), 't1', 10), undefined);
  assert.equal(r.match({ ...facts(), host: 'other:1', localPort: 2 }, 't1', 10), undefined);
  assert.equal(r.match(facts(), 't2', 10), undefined);
  assert.equal(r.match(facts(), 't1', 2000), undefined, 'expired');
  const pending = reg(undefined, 5);
  r.add(pending);
  const m = r.match(facts(), 't2', 10);
  assert.ok(m && 'pending' in m);
  const result = decodePush({
    statusUpdate: { taskId: 't2', status: { state: 'TASK_STATE_WORKING' } },
  });
  for (let i = 0; i < MAX_HELD_PUSHES + 3; i++)
    r.hold(pending, { result, at: 1, parent: undefined });
  const other = decodePush({
    statusUpdate: { taskId: 'zz', status: { state: 'TASK_STATE_WORKING' } },
  });
  assert.equal(pending.held?.length, MAX_HELD_PUSHES);
  pending.held![0] = { result: other, at: 1, parent: undefined };
  const held = r.bind(pending, 't2');
  assert.equal(held?.length, MAX_HELD_PUSHES - 1, 'only the pushes for the bound task');
  assert.deepEqual(r.match(facts(), 't2', 10), { bound: pending });
  r.remove(pending);
  r.remove(bound);
  assert.equal(r.size, 0);
  assert.equal(r.watchesPath('/hook'), false);
  assert.equal(r.add({ ...reg('t', 0), webhook: { ...reg('t', 0).webhook, secrets: [] } }), false);
});

test('PushRegistry: a push for a task no registration is bound to matches only a pending one (kept apart: few)', () => {
  const r = new PushRegistry({ maxEntries: 100_000, maxAgeMs: 1_000_000 });
  for (let i = 0; i < 1000; i++) r.add(reg(`t${i}`, i));
  for (let i = 0; i < 100; i++) assert.equal(r.match(facts(), `forged-${i}`, 10), undefined);
  const p = reg(undefined, 5);
  r.add(p);
  assert.deepEqual(r.match(facts(), 'new-task', 10), { pending: p });
  r.bind(p, 'new-task');
  assert.deepEqual(r.match(facts(), 'new-task', 10), { bound: p });
  assert.equal(r.match(facts(), 'other', 10), undefined, 'bound: no longer pending');
});

test('PushRegistry: bounded by its entry cap and age', () => {
  const r = new PushRegistry({ maxEntries: 100, maxAgeMs: 1_000_000 });
  for (let i = 0; i < 1000; i++) r.add(reg(`t${i}`, i, `/p${i}`));
  assert.equal(r.size, 100);
  assert.equal(r.watchesPath('/p0'), false);
  assert.ok(r.watchesPath('/p999'));
  r.setLimits(100, 10);
  r.add(reg('late', 2000, '/late'));
  assert.equal(r.size, 1, 'older than the age cap: dropped');
});

test('decodePush: 1.0 members, 0.3 Task snapshots, pushed messages', () => {
  const a = decodePush({
    artifactUpdate: {
      taskId: 't',
      artifact: { artifactId: 'a', parts: [{ text: 'x', mediaType: 'text/plain' }] },
    },
  });
  assert.equal(a.kind, 'artifact-update');
  assert.equal(a.taskId, 't');
  assert.equal(a.artifacts[0].parts[0].mediaType, 'text/plain');
  const s = decodePush({ kind: 'task', id: 't', status: { state: 'failed' } });
  assert.equal(s.kind, 'task');
  assert.equal(s.state, 'TASK_STATE_FAILED');
  const m = decodePush({ message: { messageId: 'm', taskId: 't', role: 'ROLE_AGENT', parts: [] } });
  assert.equal(m.taskId, 't');
  for (const bad of [null, 'x', [], { task: 1 }]) assert.equal(decodePush(bad).taskId, undefined);
});
