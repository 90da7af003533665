import { z } from 'zod';
import { defineTool, toolError } from '../../session/tool.ts';

/** R-B3: the main session never waits. The longest a shell command or a task wait may block it. */
export const MAX_SHELL_TIMEOUT_S = 30;
export const MAX_TASK_WAIT_S = 5;

const NEVER_WAITS =
  'refused: the main session never waits (R-B3). Reports, follow-ups, candidates and finished tasks arrive as messages; end your turn when nothing is left.';

/**
 * Guards for the waiting tools a coding harness offers. `sleep` is always refused; `shell` and
 * `task_wait` are refused past their limits, and the main session has no shell or tasks to run
 * otherwise, so within the limits they only say so. No call here has any effect.
 */
export function guardTools() {
  return [
    defineTool({
      name: 'sleep',
      description: 'Not available to the main session: it never waits.',
      parameters: z.looseObject({ seconds: z.number().optional() }),
      run: () => toolError(NEVER_WAITS),
    }),
    defineTool({
      name: 'shell',
      description: 'Not available to the main session, which makes no technical decisions.',
      parameters: z.looseObject({ command: z.string().optional(), timeout: z.number().optional() }),
      run: ({ timeout }) =>
        toolError(
          timeout !== undefined && timeout > MAX_SHELL_TIMEOUT_S
            ? `refused: shell time-out ${timeout} s is over ${MAX_SHELL_TIMEOUT_S} s (R-B3)`
            : 'refused: the main session routes only and runs no commands (R-B1)',
        ),
    }),
    defineTool({
      name: 'task_wait',
      description: 'Not available to the main session: it never waits.',
      parameters: z.looseObject({ seconds: z.number().optional() }),
      run: ({ seconds }) =>
        toolError(
          seconds !== undefined && seconds > MAX_TASK_WAIT_S
            ? `refused: task wait ${seconds} s is over ${MAX_TASK_WAIT_S} s (R-B3)`
            : NEVER_WAITS,
        ),
    }),
  ];
}
