import { ConfigError, loadConfig } from '../src/config.ts';
import { withEnvFile } from '../src/env-file.ts';

/**
 * The container health check (issue 16; `node dist/scripts/healthcheck.js` in the image): `GET
 * /healthz` on the port this process's role serves, PORT for `all`/`web`, HEALTH_PORT for
 * `worker`. Exit 0 when it answers 200, else 1 with one line saying why.
 */
async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(withEnvFile(process.env));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
  const port = config.ROLE === 'worker' ? config.HEALTH_PORT : config.PORT;
  if (port === undefined) {
    process.stderr.write('ROLE=worker serves no health port: set HEALTH_PORT\n');
    return 1;
  }
  const host = ['0.0.0.0', '::', ''].includes(config.HOST) ? '127.0.0.1' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`;
  const status = await fetch(url, { signal: AbortSignal.timeout(2500) }).then(
    (r) => r.status,
    (err: Error) => err.message,
  );
  if (status === 200) return 0;
  process.stderr.write(`${url}: ${status}\n`);
  return 1;
}

process.exitCode = await main();
