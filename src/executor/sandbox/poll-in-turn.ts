/**
 * Runs `task` every `everyMs`, each run starting `everyMs` after the last one ended, never beside
 * it (issue 45 "overlapping disk polls": a walk of a large checkout can take longer than the
 * interval, and `setInterval` would start the next walk beside it, then another). `stop` cancels
 * the next run and waits for one under way.
 */
export function pollInTurn(task: () => Promise<void>, everyMs: number): { stop: () => Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const next = () => {
    if (!stopped) timer = setTimeout(run, everyMs);
  };
  const run = () => {
    running = task()
      .catch(() => {})
      .then(() => {
        running = undefined;
        next();
      });
  };
  next();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
