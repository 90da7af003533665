import { createHmac, randomUUID } from 'node:crypto';
import type { EvalChannel } from './task.ts';
import { branchesOf, PERSON_BRANCH } from './task-repo.ts';
import type { TaskWorld } from './task-world.ts';

/**
 * A person's message to the bot through the real webhook path of its channel (issue 29): a
 * GitHub issue opened mentioning the bot, a comment on a pull request, or a Feishu message —
 * signed as GitHub and Feishu sign them. A follow-up goes where a person would write it: on the
 * bot's pull request, on the issue, or in the bot's Feishu thread.
 */

const PERSON = { login: 'eval-person', id: 7, type: 'User' };

/** Where the conversation is, once the request is sent: what a follow-up answers. */
export interface Conversation {
  issue?: number;
  pull?: number;
  feishuMessage?: string;
}

export async function sendRequest(w: TaskWorld, channel: EvalChannel, text: string): Promise<Conversation> {
  const mention = `@${w.github.botLogin.replace(/\[bot\]$/, '')}`;
  if (channel === 'feishu') return { feishuMessage: await pushFeishu(w, text) };
  if (channel === 'github-issue') {
    const title = text.split('\n')[0]?.slice(0, 80) || 'A request';
    const issue = w.github.openIssue(title, `${mention} ${text}`);
    await postGitHub(w, 'issues', {
      action: 'opened',
      issue: issueJson(w, issue, title, `${mention} ${text}`, false),
      repository: repoJson(w),
      sender: PERSON,
    });
    return { issue };
  }
  const pull = w.github.addPull({
    title: 'Work in progress',
    body: 'A change under review.',
    head: PERSON_BRANCH,
    base: 'main',
    draft: false,
    author: PERSON.login,
  });
  await comment(w, pull.number, true, `${mention} ${text}`);
  return { pull: pull.number };
}

/** A follow-up: on the bot's pull request when it opened one, else where the request was made. */
export async function sendFollowup(
  w: TaskWorld,
  channel: EvalChannel,
  text: string,
  at: Conversation,
): Promise<void> {
  const mention = `@${w.github.botLogin.replace(/\[bot\]$/, '')}`;
  if (channel === 'feishu') {
    const botSaid = w.feishu?.sent.filter((m) => m.msgType === 'post').at(-1)?.messageId;
    const parentId = botSaid ?? at.feishuMessage;
    await pushFeishu(w, text, {
      ...(parentId ? { parentId } : {}),
      ...(at.feishuMessage ? { rootId: at.feishuMessage } : {}),
    });
    return;
  }
  const botPull = w.github.pulls.find((p) => !p.author)?.number;
  const number = botPull ?? at.pull ?? at.issue;
  if (number === undefined)
    throw new Error('a GitHub follow-up needs an issue or a pull request to comment on');
  await comment(w, number, number === botPull || number === at.pull, `${mention} ${text}`);
}

/**
 * A review-thread comment (issue 47 item 5): a person's line comment on `path` of the bot's pull
 * request, opening a thread on the loopback GitHub, sent as GitHub sends
 * `pull_request_review_comment`. Its comment id, or undefined when the bot opened no pull request
 * (there is no diff to review: the task cannot be resolved).
 */
export async function sendReviewComment(
  w: TaskWorld,
  text: string,
  path: string,
): Promise<number | undefined> {
  const pull = w.github.pulls.find((p) => !p.author);
  if (!pull) return undefined;
  const body = `@${w.github.botLogin.replace(/\[bot\]$/, '')} ${text}`;
  const id = w.github.addReviewComment(pull.number, path, body, PERSON.login);
  const at = new Date().toISOString();
  const head = await headOf(w, pull.head);
  await postGitHub(w, 'pull_request_review_comment', {
    action: 'created',
    pull_request: {
      number: pull.number,
      title: pull.title,
      body: pull.body,
      user: { login: w.github.botLogin, type: 'Bot' },
      state: pull.state,
      draft: pull.draft,
      head: { ref: pull.head, sha: head, repo: { full_name: w.repo } },
      base: { ref: pull.base },
    },
    comment: {
      id,
      body,
      user: PERSON,
      author_association: 'MEMBER',
      path,
      commit_id: head,
      html_url: `${w.github.url}/${w.repo}/pull/${pull.number}#discussion_r${id}`,
      created_at: at,
      updated_at: at,
    },
    repository: repoJson(w),
    sender: PERSON,
  });
  return id;
}

async function headOf(w: TaskWorld, branch: string): Promise<string> {
  return (await branchesOf(w.bare, w.dir)).get(branch) ?? '0'.repeat(40);
}

async function pushFeishu(w: TaskWorld, text: string, thread: { parentId?: string; rootId?: string } = {}) {
  if (!w.feishu) throw new Error('a Feishu message needs the loopback Feishu');
  return w.feishu.push(`${w.url}/webhooks/feishu`, { text, chatId: w.chatId, ...thread });
}

let commentId = 90_000;

async function comment(w: TaskWorld, number: number, isPull: boolean, body: string): Promise<void> {
  const id = ++commentId;
  const at = new Date().toISOString();
  await postGitHub(w, 'issue_comment', {
    action: 'created',
    issue: issueJson(w, number, isPull ? 'A pull request' : 'An issue', '', isPull),
    comment: {
      id,
      body,
      user: PERSON,
      author_association: 'MEMBER',
      html_url: `${w.github.url}/${w.repo}/issues/${number}#issuecomment-${id}`,
      created_at: at,
      updated_at: at,
    },
    repository: repoJson(w),
    sender: PERSON,
  });
}

const repoJson = (w: TaskWorld) => ({
  id: 1,
  name: w.repo.split('/')[1],
  full_name: w.repo,
  owner: { login: w.repo.split('/')[0] },
  html_url: `${w.github.url}/${w.repo}`,
});

function issueJson(w: TaskWorld, number: number, title: string, body: string, isPull: boolean) {
  return {
    number,
    title,
    body,
    state: 'open',
    user: PERSON,
    author_association: 'MEMBER',
    html_url: `${w.github.url}/${w.repo}/${isPull ? 'pull' : 'issues'}/${number}`,
    ...(isPull ? { pull_request: { url: `${w.github.url}/repos/${w.repo}/pulls/${number}` } } : {}),
  };
}

async function postGitHub(w: TaskWorld, event: string, payload: unknown): Promise<void> {
  const body = JSON.stringify(payload);
  const res = await fetch(`${w.url}/webhooks/github`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/eval',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', w.githubSecret).update(body).digest('hex')}`,
    },
    body,
  });
  if (!res.ok) throw new Error(`the GitHub webhook answered ${res.status}: ${await res.text()}`);
}
