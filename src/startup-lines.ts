import type { Config } from './config.ts';

/**
 * Issue 32: start-up warnings for what is off for want of a setting, each naming what to set. The
 * bot runs without them; the doctor counts a missing model key as a problem.
 */
export function startupWarnings(config: Config): string[] {
  const lines: string[] = [];
  if (!config.LLM_API_KEY)
    lines.push(
      'model off: set LLM_API_KEY (DeepSeek by default; LLM_BASE_URL and LLM_PROVIDER for another provider); until then no request is answered',
    );
  if (config.ROLE !== 'worker' && !config.ADMIN_TOKEN)
    lines.push(
      'panel off: set ADMIN_TOKEN (32 characters or more, e.g. openssl rand -hex 32) to sign in to the panel',
    );
  return lines;
}

/** Issue 32: why the HTTP server could not listen, in one line naming the variable to change. */
export function listenProblem(config: Config, err: NodeJS.ErrnoException): string {
  const name = config.ROLE === 'worker' ? 'HEALTH_PORT' : 'PORT';
  const port = config.ROLE === 'worker' ? config.HEALTH_PORT : config.PORT;
  if (err.code === 'EADDRINUSE')
    return `port ${port} on ${config.HOST} is in use: stop what listens there, or set ${name} to a free port`;
  if (err.code === 'EACCES')
    return `port ${port} needs privileges this process lacks: set ${name} to a port above 1023`;
  if (err.code === 'EADDRNOTAVAIL')
    return `HOST=${config.HOST} is no address of this machine: set HOST (0.0.0.0 for all, 127.0.0.1 for this machine only)`;
  return `cannot listen on ${config.HOST}:${port} (${err.code ?? err.message}): check ${name} and HOST`;
}
