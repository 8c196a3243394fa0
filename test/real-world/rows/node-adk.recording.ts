/**
 * The live wire of the node-adk row, recorded into test/fixtures/adk/ by conformance/record.ts:
 * the healthy peer, then variants A and B redeployed on the same port (ADK's card `version` is
 * always "1.0.0"), talked to as the `@a2a-js/sdk` 0.3 client (and ADK's RemoteA2AAgent) talks.
 */
import type { Recorder } from '../record-lib.mjs';
import { FOX, type Json } from '../lib';
import type { Row } from '../conformance/types';
import { PROMPTS } from '../conformance/row-kit';
import {
  getExchange,
  NODE_POST,
  NODE_STREAM,
  previousTaskExchange,
  rootCardExchange,
  redeploys,
  rpcExchange,
} from '../conformance/row-recording';

const TRANSLATE = 'translate: Hello world';
/** The skill named in a data part, no metadata.skillId (ADK hands the model the part as JSON text). */
const dataPart = (r: Recorder, skill: string, parameters: Json): Json => {
  const { message } = r.m03('');
  return { message: { ...message, parts: [{ kind: 'data', data: { skill, parameters } }] } };
};
const FOX_PARAMS = { text: FOX };

export const adkRecording: Row['recording'] = {
  fixture: 'adk',
  // @google/genai is ADK's dependency, not pinned by the package
  versionsOf: ['@google/adk', '@a2a-js/sdk', 'express', '@google/genai'],
  steps: redeploys({
    // desk (tools summarize, translate) and studio (render), each at its own base path
    healthy: [
      getExchange(
        'healthy-card-desk',
        'GET the desk agent card (healthy): skills desk (model), desk-summarize, desk-translate',
        'cardUrl',
      ),
      getExchange(
        'healthy-card-studio',
        'GET the studio agent card (second toA2a app on the same origin): skills studio, studio-render',
        'studioCardUrl',
      ),
      rootCardExchange(
        'healthy-card-root-well-known',
        'GET /.well-known/agent-card.json: no root card when every agent has a basePath (express 404)',
      ),
      rpcExchange(
        'healthy-send-summarize',
        'message/send, skill desk-summarize in message.metadata.skillId, tool named in the text: COMPLETED task, artifacts function_call / function_response data parts + the final text',
        'rpcUrl',
        'message/send',
        (r) => r.m03(PROMPTS.summarize, 'desk-summarize'),
        NODE_POST,
      ),
      previousTaskExchange(
        'healthy-tasks-get',
        'tasks/get of the healthy summarize task',
        NODE_POST,
      ),
      previousTaskExchange('error-method-not-found', 'an unknown JSON-RPC method', {
        ...NODE_POST,
        method: 'tasks/unknown',
      }),
      rpcExchange(
        'error-task-not-found',
        'tasks/get of an unknown task',
        'rpcUrl',
        'tasks/get',
        () => ({ id: 'no-such-task' }),
        NODE_POST,
      ),
      rpcExchange(
        'healthy-stream-summarize',
        'message/stream, skill desk-summarize: task, working, artifact-update function_call, function_response, two partial text chunks (append), the aggregated text (same artifactId, append absent), completed',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(PROMPTS.summarize, 'desk-summarize'),
        NODE_STREAM,
      ),
      rpcExchange(
        'healthy-send-translate',
        'message/send, skill desk-translate',
        'rpcUrl',
        'message/send',
        (r) => r.m03(TRANSLATE, 'desk-translate'),
        NODE_POST,
      ),
      rpcExchange(
        'healthy-stream-translate',
        'message/stream, skill desk-translate',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(TRANSLATE, 'desk-translate'),
        NODE_STREAM,
      ),
      rpcExchange(
        'healthy-send-data-part-skill',
        'message/send, the skill named in a data part {skill, parameters} (no metadata.skillId); ADK hands the model the data part as JSON text',
        'rpcUrl',
        'message/send',
        (r) => dataPart(r, 'desk-summarize', FOX_PARAMS),
        NODE_POST,
      ),
      rpcExchange(
        'healthy-stream-data-part-skill',
        'message/stream, the skill named in a data part (no metadata.skillId)',
        'rpcUrl',
        'message/stream',
        (r) => dataPart(r, 'desk-summarize', FOX_PARAMS),
        NODE_STREAM,
      ),
      rpcExchange(
        'healthy-send-model-only',
        'message/send, skill desk (the "model" skill), no tool named: one text artifact, no data parts',
        'rpcUrl',
        'message/send',
        (r) => r.m03('Hello there', 'desk'),
        NODE_POST,
      ),
      rpcExchange(
        'healthy-send-studio-render',
        'message/send to the second agent (/studio/jsonrpc), skill studio-render',
        'studioRpcUrl',
        'message/send',
        (r) => r.m03('render: a red house', 'studio-render'),
        NODE_POST,
      ),
      rpcExchange(
        'healthy-stream-studio-render',
        'message/stream to the second agent, skill studio-render',
        'studioRpcUrl',
        'message/stream',
        (r) => r.m03('render: a red house', 'studio-render'),
        NODE_STREAM,
      ),
    ],
    // translate removed from desk, the model still calls it
    A: [
      getExchange(
        'variant-a-card-desk',
        'GET the desk card after the A redeploy: desk-translate gone, version still "1.0.0"',
        'cardUrl',
      ),
      rpcExchange(
        'variant-a-send-translate',
        'variant A (translate tool removed, the model still calls it), message/send skill desk-translate: FAILED task, status text "Function translate is not found in the toolsDict."',
        'rpcUrl',
        'message/send',
        (r) => r.m03(TRANSLATE, 'desk-translate'),
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-stream-translate',
        'variant A, message/stream skill desk-translate: function_call artifact, the model text of its second call, then a final failed status-update with the error text and adk_error_* metadata',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(TRANSLATE, 'desk-translate'),
        NODE_STREAM,
      ),
      previousTaskExchange(
        'variant-a-tasks-get-failed',
        'tasks/get of the failed stream task: state failed, status text = the ADK error',
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-send-data-part-translate',
        'variant A, message/send, skill desk-translate named in a data part (no metadata.skillId): FAILED, same text',
        'rpcUrl',
        'message/send',
        (r) => dataPart(r, 'desk-translate', { text: 'Hello world' }),
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-send-summarize',
        'variant A, message/send skill desk-summarize (still there): healthy',
        'rpcUrl',
        'message/send',
        (r) => r.m03(PROMPTS.summarize, 'desk-summarize'),
        NODE_POST,
      ),
    ],
    // summarize keeps its name and description (the card unchanged) but yields a PNG
    B: [
      getExchange(
        'variant-b-card-desk',
        'GET the desk card after the B redeploy: identical to the healthy card (same tools, names and descriptions)',
        'cardUrl',
      ),
      rpcExchange(
        'variant-b-send-summarize',
        'variant B (summarize now yields a PNG), message/send skill desk-summarize: COMPLETED, last artifact a file part image/png (bytes) while the card says defaultOutputModes ["text"]',
        'rpcUrl',
        'message/send',
        (r) => r.m03(PROMPTS.summarize, 'desk-summarize'),
        NODE_POST,
      ),
      rpcExchange(
        'variant-b-stream-summarize',
        'variant B, message/stream skill desk-summarize: function_call, function_response (the PNG inside its JSON), then an artifact-update with a file part image/png',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(PROMPTS.summarize, 'desk-summarize'),
        NODE_STREAM,
      ),
    ],
  }),
};
