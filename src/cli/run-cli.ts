import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { doctorCli } from '../doctor/doctor-cli.ts';
import { withEnvFile } from '../env-file.ts';
import { COMMANDS, type Command, helpOf, USAGE } from './help.ts';
import { feishuRequest, githubRequest, post, UsageError } from './send-event.ts';

/** Where the command writes its answers and its errors. */
export interface CliIo {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

/**
 * Issue 32: the `switchyard` command — `start`, `demo`, `doctor`, `send-event` — on
 * `node:util.parseArgs` (strict: an unknown flag is an error), with `--help` and `--version` on
 * every command. Returns the exit code; `start` and `demo` keep running in their own modules.
 */
export async function runCli(
  argv: string[],
  io: CliIo = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const [name, ...rest] = argv;
  const say = (text: string) => io.out.write(`${text}\n`);
  const fail = (text: string, code = 2) => {
    io.err.write(`switchyard: ${text}\n`);
    return code;
  };
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    say(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    say(version());
    return 0;
  }
  if (!(COMMANDS as readonly string[]).includes(name))
    return fail(`unknown command "${name}"; run switchyard --help`);
  const command = name as Command;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(command, rest);
  } catch (err) {
    return fail(
      `${(err as Error).message.replace(/\. To specify.*$/s, '')}; run switchyard ${command} --help`,
    );
  }
  if (parsed.values.help) {
    say(helpOf(command));
    return 0;
  }
  if (parsed.values.version) {
    say(version());
    return 0;
  }
  try {
    return await run(command, parsed, say, io);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) return fail(err.message, 1);
    throw err;
  }
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;
const SEND_OPTIONS = {
  ...OPTIONS,
  body: { type: 'string' },
  repo: { type: 'string' },
  number: { type: 'string' },
  sender: { type: 'string' },
  chat: { type: 'string' },
  url: { type: 'string' },
} as const;

function parse(command: Command, args: string[]) {
  const options =
    command === 'send-event'
      ? SEND_OPTIONS
      : command === 'doctor'
        ? { ...OPTIONS, lang: { type: 'string' as const } }
        : OPTIONS;
  return parseArgs({ args, options, strict: true, allowPositionals: command === 'send-event' });
}

async function run(
  command: Command,
  parsed: ReturnType<typeof parse>,
  say: (t: string) => void,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parsed as {
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
  };
  switch (command) {
    case 'start':
      await import('../main.ts');
      return -1;
    case 'doctor':
      // The doctor reads its language from its arguments, as `npm run doctor -- --lang zh-CN`.
      return doctorCli(values.lang ? ['--lang', String(values.lang)] : [], process.env, {
        stdout: (text) => io.out.write(text),
        stderr: (text) => io.err.write(text),
      });
    case 'demo': {
      const demo = new URL('../../scripts/demo.ts', import.meta.url);
      if (!existsSync(demo)) {
        say('the demo is not in this build yet');
        return 1;
      }
      await import(demo.href);
      return -1;
    }
    case 'send-event':
      return sendEvent(values, positionals, say);
  }
}

async function sendEvent(
  values: Record<string, string | boolean | undefined>,
  positionals: string[],
  say: (t: string) => void,
): Promise<number> {
  const [target, arg, ...extra] = positionals;
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  if (extra.length) throw new UsageError(`unexpected "${extra.join(' ')}"; run switchyard send-event --help`);
  const config: Config = loadConfig(withEnvFile(process.env));
  let req: ReturnType<typeof githubRequest>;
  if (target === 'github') {
    if (!arg)
      throw new UsageError('name the GitHub event: switchyard send-event github issue_comment --body "…"');
    const number = Number(str('number') ?? '1');
    if (!Number.isInteger(number) || number < 1)
      throw new UsageError('--number must be a whole number above 0');
    req = githubRequest(config, arg, {
      body: str('body') ?? `@${config.GITHUB_BOT_LOGIN ?? 'switchyard'} hello`,
      repo: str('repo') ?? 'acme/sample',
      number,
      sender: str('sender') ?? 'octocat',
      url: str('url'),
    });
  } else if (target === 'feishu') {
    const text = arg ?? str('body');
    if (!text) throw new UsageError('give the message: switchyard send-event feishu "…"');
    req = feishuRequest(config, {
      text,
      chat: str('chat'),
      sender: str('sender') ?? 'ou_switchyard_cli',
      url: str('url'),
    });
  } else {
    throw new UsageError(
      'send-event github <event> or send-event feishu "<text>"; run switchyard send-event --help',
    );
  }
  const answer = await post(req);
  say(answer.line);
  return answer.ok ? 0 : 1;
}

/** From package.json: two folders up in the sources, three in the build (dist/src/cli/). */
function version(): string {
  const found = ['../../package.json', '../../../package.json']
    .map((p) => new URL(p, import.meta.url))
    .find((u) => existsSync(u));
  const pkg = found ? (JSON.parse(readFileSync(found, 'utf8')) as { version?: string }) : {};
  return `switchyard ${pkg.version ?? 'unknown'}`;
}
