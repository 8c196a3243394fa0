'use strict';
/**
 * Callers WITHOUT this package (another team's client, another language): run in a child
 * process of their own, so nothing of the package sees their side. Used by round 4 of the
 * demo (./scenario.js):
 *
 *   a new caller   GET  <card url>                       (it discovers the agent)
 *   an old caller  POST <jsonrpc url> SendMessage naming <skill id>, the skill its card from
 *                  an earlier deploy listed; no A2A-Card-Fingerprint header (it has no package)
 *
 * Prints one JSON line: { cardStatus, state, announced } (the task state of the answer and the
 * A2A-Card-Fingerprint the agent's answer carried).
 */
const { spawn } = require('node:child_process');

const CHILD = `
const [cardUrl, rpcUrl, skillId] = process.argv.slice(1);
(async () => {
  const card = await fetch(cardUrl);
  await card.arrayBuffer();
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: 'plain-caller-1',
          role: 'ROLE_USER',
          parts: [{ text: 'Bonjour' }],
        },
        configuration: { returnImmediately: true },
        metadata: { skillId },
      },
    }),
  });
  const body = await res.json();
  const task = body.result && (body.result.task || body.result);
  process.stdout.write(JSON.stringify({
    cardStatus: card.status,
    state: task && task.status ? task.status.state : body.error ? 'error ' + body.error.code : '?',
    announced: res.headers.get('a2a-card-fingerprint'),
  }) + '\\n');
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;

/** Run the two calls in a plain Node process (no --require, no NODE_OPTIONS). */
function callWithoutPackage(cardUrl, rpcUrl, skillId) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, ['-e', CHILD, cardUrl, rpcUrl, skillId], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the plain caller exited ${code}: ${err.trim()}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

module.exports = { callWithoutPackage };
