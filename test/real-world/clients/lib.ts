/**
 * The two real clients, re-exported from THIS package directory (so they resolve
 * ./node_modules: @google/adk 2.0.0 with its own @a2a-js/sdk 0.3.x, @reactive-agents/a2a
 * 0.9.0 with effect 3), plus the few lines an application writes to drive them.
 * test/real-world/clients.test.ts loads it with a dynamic import() (this directory is ESM).
 */
import { Effect } from 'effect';
import { RemoteA2AAgent, Runner, InMemorySessionService } from '@google/adk';
import { createA2AClient, A2AClient, discoverAgent } from '@reactive-agents/a2a';

export {
  Effect,
  RemoteA2AAgent,
  Runner,
  InMemorySessionService,
  createA2AClient,
  A2AClient,
  discoverAgent,
};

/**
 * Runs a RemoteA2AAgent as the root agent of an ADK Runner with an InMemorySessionService:
 * no model is involved (the remote agent sends the session's new user text over A2A).
 * `RemoteA2AAgent.init()` (card fetch, client creation) runs outside its own try, so a card or
 * transport error rejects `runAsync`: it is returned as `{ thrown }`.
 */
export async function runAdk(
  agent: RemoteA2AAgent,
  text = 'summarize this',
): Promise<Array<Record<string, unknown>>> {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', agent, sessionService });
  const session = await sessionService.createSession({ appName: 'app', userId: 'u1' });
  const events: Array<Record<string, unknown>> = [];
  try {
    for await (const ev of runner.runAsync({
      userId: 'u1',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text }] },
    })) {
      events.push(ev as unknown as Record<string, unknown>);
    }
  } catch (e) {
    events.push({ thrown: String(e) });
  }
  return events;
}

/** A RemoteA2AAgent `beforeRequestCallbacks` entry putting `params.message.metadata.skillId` on the wire. */
export function putSkillId(skillId: string) {
  return (_ctx: unknown, params: { message: { metadata?: Record<string, unknown> } }): void => {
    params.message.metadata = { ...(params.message.metadata ?? {}), skillId };
  };
}

export function adkAgent(agentCard: string, skillId?: string): RemoteA2AAgent {
  return new RemoteA2AAgent({
    name: 'remote',
    agentCard,
    ...(skillId ? { beforeRequestCallbacks: [putSkillId(skillId) as never] } : {}),
  });
}

/** The @reactive-agents/a2a client service as an app uses it: `Effect.provide(createA2AClient({ baseUrl }))`. */
type RaClient = {
  sendMessage(params: unknown): Effect.Effect<unknown, unknown>;
  getTask(params: { id: string }): Effect.Effect<unknown, unknown>;
  getAgentCard(url: string): Effect.Effect<unknown, unknown>;
};
export function raCall<A>(
  rpcUrl: string,
  f: (c: RaClient) => Effect.Effect<A, unknown>,
): Promise<A> {
  return Effect.runPromise(
    Effect.gen(function* () {
      const c = (yield* A2AClient) as unknown as RaClient;
      return yield* f(c);
    }).pipe(Effect.provide(createA2AClient({ baseUrl: rpcUrl }))) as Effect.Effect<
      A,
      unknown,
      never
    >,
  );
}

/** 0.3 `MessageSendParams` as the app hands them to `sendMessage` (sent verbatim as `params`). */
export function raMessage(text: string, skillId?: string): Record<string, unknown> {
  return {
    message: {
      kind: 'message',
      messageId: 'm-' + Math.random().toString(16).slice(2),
      role: 'user',
      parts: [{ kind: 'text', text }],
    },
    ...(skillId ? { metadata: { skillId } } : {}),
  };
}

export function raDiscover(baseUrl: string): Promise<unknown> {
  return Effect.runPromise(discoverAgent(baseUrl) as Effect.Effect<unknown, unknown, never>);
}
