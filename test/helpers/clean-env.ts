/** The environment for a child process under test: the parent's without OTEL_* (each test says what it wants) nor the test runner's/tsx's own settings, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('OTEL_') || k === 'NODE_OPTIONS' || k === 'NODE_TEST_CONTEXT') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}
