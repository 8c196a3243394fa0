/**
 * The fleet demo as an ES module app, for the ESM register entry:
 *
 *   node --import ./dist/esm/register.mjs examples/fleet-demo.mjs      (after npm run build)
 *
 * The package imports itself by name (Node resolves a package's own name through its
 * "exports" map from inside it), so the line below is exactly what an application that
 * installed opentelemetry-instrumentation-a2a would write. The SDK client is the ESM
 * build of @a2a-js/sdk; the peers and the client agent are the CommonJS modules of
 * ./fleet, shared with fleet-demo.js.
 */
import { onAgentCardDrift, onStaleCaller } from 'opentelemetry-instrumentation-a2a';
import { ClientFactory } from '@a2a-js/sdk/client';
import scenario from './fleet/scenario.js';

await scenario.main({
  onAgentCardDrift,
  onStaleCaller,
  createClient: (baseUrl) => new ClientFactory().createFromUrl(baseUrl),
  title:
    'A2A fleet demo (ESM): 2 worker agents (@a2a-js/sdk servers) and a client agent that caches Agent Cards for 1 h',
});
