/**
 * The live wire of the node-voltagent row, recorded into test/fixtures/voltagent/ by
 * conformance/record.ts: the healthy peer, then variants A and B redeployed on the same port with
 * the same card version, talked to with 0.2/0.3 JSON-RPC bodies (VoltAgent ships no A2A client).
 */
import { JSON_HEADERS, post } from '../record-lib.mjs';
import { FOX } from '../lib';
import { endpoint, type Row } from '../conformance/types';
import {
  getExchange,
  NODE_POST,
  NODE_STREAM,
  postExchange,
  previousTaskExchange,
  rootCardExchange,
  redeploys,
  rpcExchange,
  unknownAgentUrl,
} from '../conformance/row-recording';

export const voltagentRecording: Row['recording'] = {
  fixture: 'voltagent',
  versionsOf: [
    '@voltagent/core',
    '@voltagent/a2a-server',
    '@voltagent/server-hono',
    '@voltagent/server-core',
    'ai',
    '@a2a-js/sdk',
  ],
  steps: redeploys({
    healthy: [
      getExchange(
        'healthy-card-summarizer',
        'GET the summarizer agent card (healthy deployment)',
        'cardUrl',
      ),
      getExchange(
        'healthy-card-helper',
        'GET the second agent card on the same origin',
        'helperCardUrl',
      ),
      rootCardExchange(
        'healthy-card-root-well-known',
        'GET /.well-known/agent-card.json: VoltAgent serves no root card',
      ),
      getExchange(
        'healthy-card-unknown-agent',
        'GET the card of an agent id that does not exist',
        unknownAgentUrl('cardUrl', 'summarizer'),
      ),
      rpcExchange(
        'healthy-send-summarize',
        'message/send, skill summarize-v2 in message.metadata.skillId',
        'rpcUrl',
        'message/send',
        (r) => r.m03(FOX, 'summarize-v2'),
        NODE_POST,
      ),
      previousTaskExchange(
        'healthy-tasks-get',
        'tasks/get of the healthy summarize-v2 task',
        NODE_POST,
      ),
      previousTaskExchange('error-method-not-found', 'unknown JSON-RPC method → -32601, HTTP 400', {
        ...NODE_POST,
        method: 'tasks/resubscribe',
      }),
      rpcExchange(
        'healthy-send-translate',
        'message/send, skill translate',
        'rpcUrl',
        'message/send',
        (r) => r.m03('Hello world', 'translate'),
        NODE_POST,
      ),
      rpcExchange(
        'healthy-stream-summarize',
        'message/stream, skill summarize-v2: every event is a full task snapshot framed `data: \\x1e{json}\\n\\n`',
        'rpcUrl',
        'message/stream',
        (r) => r.m03(FOX, 'summarize-v2'),
        NODE_STREAM,
      ),
      rpcExchange(
        'healthy-stream-translate',
        'message/stream, skill translate',
        'rpcUrl',
        'message/stream',
        (r) => r.m03('Hello world', 'translate'),
        NODE_STREAM,
      ),
      rpcExchange(
        'healthy-send-helper-lookup',
        'message/send to the second agent (/a2a/helper), skill lookup (not in the summarizer card)',
        'helperRpcUrl',
        'message/send',
        (r) => r.m03('volt', 'lookup'),
        NODE_POST,
      ),
      rpcExchange(
        'error-invalid-params-data-part',
        'a data part (VoltAgent accepts text parts only) → -32602, HTTP 400; skill id is one the card lists',
        'rpcUrl',
        'message/send',
        (r) => {
          // VoltAgent accepts text parts only
          const { message } = r.m03('', 'summarize-v2');
          return { message: { ...message, parts: [{ kind: 'data', data: { text: 'x' } }] } };
        },
        NODE_POST,
      ),
      rpcExchange(
        'error-task-not-found',
        'tasks/get of an unknown task → -32001, HTTP 400',
        'rpcUrl',
        'tasks/get',
        () => ({ id: 'no-such-task' }),
        NODE_POST,
      ),
      postExchange(
        'error-unknown-agent',
        'message/send to /a2a/nobody → -32600, HTTP 400',
        unknownAgentUrl('rpcUrl', 'summarizer'),
        (r) => r.rpc('message/send', r.m03('hi', 'summarize-v2')),
        NODE_POST,
      ),
      {
        name: 'error-parse',
        note: 'a body that is not JSON → -32700, HTTP 400',
        request: (p) => ({
          url: endpoint(p, 'rpcUrl'),
          init: post(JSON_HEADERS, '{"jsonrpc":"2.0",'),
        }),
      },
    ],
    // the tool translate removed, same port, same version
    A: [
      rpcExchange(
        'variant-a-send-translate',
        'variant A (translate tool removed), message/send skill translate: COMPLETED task, text is the AI SDK NoSuchToolError message relayed by the (mock) model',
        'rpcUrl',
        'message/send',
        (r) => r.m03('Hello world', 'translate'),
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-stream-translate',
        'variant A, message/stream skill translate: working snapshots then COMPLETED, same text',
        'rpcUrl',
        'message/stream',
        (r) => r.m03('Hello world', 'translate'),
        NODE_STREAM,
      ),
      rpcExchange(
        'variant-a-send-translate-strict',
        'variant A, message/send skill translate, model throws NoSuchToolError ([strict]): JSON-RPC -32603 over HTTP 400',
        'rpcUrl',
        'message/send',
        (r) => r.m03('[strict] Hello world', 'translate'),
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-stream-translate-strict',
        'variant A, message/stream skill translate, model throws ([strict]): one working snapshot then a JSON-RPC -32603 error event',
        'rpcUrl',
        'message/stream',
        (r) => r.m03('[strict] Hello world', 'translate'),
        NODE_STREAM,
      ),
      previousTaskExchange(
        'variant-a-tasks-get-failed',
        'tasks/get of the task of the failed stream: state failed, status text = the error',
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-send-summarize-calls-translate',
        'variant A, message/send skill summarize-v2 (still in the card) but the model calls translate ([call:translate]): COMPLETED, text names translate, not the requested skill',
        'rpcUrl',
        'message/send',
        (r) => r.m03('[call:translate] Hello world', 'summarize-v2'),
        NODE_POST,
      ),
      rpcExchange(
        'variant-a-send-summarize',
        'variant A, message/send skill summarize-v2: healthy',
        'rpcUrl',
        'message/send',
        (r) => r.m03(FOX, 'summarize-v2'),
        NODE_POST,
      ),
      getExchange(
        'variant-a-card-summarizer',
        'GET the summarizer card after the redeploy: translate gone, version unchanged',
        'cardUrl',
      ),
    ],
    // summarize-v2 reused (plain text instead of markdown), same port, same version
    B: [
      getExchange(
        'variant-b-card-summarizer',
        'GET the summarizer card after the B redeploy: only the skill description differs (no per-skill modes exist)',
        'cardUrl',
      ),
      rpcExchange(
        'variant-b-send-summarize',
        'variant B (summarize-v2 now returns plain text), message/send: COMPLETED, text part (no media type on the wire)',
        'rpcUrl',
        'message/send',
        (r) => r.m03(FOX, 'summarize-v2'),
        NODE_POST,
      ),
    ],
  }),
};
