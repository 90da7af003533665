/** Issue 32: the `switchyard` commands and what `--help` says for each. */
export const COMMANDS = ['start', 'demo', 'doctor', 'send-event'] as const;
export type Command = (typeof COMMANDS)[number];

const COMMON = `  -h, --help       this text
  -v, --version    the version`;

export const USAGE = `Usage: switchyard <command> [options]

Commands:
  start        run the bot (settings from the environment and .env; see .env.example)
  demo         try the bot on a sample repository with no accounts (npm run demo)
  doctor       check the configuration against the real services; exit 1 on a problem
  send-event   sign and post a sample GitHub or Feishu event to a running bot

switchyard <command> --help tells more.
${COMMON}`;

const HELP: Record<Command, string> = {
  start: `Usage: switchyard start [options]

Runs the bot: Redis, the HTTP server on PORT and the workers, by ROLE (all, web, worker).
Settings come from the environment and .env (or the file ENV_FILE names); the real environment wins.
Stop it with Ctrl-C or SIGTERM: it finishes what is in flight first.

Options:
${COMMON}`,
  demo: `Usage: switchyard demo [options]

Starts the bot with a local GitHub serving a sample repository and, without LLM_API_KEY, a
scripted model; prints the panel's address. Ctrl-C stops everything.

Options:
${COMMON}`,
  doctor: `Usage: switchyard doctor [options]

Checks model, Redis, Feishu, GitHub, workspace and sandbox with the bot's settings and prints each
problem with its fix. Exits 0 when nothing is wrong, 1 on a problem, 2 on a configuration that does
not parse.

Options:
  --lang <en|zh-CN>  the report's language (else DOCTOR_LANG, else the locale)
${COMMON}`,
  'send-event': `Usage: switchyard send-event github <event> [--body <text>] [options]
       switchyard send-event feishu "<text>" [options]

Signs a sample event with the configured secrets and posts it to a running bot, as GitHub or
Feishu would: GitHub events with GITHUB_WEBHOOK_SECRET to /webhooks/github (events:
issue_comment, pull_request_review_comment); a Feishu direct message encrypted and signed with
FEISHU_ENCRYPT_KEY to /webhooks/feishu (needs FEISHU_EVENT_MODE=http). Prints the bot's answer;
exits 1 when it is not a success.

Options:
  --body <text>      the comment's text (GitHub; default: a mention of GITHUB_BOT_LOGIN)
  --repo <o/name>    the repository (GitHub; default acme/sample)
  --number <n>       the issue or pull request number (GitHub; default 1)
  --sender <id>      the author: a GitHub login (default octocat) or a Feishu open_id
  --chat <oc_…>      a Feishu group chat instead of a direct message
  --url <base>       the bot's address (default http://127.0.0.1:PORT)
${COMMON}`,
};

export const helpOf = (command: Command): string => HELP[command];
