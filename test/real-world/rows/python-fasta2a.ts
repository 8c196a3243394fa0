/**
 * The conformance table's row of python-fasta2a: `fasta2a` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe } from '../conformance/probes';
import type { Row } from '../conformance/types';
import {
  pythonAgent,
  aFail,
  PROMPTS,
  SUMMARY,
  sdk,
  TEXT_SKILLS,
  fact,
  sendCompletes,
  SETTLED_BY_CARD,
  raw,
} from '../conformance/row-kit';
import {
  getExchange,
  cardExchange,
  VARIANT_A_CARD,
  messageExchange,
  UNKNOWN_TASK_EXCHANGE_03,
  deployment,
  polledExchange,
} from '../conformance/row-recording';
import { unknownTaskProbe } from '../conformance/row-probes';

const FASTA2A_PEER = 'test/real-world/python/fasta2a/peer.py';
/** A-fail's polled task: a bare failed status (no message), the history only the client's message */
const FASTA2A_FAILED_WIRE =
  /"status":\{"state":"failed","timestamp":"[^"]*"\},"history":\[\{"role":"user","parts":\[\{"text":"translate: hello"\}\][^\]]*\]\}\}$/;
const raw03 = (poll = false) => raw('0.3', 'rpcUrl', { poll });
/** A send fasta2a answers at once with the SUBMITTED task, which the polls read COMPLETED with the summary. */
const SUBMITTED_THEN_SUMMARY = {
  answered: 'submitted',
  state: 'completed',
  part: { kind: 'text', text: SUMMARY },
  spanState: 'TASK_STATE_SUBMITTED',
} as const;
/** Variants A and B streamed by the SDK client still holding the healthy card. */
const STREAM_ON_HEALTHY_CARD = {
  label: 'SDK stream holding the healthy card',
  client: sdk('JSONRPC', 'card'),
  ops: { stream: { minEvents: 3 } },
};
export const fasta2a: Row = {
  id: 'python-fasta2a',
  name: 'FastA2A (`fasta2a` 2.1.1 + `pydantic-ai-slim` 2.68.0 `FunctionModel`)',
  ...pythonAgent('fasta2a', { variant: aFail }),
  facts: {
    bindings: {
      value:
        '0.3 names at `/` (1.0 names translated), a send answers SUBMITTED, results by polling; 1.0-shaped results with 0.3 states',
      source: 'fasta2a/jsonrpc_v1 (the 1.0 names); test/fixtures/fasta2a-live/',
    },
    clients: {
      value:
        '`@a2a-js/sdk` 1.3 (JSON-RPC, 1.0 from the card URL; polls GetTask) and raw fetch (0.3 names, polls tasks/get); the skill id in the request metadata (SDK) or `message.metadata` (raw)',
      source: 'blocking is not honoured: the send answers SUBMITTED (test/fixtures/fasta2a-live/)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, 1.0 card, skills `text/plain`, defaults `application/json`',
      source: 'test/fixtures/fasta2a-live/card.json',
    },
    judged: {
      value:
        'healthy send + poll / stream: no drift; `card_changed`; -32001. Removed tool: COMPLETED with "Unknown tool name: \'x\'. Available tools: …" → content evidence, confirmed by the card re-fetched without the skill → `unknown_skill`. The tool retries running out instead (A-fail): FAILED with no status message, no text at all → the card fetched again decides on the polled GetTask, `unknown_skill` (evidence `card`, suspicion `failure`). Variant B: the agent’s output made structured (`output_type`) → fasta2a sends any non-`str` output as a data part (`{"result": …}`) where the skill says `text/plain` → `output_mode_mismatch` (the polled GetTask; SDK stream). A file part cannot be expressed: fasta2a’s bridge converts only text / thinking model parts and str-or-data outputs (`fasta2a/pydantic_ai/_bridge.py` `_convert_result_to_part`, `_response_parts_to_a2a`)',
      source: `${FASTA2A_PEER}:108-131`,
    },
    fixtures: 'test/fixtures/fasta2a-live/',
  },
  card: {
    protocol: '1.0',
    skills: TEXT_SKILLS,
    fields: (p) => ({
      supportedInterfaces: [{ protocolBinding: 'JSONRPC', url: p.origin, protocolVersion: '1.0' }],
      defaultOutputModes: ['application/json'],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: fact(
      true,
      'the card’s capabilities.streaming (test/fixtures/fasta2a-live/card.json)',
    ),
    push: fact(false, 'the card’s capabilities'),
    grpc: fact(false, 'fasta2a serves JSON-RPC only'),
    variantB: fact(
      'data',
      'fasta2a/pydantic_ai/_bridge.py `_convert_result_to_part`: a non-str output is a data part',
    ),
  },
  healthy: [
    {
      label: 'SDK JSON-RPC 1.0 from the card URL: send (SUBMITTED) + GetTask polling, stream',
      client: { ...sdk('JSONRPC', 'url'), poll: true },
      protocol: '1.0',
      ops: {
        send: SUBMITTED_THEN_SUMMARY,
        stream: { state: 'completed', events: ['task', 'status', 'artifact', 'status'] },
      },
    },
    {
      label:
        'raw 0.3 message/send + tasks/get polling (a 1.0 `result.task` wrapper with 0.3 states), message/stream',
      client: raw03(true),
      // the card states only 1.0 and the answers mix the families: the card's version
      protocol: '1.0',
      ops: {
        send: SUBMITTED_THEN_SUMMARY,
        stream: { state: 'completed' },
      },
    },
  ],
  errors: [unknownTaskProbe('rpcUrl')],
  sameBytes: {
    probes: [cardProbe(), unknownTaskProbe('rpcUrl', { bytes: true })],
  },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label: 'raw 0.3 message/send + polling: COMPLETED with pydantic-ai’s words',
        client: raw03(true),
        judgedOn: 'GetTask',
        ops: {
          send: {
            state: 'completed',
            part: {
              kind: 'text',
              text: "Unknown tool name: 'translate'. Available tools: 'summarize'",
            },
          },
        },
        says: {
          value: 'words',
          source:
            'pydantic_ai/_agent_graph.py: the tool return "Unknown tool name: …", repeated by the model; the task COMPLETES',
        },
        verdict: 'unknown_skill',
        evidence: 'content',
      },
      {
        ...STREAM_ON_HEALTHY_CARD,
        says: { value: 'words', source: 'as above, in the stream' },
        verdict: 'unknown_skill',
        evidence: 'content',
        confirmed: true,
      },
      {
        label:
          'A-fail (tool retries run out): raw 0.3 message/send (SUBMITTED) + polling, FAILED with no status message, no artifact, the history only the client’s message; the card fetched again decides on the polled GetTask',
        deploy: { a: 'fail' },
        client: raw03(true),
        judgedOn: 'GetTask',
        ops: {
          send: {
            answered: 'submitted',
            state: 'failed',
            statusMatch: /^$/,
            artifacts: 0,
            answer: '',
            wire: FASTA2A_FAILED_WIRE,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': 'changed' },
          },
        },
        says: {
          value: 'failure',
          source:
            'pydantic_ai tool_manager.py `_check_max_retries` raises `UnexpectedModelBehavior`; fasta2a/pydantic_ai/_bridge.py `run_task` marks the task failed and re-raises; fasta2a/worker.py ends it with a bare failed status: no text at all (peer.py VARIANT=A-fail)',
        },
        ...SETTLED_BY_CARD,
        suspicion: 'failure',
      },
      {
        label:
          'A-fail: SDK stream holding the healthy card, task, WORKING, FAILED with no message; judged at once against the newer card the failing poll fetched',
        deploy: { a: 'fail' },
        client: sdk('JSONRPC', 'card'),
        ops: {
          stream: {
            state: 'failed',
            events: ['task', 'status', 'status'],
            statusMatch: /^$/,
            spanState: 'TASK_STATE_FAILED',
            spanAttributes: { 'a2a.drift.refetch': undefined },
          },
        },
        says: { value: 'failure', source: 'as above, in the final status-update' },
        ...SETTLED_BY_CARD,
      },
    ],
    still: sendCompletes('SDK send summarize, polled', { ...sdk('JSONRPC', 'card'), poll: true }),
  },
  variantB: {
    skill: 'summarize',
    paths: [
      {
        label:
          'raw 0.3 message/send + polling: a data part (no `kind`) where the skill says text/plain',
        client: raw03(true),
        judgedOn: 'GetTask',
        ops: {
          send: {
            state: 'completed',
            part: { kind: 'data' },
            wire: /"data":\s*\{"result":\s*\{"summary":\s*"Summary: The quick brown fox jumps over\."\}\}/,
          },
        },
        mediaType: 'application/json',
        expectedModes: ['text/plain'],
      },
      {
        ...STREAM_ON_HEALTHY_CARD,
        mediaType: 'application/json',
      },
    ],
  },
  recording: {
    fixture: 'fasta2a-live',
    versionsOf: ['fasta2a', 'pydantic-ai-slim', 'pydantic', 'starlette', 'uvicorn'],
    steps: [
      deployment('healthy', [
        cardExchange(
          'card',
          'GET /.well-known/agent-card.json: a 1.0 card; skills text/plain, defaults forced to application/json',
        ),
        getExchange(
          'card.agent-json',
          'GET /.well-known/agent.json (the path of fasta2a <= 0.5)',
          (p) => `${p.origin}/.well-known/agent.json`,
        ),
        messageExchange(
          'jsonrpc-v0.3.message-send.summarize',
          '0.3 message/send skill summarize: answered at once with the SUBMITTED task, as {"result":{"task":{...}}} with the 0.3 state "submitted" and no kind',
          'rpcUrl',
          'message/send',
          PROMPTS.summarize,
          'summarize',
        ),
        polledExchange(
          'jsonrpc.get-task.completed',
          '1.0 GetTask of a SendMessage task after it finished: TASK_STATE_COMPLETED, the model text as an agent message in history and as artifact "result"',
          'rpcUrl',
          'GetTask',
          { method: 'SendMessage', params: (r) => r.m10(PROMPTS.summarize, 'summarize') },
          { v10: true, waitBeforeMs: 300, waitMs: 300 },
        ),
        messageExchange(
          'jsonrpc.send-streaming-message.translate',
          '1.0 SendStreamingMessage skill translate: task (SUBMITTED), statusUpdate WORKING, artifactUpdate (lastChunk), statusUpdate COMPLETED; compact JSON, LF framing',
          'rpcUrl',
          'SendStreamingMessage',
          PROMPTS.translate,
          'translate',
        ),
        messageExchange(
          'jsonrpc-v0.3.message-stream.translate',
          '0.3 message/stream skill translate',
          'rpcUrl',
          'message/stream',
          PROMPTS.translate,
          'translate',
        ),
        UNKNOWN_TASK_EXCHANGE_03,
      ]),
      deployment('A', [
        VARIANT_A_CARD,
        polledExchange(
          'variant-a.jsonrpc-v0.3.tasks-get.translate',
          "variant A, tasks/get of a message/send for translate: COMPLETED, text \"Unknown tool name: 'translate'. Available tools: 'summarize'\"",
          'rpcUrl',
          'tasks/get',
          { method: 'message/send', params: (r) => r.m03(PROMPTS.translate, 'translate') },
          { waitMs: 300 },
        ),
        messageExchange(
          'variant-a.jsonrpc.send-streaming-message.translate',
          'variant A, 1.0 SendStreamingMessage skill translate: COMPLETED with the same text',
          'rpcUrl',
          'SendStreamingMessage',
          PROMPTS.translate,
          'translate',
        ),
      ]),
      deployment('B', [
        cardExchange(
          'variant-b.card',
          'card after the B redeploy: unchanged (the same skills, summarize text/plain)',
        ),
        messageExchange(
          'variant-b.jsonrpc.send-streaming-message.summarize',
          'variant B (the agent now has a structured output_type), 1.0 SendStreamingMessage skill summarize: the artifact is a DATA part {"result": {"summary": …}} with its json_schema, where the skill says text/plain',
          'rpcUrl',
          'SendStreamingMessage',
          PROMPTS.summarize,
          'summarize',
        ),
      ]),
    ],
  },
};
