import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, type LoggerOptions as PinoOptions, pino } from 'pino';
import { logScrubber } from './redact-log.ts';

export type { Logger };

export interface LoggerOptions {
  /** The deployment's secret values: never written, wherever they appear (issue 14). */
  secrets?: readonly (string | undefined)[];
  /** Where lines go (stdout by default; tests capture them). */
  destination?: DestinationStream;
}

/**
 * The one logger factory: JSON lines on stdout, context passed as fields; issue 32: readable lines
 * (pino-pretty) when stdout is a terminal, JSON whenever it is not (a pipe, a file, a collector). Every logged object is
 * scrubbed first (`logScrubber`): credentials by key, SDK errors' request configs, secret values.
 */
export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  opts: LoggerOptions = {},
): Logger {
  const scrub = logScrubber(opts.secrets ?? []);
  const options: PinoOptions<never> = {
    level,
    base: { app: 'switchyard', ...bindings },
    formatters: { log: (obj) => scrub(obj) as Record<string, unknown> },
    // Errors are already plain, scrubbed objects; pino's serializer would copy them again.
    serializers: { err: (e: unknown) => e },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? scrub(a) : a)) as Parameters<typeof method>,
        );
      },
    },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (process.stdout.isTTY) {
    // Loaded only for a terminal: a service's logs (a pipe) never pay for it.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    return pino(options, pretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,app' }));
  }
  return pino(options);
}
