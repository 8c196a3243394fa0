// Kept equal to package.json's name and version (a test checks it).
export const PACKAGE_NAME = 'opentelemetry-instrumentation-a2a';
export const PACKAGE_VERSION = '0.1.0';
