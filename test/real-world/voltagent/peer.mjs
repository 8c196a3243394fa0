/**
 * A real VoltAgent A2A peer for its row of the conformance table and its recording.
 *
 * VoltAgent (@voltagent/core) with the Hono server provider (@voltagent/server-hono) and
 * two A2A servers (@voltagent/a2a-server) on ONE origin:
 *   GET  /.well-known/{agentId}/agent-card.json   POST /a2a/{agentId}   (JSON-RPC 0.2/0.3 names)
 * for agentId `summarizer` (the agent whose skills change between deployments) and `helper`
 * (an unrelated second agent on the same origin, never changed).
 *
 * VoltAgent builds the card's `skills` from the agent's tools (id = tool id ?? tool name), so
 * "removing a skill" means removing a tool. The LLM is a deterministic mock (ai/test
 * MockLanguageModelV3): it reads the skill the client asked for, calls the tool of that name,
 * then answers with the tool's output (or the tool error text the AI SDK feeds back to it).
 * The skill id is taken from the A2A message: `metadata.skillId` (VoltAgent copies message and
 * params metadata into the operation context; the agent's dynamic instructions put it into the
 * system prompt as `[a2a-skill:ID]`), else from `[skill:ID]` in the user text.
 * Directives in the user text (mock only): `[call:X]` makes the model call tool X instead of the
 * requested skill; `[strict]` makes the model throw the AI SDK's NoSuchToolError when the tool
 * it would call is not among the agent's tools (the generation fails: JSON-RPC -32603 / a
 * FAILED task), instead of the SDK's default of feeding the error back to the model.
 *
 * env:
 *   PORT     port to listen on, on 127.0.0.1 (0 or unset: a free one is chosen)
 *   VARIANT  healthy | A | B
 *     healthy  summarizer tools `summarize-v2` (markdown text) and `translate`
 *     A        `translate` removed (the A2A server / card `version` unchanged)
 *     B        `summarize-v2` kept under the same id but now returns plain text (VoltAgent cards
 *              cannot state per-skill output modes, see README of the fixtures)
 *   CARD_VERSION  the A2A servers' version (default 1.0.0), identical across variants
 * Prints one JSON line {"port":N} on stdout when it accepts requests. Everything VoltAgent
 * itself prints (its startup banner) goes to stderr.
 */
import net from 'node:net';

// VoltAgent prints a banner with console.log; keep stdout for the single ready line.
const writeStdout = process.stdout.write.bind(process.stdout);
console.log = (...args) => console.error(...args);
console.info = (...args) => console.error(...args);

// NODE_ENV=production: VoltAgent's model-provider registry otherwise refreshes itself from
// https://models.dev at import time (no network here, and none wanted in tests).
process.env.NODE_ENV = 'production';

const { VoltAgent, Agent, createTool } = await import('@voltagent/core');
const { A2AServer } = await import('@voltagent/a2a-server');
const { honoServer } = await import('@voltagent/server-hono');
const { MockLanguageModelV3 } = await import('ai/test');
const { NoSuchToolError } = await import('ai');
const { z } = await import('zod');

const VARIANT = process.env.VARIANT ?? 'healthy';
if (!['healthy', 'A', 'B'].includes(VARIANT))
  throw new Error(`VARIANT must be healthy|A|B, not ${VARIANT}`);
const CARD_VERSION = process.env.CARD_VERSION ?? '1.0.0';

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
const port = Number(process.env.PORT ?? 0) || (await freePort());

// ---------------------------------------------------------------- tools (= card skills)
const input = z.object({ text: z.string().describe('the text to work on') });

const summarizeMarkdown = createTool({
  name: 'summarize-v2',
  description: 'Summarise a text as a markdown bullet list',
  parameters: input,
  execute: async ({ text }) =>
    `# Summary\n\n- ${text.split(/\s+/).slice(0, 6).join(' ')}\n- (markdown)`,
});
const summarizePlain = createTool({
  name: 'summarize-v2',
  description: 'Summarise a text as one plain sentence',
  parameters: input,
  execute: async ({ text }) => `Summary: ${text.split(/\s+/).slice(0, 6).join(' ')}.`,
});
const translate = createTool({
  name: 'translate',
  description: 'Translate a text into French',
  parameters: input,
  execute: async ({ text }) => `FR: ${text}`,
});
const lookup = createTool({
  name: 'lookup',
  description: 'Look a term up',
  parameters: input,
  execute: async ({ text }) => `lookup(${text}) = 42`,
});

const summarizerTools =
  VARIANT === 'healthy'
    ? [summarizeMarkdown, translate]
    : VARIANT === 'A'
      ? [summarizeMarkdown]
      : [summarizePlain, translate];

