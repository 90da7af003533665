import { Redis } from 'ioredis';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';
import { doctorLang } from '../src/doctor/doctor-lang.ts';
import { type Say, sayIn } from '../src/doctor/doctor-text.ts';
import { isProblem, problem } from '../src/doctor/finding.ts';
import { formatReport } from '../src/doctor/format-findings.ts';
import { runDoctor } from '../src/doctor/run-doctor.ts';
import { withEnvFile } from '../src/env-file.ts';
import type { Lang } from '../src/i18n/lang.ts';
import { createModels } from '../src/session/create-models.ts';
import { createKeys } from '../src/store/keys.ts';

/**
 * `npm run doctor` (issue 12): checks the configuration against the real services (model,
 * Redis, Feishu, GitHub, workspace, sandbox), prints each problem with its fix, and exits 1 on
 * any problem (2 on a configuration that does not parse, or an unknown `--lang`). Issue 16: it
 * speaks `--lang`, else `DOCTOR_LANG`, else the locale's language (`doctorLang`).
 */
async function main(lang: Lang, env: NodeJS.ProcessEnv | ConfigError): Promise<number> {
  const say = sayIn(lang);
  let config: Config;
  try {
    if (env instanceof ConfigError) throw env;
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const found = problem('config', say('run.config', { error: err.message }), say('run.config.fix'));
    process.stderr.write(formatReport([found], lang));
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
      store: { redis, keys: createKeys(config.KEY_PREFIX) },
      models: createModels(config),
      modelRoundTrip: true,
      timeoutMs: 30_000,
      say,
    });
    process.stdout.write(formatReport(findings, lang));
    return findings.some(isProblem) ? 1 : 0;
  } finally {
    redis.disconnect();
  }
}

function crashed(say: Say) {
  return (err: unknown) => {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`${say('run.crashed', { error })}\n`);
    process.exit(1);
  };
}

/** Issue 16: the same `.env` that `npm start` reads; one that cannot be read is reported. */
function readEnv(): NodeJS.ProcessEnv | ConfigError {
  try {
    return withEnvFile(process.env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
}

const env = readEnv();
const chosen = doctorLang(process.argv.slice(2), env instanceof ConfigError ? process.env : env);
if ('unknown' in chosen) {
  process.stderr.write(`${sayIn('en')('run.unknown-lang', { lang: chosen.unknown })}\n`);
  process.exit(2);
}
main(chosen.lang, env).then((code) => process.exit(code), crashed(sayIn(chosen.lang)));
