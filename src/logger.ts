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
 * The one logger factory: JSON lines on stdout, context passed as fields. Every logged object is
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
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
