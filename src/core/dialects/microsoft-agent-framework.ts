/**
 * Microsoft Agent Framework's A2A hosting (`agent-framework-a2a`, Python). A call to a function
 * the agent does not have is answered to the model with `Error: Requested function "X" not
 * found.`; with `terminate_on_unknown_calls` the run fails and that text is the failed task's
 * status. Function calls, results and reasoning are never sent to the client.
 */
import type { Dialect } from './types';

export const microsoftAgentFramework: Dialect = {
  name: 'microsoft-agent-framework',
  missingSkill: [
    {
      label: 'requested function not found',
      template: String.raw`\brequested\s+function\s+["'\x60]?SKILL["'\x60]?\s+not\s+found`,
    },
  ],
};
