import { type Logger, pino } from 'pino';

export type { Logger };

/** The one logger factory: JSON lines on stdout, context passed as fields. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { app: 'switchyard', ...bindings } });
}
