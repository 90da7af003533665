import type { Runtime } from '../../runtime.ts';

/**
 * R-E8: the main session's deployment-wide values. Only stable facts: anything that changes per
 * request (the time) would defeat the provider's prefix cache.
 */
export function mainEnvironment(rt: Runtime): Record<string, string> {
  const c = rt.ctx.config;
  const channels = [c.feishuEnabled && 'feishu', c.githubEnabled && 'github', 'local']
    .filter(Boolean)
    .join(', ');
  const env: Record<string, string> = { deployment: 'switchyard', channels };
  if (c.GITHUB_BOT_LOGIN) env['github bot login'] = `@${c.GITHUB_BOT_LOGIN}`;
  if (c.CHAT_REPOS.size)
    env['default repositories'] = [...c.CHAT_REPOS]
      .map(([chat, repos]) => `${chat} → ${repos.join(', ')}`)
      .join('; ');
  return env;
}
