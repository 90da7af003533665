import { Redis } from 'ioredis';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { withEnvFile } from '../env-file.ts';
import type { Lang } from '../i18n/lang.ts';
import { createModels } from '../session/create-models.ts';
import { createKeys } from '../store/keys.ts';
import { redisUrlOfStart } from '../store/local-redis-server.ts';
import { doctorLang } from './doctor-lang.ts';
import { type Say, sayIn } from './doctor-text.ts';
import { isProblem, problem } from './finding.ts';
import { formatReport } from './format-findings.ts';
import { runDoctor } from './run-doctor.ts';

/** Where the doctor writes: the process's streams, or a test's buffers. */
export interface DoctorOut {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * `npm run doctor [-- --lang <lang>]` (issue 12): checks the configuration against the real
 * services (model, Redis, Feishu, GitHub, workspace, sandbox), prints each problem with its fix,
 * and answers the exit status — 1 on any problem, 2 on a configuration that does not parse or an
 * unknown `--lang`. Issue 16: it reads the same `.env` as `npm start`, and speaks `--lang`, else
 * `DOCTOR_LANG`, else the locale's language (`doctorLang`). A crash is reported and answers 1.
 */
export async function doctorCli(argv: string[], env: NodeJS.ProcessEnv, out: DoctorOut): Promise<number> {
  const read = readEnv(env);
  const chosen = doctorLang(argv, read instanceof ConfigError ? env : read);
  if ('unknown' in chosen) {
    out.stderr(`${sayIn('en')('run.unknown-lang', { lang: chosen.unknown })}\n`);
    return 2;
  }
  const say = sayIn(chosen.lang);
  try {
    return await check(chosen.lang, say, read, out);
  } catch (err) {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    out.stderr(`${say('run.crashed', { error })}\n`);
    return 1;
  }
}

async function check(lang: Lang, say: Say, env: NodeJS.ProcessEnv | ConfigError, out: DoctorOut) {
  let config: Config;
  try {
    if (env instanceof ConfigError) throw env;
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const found = problem('config', say('run.config', { error: err.message }), say('run.config.fix'));
    out.stderr(formatReport([found], lang));
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
    out.stdout(formatReport(findings, lang));
    return findings.some(isProblem) ? 1 : 0;
  } finally {
    redis.disconnect();
  }
}

/** The same `.env` that `npm start` reads; one that cannot be read is reported. */
function readEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | ConfigError {
  try {
    // Issue 45: with no REDIS_URL, the Redis npm start would use — its own, with its password.
    const read = withEnvFile(env);
    return { ...read, REDIS_URL: redisUrlOfStart(read) };
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
}
