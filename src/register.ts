/**
 * The `--require` / `--import` entry (the package's `./register` export):
 *
 *   node --require opentelemetry-instrumentation-a2a/register app.js
 *   node --import  opentelemetry-instrumentation-a2a/register app.mjs
 *
 * Loading it starts the OpenTelemetry Node SDK with A2AInstrumentation, or joins the SDK
 * already registered (distro/start-sdk.ts); the distro lives in src/distro/, the fleet
 * receiver it starts in src/fleet/.
 */
import './distro/start-sdk';
