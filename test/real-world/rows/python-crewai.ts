/**
 * The conformance table's row of python-crewai: `crewai` (conformance/types.ts says what each
 * field means; conformance/implementations.ts assembles the table).
 */
import { cardProbe } from '../conformance/probes';
import { crewaiQuirks } from './python-crewai.quirks';
import type { Row } from '../conformance/types';
import { pythonAgent, PROMPTS, SUMMARY, fact, TOOL_SKILLS, raw } from '../conformance/row-kit';
import type { Recorder } from '../record-lib.mjs';
import type { Json } from '../lib';
import {
  rpcExchange,
  cardExchange,
  VARIANT_A_TOOL_CARD,
  UNKNOWN_TASK_EXCHANGE_03,
  deployment,
} from '../conformance/row-recording';
import { unknownTaskProbe } from '../conformance/row-probes';

/** The rows the conformance suite runs. */
const CREWAI_PEER = 'test/real-world/python/crewai/peer.py';
/** A recorded 0.3 `MessageSendParams`, the skill in `message.metadata.skill_id` (crewAI's convention). */
const crewM03 = (r: Recorder, text: string, skill_id: string): Json => ({
  message: {
    kind: 'message',
    role: 'user',
    messageId: r.nextMessageId(),
    parts: [{ kind: 'text', text }],
    metadata: { skill_id },
  },
});
/** crewAI's own client convention: the skill id in `params.message.metadata.skill_id` */
const crewRpc = raw('0.3', 'rpcUrl', { skillKey: 'skill_id' });
/** crewAI's ToolUsage error (ReAct), up to where it appends its retry prompt */
const CREWAI_REACT_MISSING =
  "I encountered an error: Action 'translate' don't exist, these are the only available Actions:\n" +
  'Tool Name: summarize\nTool Arguments: {\n  "properties": {\n    "text": {\n      "title": "Text",\n' +
  '      "type": "string"\n    }\n  },\n  "required": [\n    "text"\n  ],\n  "title": "Summarize",\n' +
  '  "type": "object",\n  "additionalProperties": false\n}\nTool Description: Summarise a text in one sentence.';
