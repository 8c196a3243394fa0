/**
 * The conformance table's row of python-agno: `agno` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe, httpProbe } from '../conformance/probes';
import { endpoint } from '../conformance/types';
import { agnoQuirks } from './python-agno.quirks';
import type { Row } from '../conformance/types';
import { pythonAgent, PROMPTS, SUMMARY, fact, raw } from '../conformance/row-kit';
import {
  getExchange,
  cardExchange,
  messageExchange,
  deployment,
} from '../conformance/row-recording';

const AGNO_PEER = 'test/real-world/python/agno/peer.py';
const agnoSend = raw('0.3', 'sendUrl');
const agnoStream = raw('0.3', 'streamUrl');
export const agno: Row = {
  id: 'python-agno',
  name: 'Agno AgentOS (`agno[os,a2a]` 3.1.10 with `a2a_interface=True`, on `a2a-sdk` 0.3.26; a scripted `Model`)',
  ...pythonAgent('agno'),
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC per agent under `/a2a/agents/<id>/`: `…/v1/message:send` (JSON) and `…/v1/message:stream` (SSE `event: <Name>` blocks), each its own route',
      source: 'agno/os/interfaces/a2a/router.py; test/fixtures/agno-live/',
    },
    clients: {
      value:
        'raw fetch to each route, the skill id (`desk`) in `message.metadata.skillId`; `@a2a-js/sdk` 1.3 in its 0.3 mode from the card (its send posts to the card’s streaming `url` and gets HTTP 400: a row quirk)',
      source: 'the card’s `url` is the streaming route (test/fixtures/agno-live/card.json)',
    },
    card: {
      value:
        '`/a2a/agents/desk/.well-known/agent-card.json` (none at the origin), 0.3 card, `url` = `…/v1/message:stream`; ONE skill, the agent (`desk`, outputModes `["application/json"]`), not its tools',
      source: 'agno/os/interfaces/a2a/router.py; test/fixtures/agno-live/card.json',
    },
    judged: {
      value:
        'the card’s `url` names one operation route, so it speaks for its sibling `…/v1/message:send`: both routes carry the fingerprint and are judged. Healthy: no drift. Variant B (an image FILE part, `image/jpeg` on send, `image/*` on stream, where the skill says `application/json`) → `output_mode_mismatch` on both routes. Variant A not caught: the answer names no tool and the card (one skill, the agent) never changes',
      source: `${AGNO_PEER}; test/fixtures/agno-live/`,
    },
    fixtures: 'test/fixtures/agno-live/',
  },
  card: {
    protocol: '0.3',
    skills: [['desk', ['application/json']]],
    fields: (p) => ({
      url: endpoint(p, 'streamUrl'),
      protocolVersion: '0.3.0',
      version: '1.0.0',
      preferredTransport: 'JSONRPC',
      defaultInputModes: ['text'],
      defaultOutputModes: ['text'],
      skills: [{ tags: ['agno'] }],
    }),
    seedRaises: {
      value: /TypeError: 'NoneType' object is not iterable/,
      source:
        'the card’s skill says `"inputModes": null` (test/fixtures/agno-live/card.json): the field report’s Python `sorted(s.get("inputModes", []))` gets None, which the key’s presence does not default; the instrumentation reads null as absent',
    },
  },
  skills: { send: 'desk', stream: 'desk', prompts: { desk: PROMPTS.summarize } },
  capabilities: {
    streaming: fact(true, 'the card’s capabilities (test/fixtures/agno-live/card.json)'),
    push: fact(false, 'the card’s capabilities'),
    grpc: fact(false, 'AgentOS serves JSON-RPC routes only'),
    variantB: fact(
      'file',
      `${AGNO_PEER} VARIANT=B: the agent’s output an image, which AgentOS sends as a file part`,
    ),
  },
  healthy: [
    {
      label:
        'raw 0.3 message/send at `…/v1/message:send` (the card’s sibling route): COMPLETED, the text in history, no artifacts',
      client: agnoSend,
      ops: { send: { state: 'completed', answer: SUMMARY, artifacts: 0 } },
      cardFingerprint: true,
    },
    {
      label:
        'raw 0.3 message/stream at the card’s `url` (`…/v1/message:stream`): working updates naming the tool called, a Message with the text, completed, the Task',
      client: agnoStream,
      prompt: PROMPTS.translate,
      ops: {
        stream: {
          state: 'completed',
          events: ['status', 'status', 'status', 'message', 'status', 'task'],
          contentType: 'text/event-stream; charset=utf-8',
          wire: /"tool_name": "translate".*event: Message\ndata: [^\n]*"parts": \[\{"kind": "text", "text": "FR: hello"\}\]/s,
        },
      },
      cardFingerprint: true,
    },
  ],
  errors: [httpProbe('no card at the origin', '/.well-known/agent-card.json', { status: 404 })],
  sameBytes: {
    probes: [
      cardProbe(),
      httpProbe('no card at the origin', '/.well-known/agent-card.json', { status: 404 }),
    ],
  },
  variantA: {
    na: 'not expressible as a card change: the card lists ONE skill, the agent (`desk`), not its tools, so removing a tool never changes it; the answer ("Error: The requested tool does not exist or is not available.") names no tool (a row quirk keeps what it answers)',
  },
  variantB: {
    skill: 'desk',
    paths: [
      {
        label:
          'raw 0.3 message/send: an image artifact (a FILE part, image/jpeg) where the skill says application/json',
        client: agnoSend,
        ops: {
          send: {
            state: 'completed',
            artifacts: 1,
            part: { kind: 'file', mediaType: 'image/jpeg' },
            wire: /"artifacts":\[\{"artifactId":"[^"]+","description":"Generated image 0","name":"image_0","parts":\[\{"file":\{"mimeType":"image\/jpeg","uri":"https:\/\/media\.example\.invalid\/summary\.png"\},"kind":"file"\}\]\}\]/,
          },
        },
        mediaType: 'image/jpeg',
        evidence: 'protocol',
        errorSpan: true,
        cardFingerprint: true,
      },
      {
        label: 'raw 0.3 message/stream: the final Task’s artifact `image-0`, a FILE part image/*',
        client: agnoStream,
        ops: {
          stream: {
            state: 'completed',
            wire: /"name": "image-0", "parts": \[\{"file": \{"mimeType": "image\/\*", "uri": "https:\/\/media\.example\.invalid\/summary\.png"\}, "kind": "file"\}\]/,
          },
        },
        mediaType: 'image/*',
        evidence: 'protocol',
        errorSpan: true,
        cardFingerprint: true,
      },
    ],
  },
  recording: {
    fixture: 'agno-live',
    versionsOf: ['agno', 'a2a-sdk', 'fastapi', 'starlette', 'uvicorn'],
    steps: [
      deployment('healthy', [
        cardExchange(
          'card',
          'GET /a2a/agents/desk/.well-known/agent-card.json: protocolVersion 0.3.0, url = the message:stream route, ONE skill id "desk" (the agent, not its tools) with outputModes ["application/json"], defaults ["text"]',
        ),
        getExchange(
          'card.origin',
          'GET /.well-known/agent-card.json at the origin: AgentOS serves no card there',
          (p) => `${p.origin}/.well-known/agent-card.json`,
        ),
        messageExchange(
          'message-send.summarize',
          'POST message:send, 0.3 message/send (skill desk, the only one on the card) asking to summarize: a COMPLETED task, the answer as an agent message in history, no artifacts',
          'sendUrl',
          'message/send',
          PROMPTS.summarize,
          'desk',
        ),
        messageExchange(
          'message-stream.translate',
          'POST message:stream, 0.3 message/stream (skill desk) asking to translate: status-update working, two working updates whose metadata names the tool (agno_event_type tool_call_started/completed, tool_name), a Message with the text, status-update completed (final), then the whole Task',
          'streamUrl',
          'message/stream',
          PROMPTS.translate,
          'desk',
        ),
      ]),
      deployment('A', [
        cardExchange(
          'variant-a.card',
          'card after the A redeploy (translate tool removed): unchanged, its only skill is the agent',
        ),
        messageExchange(
          'variant-a.message-send.translate',
          'variant A, message:send (skill desk) asking to translate: COMPLETED, text "Error: The requested tool does not exist or is not available." (no tool name)',
          'sendUrl',
          'message/send',
          PROMPTS.translate,
          'desk',
        ),
        messageExchange(
          'variant-a.message-stream.translate',
          'variant A, message:stream (skill desk) asking to translate: no tool-call updates, the same text as a Message, COMPLETED',
          'streamUrl',
          'message/stream',
          PROMPTS.translate,
          'desk',
        ),
      ]),
      deployment('B', [
        messageExchange(
          'variant-b.message-send.summarize',
          'variant B (summarize returns an image by URL), message:send: COMPLETED, artifact image_0 with a FILE part mimeType "image/jpeg" (hard-coded), where the card says application/json / text',
          'sendUrl',
          'message/send',
          PROMPTS.summarize,
          'desk',
        ),
        messageExchange(
          'variant-b.message-stream.summarize',
          'variant B, message:stream: the final Task carries artifact image-0 with a FILE part mimeType "image/*"',
          'streamUrl',
          'message/stream',
          PROMPTS.summarize,
          'desk',
        ),
      ]),
    ],
  },
  quirks: agnoQuirks,
};
