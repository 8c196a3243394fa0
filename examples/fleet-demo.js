'use strict';
/**
 * The field report's fleet, live (see ./fleet/scenario.js for the sequence).
 *
 *   npm run demo
 *   node --require ./dist/cjs/register.js examples/fleet-demo.js       (after npm run build)
 *
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, the spans and the a2a.client.card_drift counter
 * go to that collector as well. Exit code 0 when everything expected was caught.
 */
const { onAgentCardDrift, onStaleCaller } = require('..'); // this package (dist/cjs/index.js)
const { main } = require('./fleet/scenario');

main({ onAgentCardDrift, onStaleCaller });