/** a completed status with no message */
const CREWAI_BARE_STATUS = /"status":\{"state":"completed"(,"timestamp":"[^"]*")?\}/;
export const crewai: Row = {
  id: 'python-crewai',
  name: 'crewAI (`crewai[a2a]` 1.15.30: its `to_agent_card` and task execution on `a2a-sdk` 0.3.26; a scripted `BaseLLM`)',
  ...pythonAgent('crewai', {
    // the LLM mode: crewAI's ReAct text protocol (default) or native function calling
    env: (d) => ({ MODE: (d.opts?.mode as string | undefined) ?? 'react' }),
  }),
  facts: {
    bindings: {
      value:
        '0.3 JSON-RPC at `/` (crewAI 1.15 has no A2A HTTP app of its own: its card and task execution served by the reference a2a-sdk 0.3 Starlette app, as its users do)',
      source: `${CREWAI_PEER}; crewai/a2a/utils/task.py \`execute\``,
    },
    clients: {
      value:
        'raw fetch, the skill id where crewAI’s own client puts it: `params.message.metadata.skill_id`',
      source:
        'crewAI’s delegation API `skill_id=` argument (docs/framework-survey.md, crewAI: skill ids and client)',
    },
    card: {
      value:
        '`/.well-known/agent-card.json`, 0.3 card (`to_agent_card`), skills = the tools (id = name, tags [name], no modes), defaults `text/plain`, `application/json`',
      source: 'test/fixtures/crewai-live/card.json',
    },
    judged: {
      value:
        'healthy send / stream: no drift. A removed tool never fails the task: ReAct answers COMPLETED with ToolUsage’s "Action \'translate\' don\'t exist" → the words a suspicion the card fetched again confirms, `unknown_skill` (evidence `card`, suspicion `words`); native function calling answers COMPLETED with "Tool not found", naming nothing → no verdict at the call, caught by revalidation (`card_changed`, then `skill_not_in_card`); `card_changed` on re-fetch. Variant B not built',
      source:
        'crewai/tools/tool_usage.py (ReAct: "Action \'X\' don\'t exist"); crewAI’s AgentExecutor (native function calling: the tool message "Tool not found"); test/fixtures/crewai-live/',
    },
    fixtures: 'test/fixtures/crewai-live/',
  },
  card: {
    protocol: '0.3',
    skills: TOOL_SKILLS,
    fields: (p) => ({
      protocolVersion: '0.3.0',
      version: '1.0.0',
      url: `${p.origin}/`,
      defaultOutputModes: ['text/plain', 'application/json'],
      skills: [
        { name: 'summarize', tags: ['summarize'] },
        { name: 'translate', tags: ['translate'] },
      ],
    }),
  },
  skills: { send: 'summarize', stream: 'translate', prompts: PROMPTS },
  capabilities: {
    streaming: fact(true, 'the card’s capabilities (test/fixtures/crewai-live/card.json)'),
    push: fact(false, 'the card’s capabilities'),
    grpc: fact(false, 'served by the a2a-sdk 0.3 JSON-RPC Starlette app only'),
    variantB: fact(
      'none',
      'peer.py has no variant B: crewAI sends the final answer as one text artifact (a data part for a dict / BaseModel output, not scripted here)',
    ),
  },
  healthy: [
    {
      label: 'raw 0.3 message/send and message/stream, the skill in message.metadata.skill_id',
      client: crewRpc,
      protocol: '0.3',
      ops: {
        send: {
          state: 'completed',
          part: { kind: 'text', text: SUMMARY },
          artifacts: 1,
          answer: SUMMARY,
          wire: CREWAI_BARE_STATUS,
        },
        stream: { state: 'completed', events: ['task'] },
      },
    },
  ],
  errors: [unknownTaskProbe('rpcUrl')],
  sameBytes: { probes: [cardProbe(), unknownTaskProbe('rpcUrl', { bytes: true })] },
  variantA: {
    gone: 'translate',
    left: ['summarize'],
    paths: [
      {
        label:
          "ReAct: raw 0.3 message/send, COMPLETED with crewAI’s \"Action 'translate' don't exist\" as the answer; the card fetched again confirms",
        deploy: { mode: 'react' },
        client: crewRpc,
        ops: {
          send: {
            state: 'completed',
            artifacts: 1,
            answer: CREWAI_REACT_MISSING,
            wire: CREWAI_BARE_STATUS,
            spanState: 'TASK_STATE_COMPLETED',
          },
        },
        says: {
          value: 'words',
          source:
            "crewai/tools/tool_usage.py `ToolUsage`: the observation \"I encountered an error: Action 'translate' don't exist, …\", repeated by the model; the task COMPLETES",
        },
        verdict: 'unknown_skill',
        evidence: 'card',
        suspicion: 'words',
        confirmed: true,
        afterRevalidation: 'unknown_skill',
      },
      {
        label:
          'native function calling: raw 0.3 message/send, COMPLETED with "Tool not found" (naming nothing): no verdict at the call',
        deploy: { mode: 'function-calling' },
        client: crewRpc,
        ops: {
          send: {
            state: 'completed',
            artifacts: 1,
            answer: 'Tool not found',
            wire: CREWAI_BARE_STATUS,
            spanState: 'TASK_STATE_COMPLETED',
          },
        },
        says: {
          value: 'silence',
          source:
            'crewAI’s AgentExecutor answers a native call of an unknown tool with the tool message "Tool not found" (no name), repeated by the model; the task COMPLETES',
        },
        verdict: 'none',
        afterRevalidation: 'skill_not_in_card',
      },
    ],
    still: {
      label: 'raw 0.3 message/send summarize',
      client: crewRpc,
      ops: { send: { state: 'completed', answer: SUMMARY } },
    },
  },
  variantB: {
    na: 'not built: peer.py has no variant B (crewAI sends the final answer as one text artifact, a data part for a dict / BaseModel output, docs/framework-survey.md; no such output is scripted here)',
  },
  recording: {
    fixture: 'crewai-live',
    versionsOf: ['crewai', 'a2a-sdk', 'starlette', 'uvicorn'],
    steps: [
      deployment({ variant: 'healthy', opts: { mode: 'react' } }, [
        cardExchange(
          'card',
          'GET /.well-known/agent-card.json: agent.to_agent_card(url): 0.3.0, modes text/plain + application/json, skills = the tools (id = name, tags [name], no modes)',
        ),
        rpcExchange(
          'react.jsonrpc-v0.3.message-send.summarize',
          '0.3 message/send skill summarize, ReAct: the model calls summarize; ONE completed Task, artifact result_<task id> = the tool result, the same text as the last history message',
          'rpcUrl',
          'message/send',
          (r) => crewM03(r, PROMPTS.summarize, 'summarize'),
        ),
        rpcExchange(
          'react.jsonrpc-v0.3.message-stream.translate',
          '0.3 message/stream skill translate, ReAct: one SSE event, the completed Task (crewAI enqueues no intermediate events)',
          'rpcUrl',
          'message/stream',
          (r) => crewM03(r, PROMPTS.translate, 'translate'),
          { stream: true },
        ),
        UNKNOWN_TASK_EXCHANGE_03,
      ]),
      deployment({ variant: 'healthy', opts: { mode: 'function-calling' } }, [
        rpcExchange(
          'function-calling.jsonrpc-v0.3.message-send.translate',
          '0.3 message/send skill translate, native function calling: completed, artifact text "FR: hello"',
          'rpcUrl',
          'message/send',
          (r) => crewM03(r, PROMPTS.translate, 'translate'),
        ),
      ]),
      deployment({ variant: 'A', opts: { mode: 'react' } }, [
        VARIANT_A_TOOL_CARD,
        rpcExchange(
          'variant-a.react.jsonrpc-v0.3.message-send.translate',
          "variant A, ReAct: COMPLETED; artifact and last history message = crewAI's ToolUsage error \"I encountered an error: Action 'translate' don't exist, these are the only available Actions:\\n<summarize's description>\" (repeated by the model)",
          'rpcUrl',
          'message/send',
          (r) => crewM03(r, PROMPTS.translate, 'translate'),
        ),
        rpcExchange(
          'variant-a.react.jsonrpc-v0.3.message-stream.translate',
          'variant A, ReAct, message/stream: one SSE event, the same completed Task',
          'rpcUrl',
          'message/stream',
          (r) => crewM03(r, PROMPTS.translate, 'translate'),
          { stream: true },
        ),
      ]),
      deployment({ variant: 'A', opts: { mode: 'function-calling' } }, [
        rpcExchange(
          'variant-a.function-calling.jsonrpc-v0.3.message-send.translate',
          'variant A, native function calling: COMPLETED; artifact and last history message = "Tool not found" (the tool message crewAI\'s AgentExecutor sends back, repeated by the model)',
          'rpcUrl',
          'message/send',
          (r) => crewM03(r, PROMPTS.translate, 'translate'),
        ),
      ]),
    ],
  },
  quirks: crewaiQuirks,
};
