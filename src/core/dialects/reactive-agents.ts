/**
 * `@reactive-agents/a2a` 0.9: its client fetches the card from `{url}/agent/card`. The path
 * is not distinctive, so a GET there is an Agent Card only when its JSON answer is one.
 */
import type { Dialect } from './types';

export const reactiveAgents: Dialect = {
  name: 'reactive-agents',
  cardPaths: [{ suffix: 'agent/card', certain: false }],
};
