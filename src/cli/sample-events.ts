import { randomUUID } from 'node:crypto';

/**
 * Issue 32: the sample events `switchyard send-event` posts, in the shapes GitHub and Feishu send
 * (the fields the bot reads), so a running bot can be tried without either service.
 */
export interface GitHubSample {
  repo: string;
  number: number;
  sender: string;
  body: string;
}

const githubUser = (login: string) => ({ login, id: 1, type: login.endsWith('[bot]') ? 'Bot' : 'User' });
const repository = (repo: string) => ({
  id: 1,
  name: repo.split('/')[1],
  full_name: repo,
  owner: { login: repo.split('/')[0] },
  html_url: `https://github.com/${repo}`,
});

/** The GitHub events with a sample: `issue_comment` (created) and `pull_request_review_comment`. */
export const GITHUB_SAMPLES = ['issue_comment', 'pull_request_review_comment'] as const;

export function githubSample(event: (typeof GITHUB_SAMPLES)[number], o: GitHubSample): unknown {
  const commentId = Math.floor(Date.now() / 1000);
  const comment = {
    id: commentId,
    body: o.body,
    user: githubUser(o.sender),
    author_association: 'MEMBER',
    html_url: `https://github.com/${o.repo}/issues/${o.number}#issuecomment-${commentId}`,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  };
  if (event === 'issue_comment')
    return {
      action: 'created',
      issue: {
        number: o.number,
        title: 'A sample issue',
        body: '',
        state: 'open',
        user: githubUser(o.sender),
        author_association: 'MEMBER',
        html_url: `https://github.com/${o.repo}/issues/${o.number}`,
      },
      comment,
      repository: repository(o.repo),
      sender: githubUser(o.sender),
    };
  return {
    action: 'created',
    comment: { ...comment, path: 'README.md', line: 1, commit_id: '0'.repeat(40) },
    pull_request: {
      id: o.number,
      number: o.number,
      title: 'A sample pull request',
      body: '',
      state: 'open',
      draft: false,
      user: githubUser(o.sender),
      html_url: `https://github.com/${o.repo}/pull/${o.number}`,
      head: { ref: 'sample', sha: '0'.repeat(40), repo: { full_name: o.repo } },
      base: { ref: 'main', sha: '1'.repeat(40), repo: { full_name: o.repo } },
    },
    repository: repository(o.repo),
    sender: githubUser(o.sender),
  };
}

export interface FeishuSample {
  appId: string;
  token: string;
  chat: string | undefined;
  sender: string;
  text: string;
}

/** An `im.message.receive_v1` push (schema 2.0): a direct message, or a group message with `chat`. */
export function feishuSample(o: FeishuSample): unknown {
  const now = String(Date.now());
  return {
    schema: '2.0',
    header: {
      event_id: `ev_cli_${randomUUID()}`,
      event_type: 'im.message.receive_v1',
      create_time: now,
      token: o.token,
      app_id: o.appId,
      tenant_key: 'switchyard-cli',
    },
    event: {
      sender: {
        sender_id: { open_id: o.sender, union_id: `on_${o.sender}`, user_id: o.sender },
        sender_type: 'user',
        tenant_key: 'switchyard-cli',
      },
      message: {
        message_id: `om_cli_${randomUUID().replaceAll('-', '')}`,
        create_time: now,
        chat_id: o.chat ?? `oc_cli_${o.sender}`,
        chat_type: o.chat ? 'group' : 'p2p',
        message_type: 'text',
        content: JSON.stringify({ text: o.text }),
        mentions: [],
      },
    },
  };
}
