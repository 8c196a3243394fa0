/**
 * A real Google ADK A2A peer for its row of the conformance table and its recording.
 *
 * `@google/adk` 2.0.0: two `LlmAgent`s served by ADK's own `toA2a()` (its `A2AAgentExecutor`
 * behind the `@a2a-js/sdk` 0.3 `DefaultRequestHandler`, on express 5) on ONE origin, one base
 * path each (toA2a's `basePath`, both mounted on the same express `app`):
 *   GET  /{agent}/.well-known/agent-card.json     POST /{agent}/jsonrpc    (also /{agent}/rest)
 * for agent `desk` (tools `summarize`, `translate`: the agent whose tools change between
 * deployments) and `studio` (tool `render`, never changed).
 *
 * ADK derives the card from the agent: `skills` = one `{id: <agent>, name: "model"}` plus one
 * `{id: "<agent>-<tool>", name: <tool>}` per tool; `version: "1.0.0"` and
 * `defaultOutputModes: ["text"]` are hard-coded, so a redeploy never changes the version.
 *
 * The model is a deterministic scripted `BaseLlm` (no network, no key). On a user turn it looks
 * for a tool to call: in a JSON text `{"skill":"desk-summarize","parameters":{...}}` (ADK turns an
 * A2A data part without `adk_type` metadata into such a text), else the first word of the user
 * text that is a tool name it was TRAINED on (`summarize`, `translate`, `render`: the model
 * keeps calling a tool the agent no longer has, like a prompt that still mentions it). It answers
 * with a `functionCall` (`id: "call-1"`). After the `functionResponse` it answers with the tool's
 * result: text (streamed as two partial chunks plus the aggregated final response, as ADK's
 * Gemini model does in SSE mode), or an `inlineData` part when the result is `{mimeType, data}`.
 * Without a tool in the user text it echoes the text. When ADK calls it again after a tool call
 * that got no response (variant A: the tool is not in the agent's toolsDict, ADK records an error
 * event and loops), the contents end with its own unanswered call: it apologises in text.
 *
 * env:
 *   PORT     port to listen on, on 127.0.0.1 (0 or unset: a free one is chosen)
 *   VARIANT  healthy | A | B
 *     healthy  desk: `summarize` (text), `translate`; studio: `render`
 *     A        desk's `translate` removed (the card loses `desk-translate`, version still 1.0.0);
 *              the model still calls it: ADK fails the task ("Function translate is not found in
 *              the toolsDict.")
 *     B        desk's `summarize` kept (same name, same description: the card is identical) but it
 *              now returns a PNG, which the model returns as an `inlineData` part: the artifact
 *              holds a `file` part `image/png` while the card says `defaultOutputModes: ["text"]`
 * Prints one JSON line {"port":N} on stdout when it accepts requests; everything else (ADK's
 * winston logger, the SDK's console output) goes to stderr.
 */
import http from 'node:http';

// Keep stdout for the single ready line: ADK logs through winston's Console transport.
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
console.log = (...args) => console.error(...args);
console.info = (...args) => console.error(...args);

const express = (await import('express')).default;
const { BaseLlm, FunctionTool, LlmAgent, toA2a } = await import('@google/adk');

const VARIANT = process.env.VARIANT ?? 'healthy';
if (!['healthy', 'A', 'B'].includes(VARIANT))
  throw new Error(`VARIANT must be healthy|A|B, not ${VARIANT}`);

/** A valid 1x1 PNG (what variant B's `summarize` produces). */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// ---------------------------------------------------------------- the scripted model

/** The tools the model was trained/prompted on: it calls them whether the agent has them or not. */
const TRAINED_TOOLS = ['summarize', 'translate', 'render'];

function textOf(content) {
  return (content?.parts ?? [])
    .map((p) => (typeof p.text === 'string' && !p.thought ? p.text : ''))
    .join('');
}

/** The tool call the model makes for a user turn, or undefined (no tool named). */
function planToolCall(agentName, userText) {
  const trimmed = userText.trim();
  if (trimmed.startsWith('{')) {
    try {
      const j = JSON.parse(trimmed);
      if (j && typeof j.skill === 'string') {
        const tool = j.skill.startsWith(`${agentName}-`)
          ? j.skill.slice(agentName.length + 1)
          : j.skill;
        const args =
          j.parameters && typeof j.parameters === 'object' ? j.parameters : { text: trimmed };
        return { name: tool, args };
      }
    } catch {
      /* not JSON: a plain text */
    }
  }
  const word = new RegExp(`\\b(${TRAINED_TOOLS.join('|')})\\b`).exec(trimmed);
  if (!word) return undefined;
  // `summarize: some text` → args.text = "some text"
  const rest = trimmed.replace(new RegExp(`^${word[1]}\\s*:\\s*`), '');
  return { name: word[1], args: { text: rest } };
}

