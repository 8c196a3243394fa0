// A real Mastra A2A peer (@mastra/core Agent + Mastra, served by @mastra/hono's MastraServer on
// a Hono app through @hono/node-server) for its row of the conformance table and its recording.
// Needs Node >= 22.13 (Mastra's engines): run it with the binary `bash node22.sh` prints.
//
//   PORT=0 VARIANT=healthy|A node peer.mjs   ->  prints {"port":N} once listening on 127.0.0.1
//
// Two agents on one origin (Mastra serves cards at /api/.well-known/{agentId}/agent-card.json,
// JSON-RPC at /api/a2a/{agentId}; the card's skills are the agent's tools):
//   assistant  healthy: tools summarize-v2, translate     A: translate removed (card version unchanged:
//              Mastra always serves version "1.0")
//   helper     tool lookup (every variant)
// Each agent's model is a deterministic ai/test MockLanguageModelV3 (ai@6, LanguageModelV3 spec,
// which @mastra/core 1.x accepts): when the user's text names a skill as `skill:<id>` it calls the
// tool of that name; once the tool result (or tool error) is in the prompt it answers with text
// streamed in word-sized deltas; `model:throw` in the text makes the model throw (a provider
// failure). No network, no real LLM.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MastraServer } from '@mastra/hono';
import { InMemoryTaskStore } from '@mastra/server/a2a/store';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

process.env.MASTRA_TELEMETRY_DISABLED ??= '1';
const VARIANT = process.env.VARIANT ?? 'healthy';
if (!['healthy', 'A'].includes(VARIANT)) {
  // Variant B (same skill id, other output mode) cannot be expressed: Mastra's card has no
  // per-skill modes and its defaultInputModes/defaultOutputModes are fixed to ["text/plain"].
  console.error(`peer.mjs: unknown VARIANT ${VARIANT} (healthy | A)`);
  process.exit(2);
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

function textOf(content) {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join(' ');
}

function toolOutputText(output) {
  if (!output) return '';
  if (output.type === 'text' || output.type === 'error-text') return String(output.value);
  if (output.type === 'json' || output.type === 'error-json') return JSON.stringify(output.value);
  return JSON.stringify(output);
}

/** What the model does for this prompt: call a tool, or answer with text. */
function decide(prompt) {
  const last = prompt[prompt.length - 1];
  if (last?.role === 'tool') {
    const results = last.content.filter((p) => p.type === 'tool-result');
    return { text: results.map((r) => toolOutputText(r.output)).join(' ') || 'done' };
  }
  const lastUser = [...prompt].reverse().find((m) => m.role === 'user');
  const text = textOf(lastUser?.content);
  // A provider failure, to record what Mastra sends when the agent run throws.
  if (text.includes('model:throw')) throw new Error('mock model failure (model:throw)');
  const m = /skill:([A-Za-z0-9_.-]+)/.exec(text);
  if (m)
    return {
      toolCall: { toolName: m[1], input: JSON.stringify({ text: text.replace(m[0], '').trim() }) },
    };
  return { text: `echo: ${text}` };
}

let callSeq = 0;
function mockModel(agentId) {
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: `mock-${agentId}`,
    doGenerate: async ({ prompt }) => {
      const d = decide(prompt);
      if (d.toolCall) {
        return {
          content: [{ type: 'tool-call', toolCallId: `call-${++callSeq}`, ...d.toolCall }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: d.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    doStream: async ({ prompt }) => {
      const d = decide(prompt);
      const parts = [{ type: 'stream-start', warnings: [] }];
      if (d.toolCall) {
        parts.push({ type: 'tool-call', toolCallId: `call-${++callSeq}`, ...d.toolCall });
        parts.push({
          type: 'finish',
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
        });
      } else {
        parts.push({ type: 'text-start', id: 't1' });
        for (const w of d.text.match(/\S+\s*/g) ?? [])
          parts.push({ type: 'text-delta', id: 't1', delta: w });
        parts.push({ type: 'text-end', id: 't1' });
        parts.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
      }
      return {
        stream: new ReadableStream({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  });
}

const input = z.object({ text: z.string() });
const tools = {
  'summarize-v2': createTool({
    id: 'summarize-v2',
    description: 'Summarizes a text in one sentence.',
    inputSchema: input,
    execute: async ({ text }) => `Summary: ${text.split(/\s+/).slice(0, 4).join(' ')}.`,
  }),
  translate: createTool({
    id: 'translate',
    description: 'Translates a text to French.',
    inputSchema: input,
    execute: async ({ text }) => `Traduction: ${text}`,
  }),
  lookup: createTool({
    id: 'lookup',
    description: 'Looks a term up in the glossary.',
    inputSchema: input,
    execute: async ({ text }) => `Glossary: ${text} is a term.`,
  }),
};

const assistantTools =
  VARIANT === 'A'
    ? { 'summarize-v2': tools['summarize-v2'] }
    : { 'summarize-v2': tools['summarize-v2'], translate: tools.translate };

const assistant = new Agent({
  id: 'assistant',
  name: 'assistant',
  instructions: 'Summarizes and translates texts.',
  model: mockModel('assistant'),
  tools: assistantTools,
});
const helper = new Agent({
  id: 'helper',
  name: 'helper',
  instructions: 'Looks terms up in the glossary.',
  model: mockModel('helper'),
  tools: { lookup: tools.lookup },
});

const mastra = new Mastra({ agents: { assistant, helper }, logger: false });
const app = new Hono();
// Without a taskStore the A2A routes answer -32603 "Cannot read properties of undefined (reading
// 'loadWithVersion')" (HTTP 200); MastraServer takes the store as its `taskStore` option.
const server = new MastraServer({ app, mastra, taskStore: new InMemoryTaskStore() });
await server.init();

const httpServer = serve(
  { fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0) },
  (info) => {
    process.stdout.write(`${JSON.stringify({ port: info.port })}\n`);
  },
);
const stop = () => httpServer.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
