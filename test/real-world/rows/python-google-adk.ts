/**
 * The conformance table's row of python-google-adk: `pythonAdk` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { FOX } from '../lib';
import { cardProbe, messageProbe } from '../conformance/probes';
import { googleAdkQuirks } from './python-google-adk.quirks';
import type { Row } from '../conformance/types';
import {
  pythonAgent,
  PROMPTS,
  sdk,
  fact,
  raw,
  sendCompletes,
  COMPLETES_WITH_SUMMARY,
} from '../conformance/row-kit';
import {
  cardExchange,
  messageExchange,
  unknownTaskExchange,
  deployment,
} from '../conformance/row-recording';
import { unknownTaskProbe } from '../conformance/row-probes';

const ADK_PEER = 'test/real-world/python/google-adk/peer.py';
const ADK_NO_TOOL =
  'Invoking `translate()` failed as no tool with that name is available. The tools you can call are: summarize. You could retry, but it is IMPORTANT that you only call a tool from that list.';
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const pythonAdk: Row = {
  id: 'python-google-adk',
  name: 'Google ADK Python (`google-adk` 2.13.0 `to_a2a`, on `a2a-sdk` 1.3.0; `BaseLlm` subclass)',
  ...pythonAgent('google-adk'),
  facts: {
    bindings: {
      value:
        '1.0 JSON-RPC + 0.3 compat at `/`; tool calls as `adk_type` data parts in WORKING status messages',
      source:
        'google/adk/a2a (to_a2a on the a2a-sdk 1.3.0 routes); test/fixtures/google-adk-python-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, 1.0 from the card URL) and raw fetch (JSON-RPC 1.0 and 0.3 on the same endpoint); the skill id in the request metadata',
      source: 'test/peers/sdk-client.ts',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, pure 1.0 card, version `0.0.1`, skills `<agent>-<tool>` without modes, defaults `text/plain`',
      source: 'test/fixtures/google-adk-python-live/card.json',
    },
    judged: {
      value:
        'healthy tool calls: no drift; `card_changed`; JSON-RPC error. Removed tool: the task COMPLETES, the function_response says "Invoking `x()` failed as no tool with that name is available…", the model repeats it → content evidence, confirmed by the card re-fetched without the skill → `unknown_skill`. Variant B: the model answers with an image (`inline_data`), which ADK’s part converter sends as a file part `image/png` (1.0: `raw` + `mediaType`) where the card says `text/plain` → `output_mode_mismatch`; the card unchanged, no `card_changed`',
      source: `${ADK_PEER}:79-81, 132`,
    },
    fixtures: 'test/fixtures/google-adk-python-live/',
  },
  card: {
    protocol: '1.0',
    skills: [
      ['desk', undefined],
      ['desk-summarize', undefined],
      ['desk-translate', undefined],
    ],
    fields: (p) => ({
      version: '0.0.1',
      protocolVersion: undefined,
      supportedInterfaces: [{ url: p.origin, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      defaultOutputModes: ['text/plain'],
      skills: [{ name: 'model' }, { name: 'summarize' }, { name: 'translate' }],
    }),
  },
  skills: {
    send: 'desk-summarize',
    stream: 'desk-summarize',
    prompts: { 'desk-summarize': PROMPTS.summarize, 'desk-translate': PROMPTS.translate },
  },
  capabilities: {
    streaming: fact(
      true,
      'google/adk/a2a/utils/agent_card_builder.py:95 `AgentCapabilities(streaming=True)`',
    ),
    push: fact(false, 'to_a2a sets no push notification store'),
    grpc: fact(false, 'to_a2a builds the JSON-RPC Starlette app only'),
    variantB: fact(
      'file',
      `${ADK_PEER}:79-81 an inline_data image/png Part, converted to a file part`,
    ),
  },
  healthy: [
    {
      label: 'SDK JSON-RPC 1.0 from the card URL',
      client: sdk('JSONRPC', 'url'),
      protocol: '1.0',
      ops: COMPLETES_WITH_SUMMARY,
    },
    {
      label: 'raw JSON-RPC 1.0 SendMessage / SendStreamingMessage',
      client: raw('1.0', 'rpcUrl'),
      protocol: '1.0',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
    {
      // the pure 1.0 card offers no 0.3 to take a version from: none is claimed, not 1.0
      label: 'raw 0.3 message/send / message/stream on the 1.0 endpoint',
      client: raw('0.3', 'rpcUrl'),
      protocol: 'none',
      ops: { send: { state: 'completed' }, stream: { state: 'completed' } },
    },
  ],
  errors: [unknownTaskProbe('rpcUrl', { v10: true })],
  sameBytes: {
    probes: [
      cardProbe(),
      messageProbe(
        'JSON-RPC 1.0 send',
        'rpcUrl',
        'SendMessage',
        PROMPTS.summarize,
        'desk-summarize',
      ),
      unknownTaskProbe('rpcUrl', { bytes: true, v10: true }),
    ],
  },
  variantA: {
    gone: 'desk-translate',
    left: ['desk', 'desk-summarize'],
    paths: [
      {
        label: 'raw JSON-RPC 1.0 SendMessage: COMPLETED, the function_response carries ADK’s error',
        client: raw('1.0', 'rpcUrl'),
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'text', text: `The tool translate failed: ${ADK_NO_TOOL}` },
            wire: new RegExp(escapeRe(JSON.stringify({ error: ADK_NO_TOOL }).slice(1, -1))),
          },
        },
        says: {
          value: 'words',
          source:
            'google/adk/flows/llm_flows/tools/_error_handler.py:94: the function_response error "Invoking `x()` failed as no tool with that name is available"',
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      {
        label: 'SDK holding the healthy card',
        client: sdk('JSONRPC', 'card'),
        ops: { send: { state: 'completed' } },
        says: { value: 'words', source: 'as above; the scripted model repeats it' },
        verdict: 'unknown_skill',
        evidence: 'content',
        confirmed: true,
      },
    ],
    still: sendCompletes('SDK send desk-summarize', sdk('JSONRPC', 'card')),
  },
  recording: {
    fixture: 'google-adk-python-live',
    versionsOf: ['google-adk', 'google-genai', 'a2a-sdk', 'starlette', 'sse-starlette', 'uvicorn'],
    steps: [
      deployment('healthy', [
        cardExchange('card', 'GET /.well-known/agent-card.json: a pure 1.0 card'),
        messageExchange(
          'jsonrpc.send-message.summarize',
          'JSON-RPC 1.0 SendMessage skill desk-summarize: COMPLETED; function_call / function_response data parts (metadata.adk_type) in history, the final text in the artifact',
          'rpcUrl',
          'SendMessage',
          `summarize: ${FOX}`,
          'desk-summarize',
        ),
        messageExchange(
          'jsonrpc.send-streaming-message.summarize',
          'JSON-RPC 1.0 SendStreamingMessage: task, WORKING status-updates (empty, function_call, function_response, text), artifactUpdate, COMPLETED',
          'rpcUrl',
          'SendStreamingMessage',
          `summarize: ${FOX}`,
          'desk-summarize',
        ),
        messageExchange(
          'jsonrpc-v0.3.message-send.translate',
          'JSON-RPC 0.3 message/send (compat layer, same endpoint) skill desk-translate',
          'rpcUrl',
          'message/send',
          'translate: hello',
          'desk-translate',
        ),
        messageExchange(
          'jsonrpc-v0.3.message-stream.translate',
          'JSON-RPC 0.3 message/stream skill desk-translate',
          'rpcUrl',
          'message/stream',
          'translate: hello',
          'desk-translate',
        ),
        unknownTaskExchange(
          'jsonrpc.get-task.not-found',
          'JSON-RPC 1.0 GetTask of an unknown id',
          'rpcUrl',
          { v10: true },
        ),
      ]),
      deployment('A', [
        cardExchange(
          'variant-a.card',
          'card after the A redeploy: desk-translate gone, version 0.0.1',
        ),
        messageExchange(
          'variant-a.jsonrpc.send-message.translate',
          'variant A, SendMessage skill desk-translate: COMPLETED; the function_response is {"error": "Invoking `translate()` failed as no tool with that name is available. ..."}',
          'rpcUrl',
          'SendMessage',
          'translate: hello',
          'desk-translate',
        ),
        messageExchange(
          'variant-a.jsonrpc.send-streaming-message.translate',
          'variant A, SendStreamingMessage skill desk-translate',
          'rpcUrl',
          'SendStreamingMessage',
          'translate: hello',
          'desk-translate',
        ),
        messageExchange(
          'variant-a.jsonrpc-v0.3.message-send.translate',
          'variant A, 0.3 message/send skill desk-translate',
          'rpcUrl',
          'message/send',
          'translate: hello',
          'desk-translate',
        ),
      ]),
      deployment('B', [
        messageExchange(
          'variant-b.jsonrpc.send-message.summarize',
          'variant B (same tools and card; the model answers with an image), SendMessage skill desk-summarize: the artifact holds a file part (raw bytes, mediaType image/png) where the card says text/plain',
          'rpcUrl',
          'SendMessage',
          `summarize: ${FOX}`,
          'desk-summarize',
        ),
        messageExchange(
          'variant-b.jsonrpc.send-streaming-message.summarize',
          'variant B, SendStreamingMessage skill desk-summarize',
          'rpcUrl',
          'SendStreamingMessage',
          `summarize: ${FOX}`,
          'desk-summarize',
        ),
      ]),
    ],
  },
  variantB: {
    skill: 'desk-summarize',
    paths: [
      {
        label: 'raw JSON-RPC 1.0 SendMessage: a raw image/png part (ADK’s inline_data)',
        client: raw('1.0', 'rpcUrl'),
        ops: { send: { state: 'completed', wire: /"mediaType":\s*"image\/png"/ } },
        mediaType: 'image/png',
        evidence: 'protocol',
        expectedModes: ['text/plain'],
      },
      {
        label: 'SDK stream holding the healthy card',
        client: sdk('JSONRPC', 'card'),
        ops: { stream: { minEvents: 3 } },
        mediaType: 'image/png',
      },
    ],
  },
  quirks: googleAdkQuirks,
};