class ScriptedLlm extends BaseLlm {
  constructor(agentName) {
    super({ model: `scripted-${agentName}` });
    this.agentName = agentName;
  }

  async *generateContentAsync(llmRequest, stream = false) {
    const contents = llmRequest.contents ?? [];
    const last = contents[contents.length - 1];
    const fr = (last?.parts ?? []).find((p) => p.functionResponse)?.functionResponse;
    if (fr) {
      const out = fr.response ?? {};
      if (typeof out.mimeType === 'string' && typeof out.data === 'string') {
        yield {
          content: {
            role: 'model',
            parts: [{ inlineData: { mimeType: out.mimeType, data: out.data } }],
          },
          turnComplete: true,
        };
        return;
      }
      const text =
        out.error !== undefined
          ? `The tool ${fr.name} failed: ${String(out.error)}`
          : typeof out.result === 'string'
            ? out.result
            : JSON.stringify(out);
      yield* this.answerText(text, stream);
      return;
    }
    const userText = textOf(last);
    const call = last?.role === 'user' ? planToolCall(this.agentName, userText) : undefined;
    if (call) {
      yield {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: call.name, args: call.args, id: 'call-1' } }],
        },
        turnComplete: true,
      };
      return;
    }
    if (last?.role === 'user') {
      yield* this.answerText(`(${this.agentName}) ${userText}`, stream);
      return;
    }
    // ADK calls the model again when a tool call produced no response (e.g. the tool is not in
    // the agent's toolsDict): the contents then end with the model's own unanswered call.
    yield* this.answerText('Sorry, I could not complete that request.', stream);
  }

  async *answerText(text, stream) {
    if (stream) {
      const cut = Math.max(1, Math.floor(text.length / 2));
      for (const chunk of [text.slice(0, cut), text.slice(cut)]) {
        yield { content: { role: 'model', parts: [{ text: chunk }] }, partial: true };
      }
    }
    yield { content: { role: 'model', parts: [{ text }] }, turnComplete: true };
  }

  async connect() {
    throw new Error('ScriptedLlm has no live connection');
  }
}

// ---------------------------------------------------------------- tools (= card skills)
const TEXT_INPUT = {
  type: 'OBJECT',
  properties: { text: { type: 'STRING', description: 'the text to work on' } },
  required: ['text'],
};
const SUMMARIZE_DESCRIPTION = 'Summarise a text in one sentence';

const summarizeText = new FunctionTool({
  name: 'summarize',
  description: SUMMARIZE_DESCRIPTION,
  parameters: TEXT_INPUT,
  execute: ({ text }) => ({
    result: `Summary: ${String(text).split(/\s+/).slice(0, 6).join(' ')}.`,
  }),
});
// Variant B: the same skill (name and description unchanged) now renders the summary as a PNG.
const summarizeImage = new FunctionTool({
  name: 'summarize',
  description: SUMMARIZE_DESCRIPTION,
  parameters: TEXT_INPUT,
  execute: () => ({ mimeType: 'image/png', data: PNG_1X1 }),
});
const translate = new FunctionTool({
  name: 'translate',
  description: 'Translate a text into French',
  parameters: TEXT_INPUT,
  execute: ({ text }) => ({ result: `FR: ${text}` }),
});
const render = new FunctionTool({
  name: 'render',
  description: 'Render a scene description as ASCII art',
  parameters: TEXT_INPUT,
  execute: ({ text }) => ({ result: `[render] ${text}` }),
});

const deskTools =
  VARIANT === 'healthy'
    ? [summarizeText, translate]
    : VARIANT === 'A'
      ? [summarizeText]
      : [summarizeImage, translate];

const desk = new LlmAgent({
  name: 'desk',
  description: 'Summarises and translates texts',
  instruction: 'Call the tool the user asks for and answer with its result.',
  model: new ScriptedLlm('desk'),
  tools: deskTools,
});
const studio = new LlmAgent({
  name: 'studio',
  description: 'Renders scenes',
  instruction: 'Call the render tool and answer with its result.',
  model: new ScriptedLlm('studio'),
  tools: [render],
});

// ---------------------------------------------------------------- serve
// Listen first: toA2a writes the port into the card's url.
const server = http.createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve);
});
const { port } = server.address();

const app = express();
for (const [agent, basePath] of [
  [desk, '/desk'],
  [studio, '/studio'],
]) {
  await toA2a(agent, { app, host: '127.0.0.1', port, basePath, allowUnauthenticated: true });
}
server.on('request', app);

writeStdout(`${JSON.stringify({ port })}\n`);

const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
