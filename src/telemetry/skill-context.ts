/**
 * withSkill: the application declares the skill id of the A2A calls it makes inside
 * `fn`, for clients whose requests carry none. Carried in the OpenTelemetry context
 * (the key is shared by every copy of this package).
 */
import { context, createContextKey, type Context } from '@opentelemetry/api';

const SKILL_KEY = createContextKey('opentelemetry-instrumentation-a2a.skill-id');

export function withSkill<A extends unknown[], R>(
  skillId: string,
  fn: (...args: A) => R,
  ...args: A
): R {
  if (typeof skillId !== 'string' || skillId.length === 0) return fn(...args);
  return context.with(context.active().setValue(SKILL_KEY, skillId), fn, undefined, ...args);
}

export function applicationSkillId(ctx: Context): string | undefined {
  const value = ctx.getValue(SKILL_KEY);
  return typeof value === 'string' ? value : undefined;
}
