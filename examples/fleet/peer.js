'use strict';
/**
 * A worker agent of the field report's fleet: a real `@a2a-js/sdk` A2A server (express) on
 * 127.0.0.1, port chosen by the OS.
 *
 *   GET  {baseUrl}/.well-known/agent-card.json   the Agent Card (served BY REFERENCE:
 *                                                redeploy() changes the next GET at once)
 *   POST {baseUrl}/a2a/jsonrpc                   A2A 1.0 JSON-RPC (SendMessage, GetTask, ...)
 *   *    {baseUrl}/a2a/rest                      A2A 1.0 HTTP+JSON
 *
 * The executor behaves as the field report's peers do: it never rejects a skill id at the
 * protocol layer. It reads `params.metadata.skillId` (or the message's metadata),
 * publishes the task as SUBMITTED, and then decides against the CURRENT card:
 *   - unknown skill → FAILED with status text "unknown skill: <id>" (variant A);
 *   - known skill   → one artifact whose media type is the skill's FIRST outputMode in
 *                     the current card, then COMPLETED (variant B when that changed).
 */
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const express = require('express');
const { Role, TaskState } = require('@a2a-js/sdk');
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server');
const {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} = require('@a2a-js/sdk/server/express');

const SUMMARIZE_V2 = {
  id: 'summarize-v2',
  name: 'Summarize',
  description: 'Summarizes text into markdown.',
  inputModes: ['text/plain'],
  outputModes: ['text/markdown'],
};
const TRANSLATE_V1 = {
  id: 'translate-v1',
  name: 'Translate',
  description: 'Translates text.',
  inputModes: ['text/plain'],
  outputModes: ['text/plain'],
};
/** Added to peer-a at its second redeploy (round 4). */
const DETECT_LANGUAGE_V1 = {
  id: 'detect-language-v1',
  name: 'Detect language',
  description: 'Names the language of a text.',
  inputModes: ['text/plain'],
  outputModes: ['text/plain'],
};
/** Variant B: the same id, reused for a capability that answers in plain text. */
const SUMMARIZE_V2_PLAIN = {
  ...SUMMARIZE_V2,
  description: 'Summarizes text.',
  outputModes: ['text/plain'],
};

function toAgentSkill(s) {
  return {
    id: s.id,
    name: s.name || s.id,
    description: s.description || '',
    tags: [],
    examples: [],
    inputModes: [...(s.inputModes || [])],
    outputModes: [...(s.outputModes || [])],
    securityRequirements: [],
  };
}

function textPart(text, mediaType) {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType };
}

function readSkillId(meta) {
  const v = meta && meta.skillId;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function artifactText(skillId, mediaType, input) {
  const gist = input.length > 40 ? `${input.slice(0, 40)}…` : input;
  if (mediaType === 'text/markdown') return `## ${skillId}\n\n- ${gist}\n`;
  return `${skillId}: ${gist}`;
}

class FleetExecutor {
  constructor(card, settleDelayMs) {
    this.card = card;
    this.settleDelayMs = settleDelayMs;
    this.closed = false;
    this.execute = this.execute.bind(this);
    this.cancelTask = async () => {};
  }

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    const skillId = readSkillId(ctx.request && ctx.request.metadata) || readSkillId(user.metadata);
    const now = () => new Date().toISOString();
    const status = (state, text) => ({
      state,
      message: text === undefined ? undefined : agentMessage(text, taskId, contextId),
      timestamp: now(),
    });

    // Accept the task first: the failure, if any, happens inside its lifecycle.
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [user],
        metadata: skillId ? { skillId } : undefined,
      }),
    );
    await sleep(this.settleDelayMs);
    if (this.closed) return;

    const skill = skillId ? this.card.skills.find((s) => s.id === skillId) : undefined;
    if (!skill) {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: status(
            TaskState.TASK_STATE_FAILED,
            `unknown skill: ${skillId || '(none given)'}`,
          ),
          metadata: undefined,
        }),
      );
      return;
    }
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_WORKING),
        metadata: undefined,
      }),
    );
    const mediaType = skill.outputModes[0] || this.card.defaultOutputModes[0] || 'text/plain';
    const input = user.parts
      .map((p) => (p.content && p.content.$case === 'text' ? p.content.value : ''))
      .join(' ');
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: `${skill.id}-result`,
          description: '',
          parts: [textPart(artifactText(skill.id, mediaType, input), mediaType)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
  }
}

function agentMessage(text, taskId, contextId) {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text, 'text/plain')],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * Start one worker agent.
 * @param {{name: string, skills: object[], version?: string, settleDelayMs?: number}} opts
 */
async function startPeer(opts) {
  const card = {
    name: opts.name,
    description: `A2A fleet worker ${opts.name}`,
    supportedInterfaces: [], // filled in once the port is known
    provider: undefined,
    version: opts.version || '1.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: opts.skills.map(toAgentSkill),
    signatures: [],
  };
  const executor = new FleetExecutor(
    card,
    opts.settleDelayMs === undefined ? 40 : opts.settleDelayMs,
  );
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const userBuilder = UserBuilder.noAuthentication;

  const app = express();
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder }));

  const server = http.createServer(app);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = server.address().port;
  const baseUrl = `http://127.0.0.1:${port}`;
  card.supportedInterfaces.push(
    {
      url: `${baseUrl}/a2a/jsonrpc`,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion: '1.0',
    },
    {
      url: `${baseUrl}/a2a/rest`,
      protocolBinding: 'HTTP+JSON',
      tenant: '',
      protocolVersion: '1.0',
    },
  );

  let closed = false;
  return {
    name: opts.name,
    baseUrl,
    port,
    cardUrl: `${baseUrl}/.well-known/agent-card.json`,
    card,
    /** Replace the skills IN PLACE, keeping `version`: what the field report's redeploy did. */
    redeploy(skills) {
      card.skills.splice(0, card.skills.length, ...skills.map(toAgentSkill));
    },
    async close() {
      if (closed) return;
      closed = true;
      executor.closed = true;
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** "summarize-v2 (text/plain → text/markdown)" */
function describeSkills(skills) {
  return skills
    .map((s) => `${s.id} (${s.inputModes.join(',')} → ${s.outputModes.join(',')})`)
    .join(', ');
}

module.exports = {
  startPeer,
  describeSkills,
  SUMMARIZE_V2,
  TRANSLATE_V1,
  SUMMARIZE_V2_PLAIN,
  DETECT_LANGUAGE_V1,
};
