import { Redis } from 'ioredis';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';
import { isProblem } from '../src/doctor/finding.ts';
import { formatReport } from '../src/doctor/format-findings.ts';
import { runDoctor } from '../src/doctor/run-doctor.ts';
import { withEnvFile } from '../src/env-file.ts';
import { createModels } from '../src/session/create-models.ts';

/**
 * `npm run doctor` (issue 12): checks the configuration against the real services (model,
 * Redis, Feishu, GitHub, workspace, sandbox), prints each problem with its fix, and exits 1 on
 * any problem (2 on a configuration that does not parse).
 */
async function main(): Promise<number> {
  let config: Config;
  try {
    // Issue 16: the same `.env` that `npm start` reads.
    config = loadConfig(withEnvFile(process.env));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`PROBLEM  config: ${err.message}\n`);
    return 2;
  }
  // Fails fast when Redis is down, instead of the product's patient reconnects.
  const redis = new Redis(config.REDIS_URL, {
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 3000,
    lazyConnect: true,
  });
  redis.on('error', () => {});
  try {
    await redis.connect().catch(() => {});
    const findings = await runDoctor({
      config,
      store: { redis },
      models: createModels(config),
      modelRoundTrip: true,
      timeoutMs: 30_000,
    });
    process.stdout.write(formatReport(findings));
    return findings.some(isProblem) ? 1 : 0;
  } finally {
    redis.disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `doctor failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
