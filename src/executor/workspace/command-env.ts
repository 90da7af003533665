/** Variables a command in the checkout inherits from the bot's own environment. */
const ALLOWED = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TERM', 'SHELL', 'USER', 'LOGNAME'];

/**
 * The bot's own secrets (CONTRACT "Environment"). They are never in the allow-list; the list
 * is checked again so that widening `ALLOWED` by mistake cannot leak one (issue 4 "Workspace").
 */
export const BOT_SECRETS = [
  'LLM_API_KEY',
  'GITHUB_TOKEN',
  'GITHUB_PRIVATE_KEY',
  'GITHUB_WEBHOOK_SECRET',
  'FEISHU_APP_SECRET',
  'FEISHU_ENCRYPT_KEY',
  'FEISHU_VERIFICATION_TOKEN',
  'ADMIN_TOKEN',
  'REDIS_URL',
] as const;

/**
 * The environment of a command the executor runs: a small allow-list from the bot's process, a
 * home of the ticket's own (so `~/.npmrc`, `~/.git-credentials` and the like of the bot's account
 * are out of reach), and non-interactive defaults — an unattended agent can answer no prompt (R-C1).
 */
export function commandEnv(
  home: string,
  source: NodeJS.ProcessEnv = process.env,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ALLOWED) {
    const v = source[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, {
    HOME: home,
    TMPDIR: `${home}/tmp`,
    CI: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  });
  for (const name of BOT_SECRETS) delete env[name];
  return env;
}