// ---------------------------------------------------------------- the deterministic mock LLM
function textOfContent(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p && p.type === 'text' ? p.text : '')).join('');
}
function requestedSkill(prompt, tools) {
  for (const m of prompt) {
    if (m.role !== 'system') continue;
    const hit = /\[a2a-skill:([^\]\s]+)\]/.exec(textOfContent(m.content));
    if (hit) return hit[1];
  }
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i].role !== 'user') continue;
    const hit = /\[skill:([^\]\s]+)\]/.exec(textOfContent(prompt[i].content));
    if (hit) return hit[1];
  }
  return tools?.[0]?.name;
}
function rawUserText(prompt) {
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i].role === 'user') return textOfContent(prompt[i].content);
  }
  return '';
}
/** The user text without the mock's directives. */
function lastUserText(prompt) {
  return rawUserText(prompt).replace(/\[(?:skill|call):[^\]]*\]\s*|\[strict\]\s*/g, '');
}
/** The tool outcome fed back to the model after its tool call, as text. */
function toolOutcome(prompt) {
  const last = prompt[prompt.length - 1];
  if (!last || last.role !== 'tool') return undefined;
  const parts = Array.isArray(last.content)
    ? last.content.filter((p) => p.type === 'tool-result')
    : [];
  if (parts.length === 0) return undefined;
  const out = parts[parts.length - 1].output;
  if (!out) return '';
  if (out.type === 'text' || out.type === 'error-text') return String(out.value);
  if (out.type === 'json' || out.type === 'error-json')
    return typeof out.value === 'string' ? out.value : JSON.stringify(out.value);
  if (out.type === 'execution-denied') return out.reason ?? 'execution denied';
  if (out.type === 'content')
    return out.value.map((v) => (v.type === 'text' ? v.text : '')).join('');
  return JSON.stringify(out);
}
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
let callSeq = 0;
function plan(options) {
  const outcome = toolOutcome(options.prompt);
  if (outcome !== undefined) return { kind: 'text', text: outcome };
  const userText = rawUserText(options.prompt);
  // `[call:X]` in the text: the model picks tool X whatever skill was asked (an LLM choosing
  // another tool than the requested skill).
  const forced = /\[call:([^\]\s]+)\]/.exec(userText);
  const toolName = forced ? forced[1] : requestedSkill(options.prompt, options.tools);
  // `[strict]` in the text: the model refuses to call a tool it was not given, the way the AI SDK
  // itself reports it (NoSuchToolError), so the generation fails instead of continuing.
  const available = (options.tools ?? []).map((t) => t.name);
  if (userText.includes('[strict]') && !available.includes(toolName)) {
    throw new NoSuchToolError({ toolName, availableTools: available });
  }
  callSeq += 1;
  return {
    kind: 'tool',
    toolCallId: `call-${callSeq}`,
    toolName,
    input: JSON.stringify({ text: lastUserText(options.prompt) }),
  };
}
function mockModel(label) {
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: `mock-${label}`,
    doGenerate: async (options) => {
      const p = plan(options);
      if (p.kind === 'text') {
        return {
          content: [{ type: 'text', text: p.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          { type: 'tool-call', toolCallId: p.toolCallId, toolName: p.toolName, input: p.input },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const p = plan(options);
      const chunks = [{ type: 'stream-start', warnings: [] }];
      if (p.kind === 'text') {
        // two deltas so the A2A server emits more than one "working" snapshot
        const cut = Math.max(1, Math.floor(p.text.length / 2));
        chunks.push(
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: p.text.slice(0, cut) },
          { type: 'text-delta', id: 't1', delta: p.text.slice(cut) },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        );
      } else {
        chunks.push(
          { type: 'tool-call', toolCallId: p.toolCallId, toolName: p.toolName, input: p.input },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
        );
      }
      return {
        stream: new ReadableStream({
          start(c) {
            for (const ch of chunks) c.enqueue(ch);
            c.close();
          },
        }),
      };
    },
  });
}

// ---------------------------------------------------------------- agents and A2A servers
const skillInstructions =
  (base) =>
  ({ context }) => {
    const skill = context?.get?.('skillId');
    return typeof skill === 'string' && skill.length > 0 ? `${base}\n[a2a-skill:${skill}]` : base;
  };

const summarizer = new Agent({
  id: 'summarizer',
  name: 'summarizer',
  purpose: 'Summarises and translates texts',
  instructions: skillInstructions(
    'You summarise and translate. Always call the tool named by the requested skill.',
  ),
  model: mockModel('summarizer'),
  tools: summarizerTools,
  // no retries of a failed generation (VoltAgent retries a failed stream with back-off, ~7 s)
  maxRetries: 0,
});
const helper = new Agent({
  id: 'helper',
  name: 'helper',
  purpose: 'Looks terms up',
  instructions: skillInstructions('You look terms up.'),
  model: mockModel('helper'),
  tools: [lookup],
  maxRetries: 0,
});

const voltAgent = new VoltAgent({
  agents: { summarizer, helper },
  a2aServers: {
    summarizer: new A2AServer({
      id: 'summarizer',
      name: 'summarizer',
      version: CARD_VERSION,
      agents: { summarizer },
    }),
    helper: new A2AServer({
      id: 'helper',
      name: 'helper',
      version: CARD_VERSION,
      agents: { helper },
    }),
  },
  server: honoServer({ port, hostname: '127.0.0.1', enableSwaggerUI: false }),
  checkDependencies: false,
});

// Wait until the card answers: VoltAgent starts its server asynchronously.
const until = Date.now() + 20_000;
for (;;) {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/.well-known/summarizer/agent-card.json`);
    if (r.ok) {
      await r.arrayBuffer();
      break;
    }
  } catch {
    /* not yet */
  }
  if (Date.now() > until) {
    console.error('VoltAgent did not start');
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 50));
}
writeStdout(`${JSON.stringify({ port })}\n`);

const stop = () => {
  Promise.resolve(voltAgent.shutdown?.())
    .catch(() => undefined)
    .finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
