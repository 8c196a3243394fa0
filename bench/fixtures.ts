/** Shared inputs of the bench scripts: Agent Cards and a typical SendMessage exchange. */

/** A realistic raw 0.3 Agent Card with `n` skills. */
export function realisticCard(n = 20): Record<string, unknown> {
  const modes = [
    ['text/plain'],
    ['text/plain', 'application/json'],
    ['application/json', 'text/markdown', 'text/plain'],
    ['image/png', 'text/plain'],
  ];
  return {
    protocolVersion: '0.3.0',
    name: 'Fleet worker — résumé & translation agent',
    description: 'Summarises, translates and classifies documents for the fleet.',
    url: 'https://peer-a.example.com/a2a/v1',
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: 'https://peer-a.example.com/a2a/v1', transport: 'JSONRPC' },
      { url: 'https://peer-a.example.com/a2a/rest', transport: 'HTTP+JSON' },
    ],
    provider: { organization: 'Example Corp', url: 'https://example.com' },
    version: '1.0',
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: Array.from({ length: n }, (_, i) => ({
      id: `skill-${(i * 7) % n}-${['summarize', 'translate', 'classify', 'extract'][i % 4]}-v${(i % 3) + 1}`,
      name: `Skill ${i}: ${['Summarise', 'Translate', 'Classify', 'Extract'][i % 4]} documents`,
      description:
        'Takes a document and produces a result suitable for downstream indexing. ' +
        'Handles long inputs by chunking; keeps citations. Ünïcödé-safe.',
      tags: ['documents', 'nlp', `tier-${i % 3}`],
      examples: [`Please process document #${i}`, 'Summarise this in three bullet points'],
      inputModes: modes[i % 4],
      outputModes: modes[(i + 1) % 4].slice().reverse(),
    })),
  };
}

/** The 1.0 card shape `@a2a-js/sdk` 1.3 serves (as JSON.parse gives it), with `n` skills. */
export function sdkCard10(n = 20): Record<string, unknown> {
  const base = 'http://127.0.0.1:38473';
  return JSON.parse(
    JSON.stringify({
      name: 'sdk-peer',
      description: 'A2A test peer built on @a2a-js/sdk',
      supportedInterfaces: [
        {
          url: `${base}/a2a/jsonrpc`,
          protocolBinding: 'JSONRPC',
          tenant: '',
          protocolVersion: '1.0',
        },
        {
          url: `${base}/a2a/rest`,
          protocolBinding: 'HTTP+JSON',
          tenant: '',
          protocolVersion: '1.0',
        },
      ],
      version: '1.0',
      capabilities: { streaming: true, pushNotifications: false, extensions: [] },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: Array.from({ length: n }, (_, i) => ({
        id: `skill-${(i * 7) % n}-v${(i % 3) + 1}`,
        name: `Skill ${i}`,
        description: 'Summarizes text into markdown.',
        tags: [],
        examples: [],
        inputModes: ['text/plain'],
        outputModes: i % 2 ? ['text/markdown'] : ['text/plain', 'application/json'],
        securityRequirements: [],
      })),
      signatures: [],
    }),
  ) as Record<string, unknown>;
}

/** A 1.0 SendMessage request body exactly as `@a2a-js/sdk` 1.3's client sends it. */
export const SEND_REQUEST_BODY =
  '{"jsonrpc":"2.0","method":"SendMessage","params":{"message":{"messageId":"msg-21205-1796210398330-1","role":"ROLE_USER",' +
  '"parts":[{"text":"Please summarize this text.","mediaType":"text/plain"}],"metadata":{"skillId":"summarize-v2"}},' +
  '"configuration":{},"metadata":{"skillId":"summarize-v2"}},"id":1}';

/** The SDK peer's answer to it (captured from test/peers/sdk-peer.ts): a COMPLETED task with one artifact. */
export const SEND_RESPONSE_BODY =
  '{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"9f8cfad9-07e6-4d18-9cba-7d2fc56ee790","contextId":"792317a1-a44e-4d9f-9fc1-538b0ba34edf",' +
  '"status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-12-02T11:19:58.378Z"},"artifacts":[{"artifactId":"5ad773cd-13bb-4db1-9f66-02d89b8b54e0",' +
  '"name":"summarize-v2-result","parts":[{"text":"## summarize-v2\\n\\n- result from **summarize-v2**\\n","mediaType":"text/markdown"}]}],' +
  '"history":[{"messageId":"msg-21205-1796210398330-1","contextId":"792317a1-a44e-4d9f-9fc1-538b0ba34edf","taskId":"9f8cfad9-07e6-4d18-9cba-7d2fc56ee790",' +
  '"role":"ROLE_USER","parts":[{"text":"Please summarize this text.","mediaType":"text/plain"}],"metadata":{"skillId":"summarize-v2"}}],' +
  '"metadata":{"skillId":"summarize-v2"}}}}';
