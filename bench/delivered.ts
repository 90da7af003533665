/**
 * The comments' times start a day before the run: an object older than the dedupe window is a
 * replay by itself (issue 31), a cheaper duplicate that would not measure storing.
 */
const SINCE = Date.now() - 24 * 3600 * 1000;

/**
 * Issue 18: a bench webhook as GitHub delivers it. The test kit's payloads carry only the fields
 * the product reads (about 640 bytes for a mention); GitHub's `issue_comment` delivery carries the
 * full issue, comment, repository, sender and installation objects, every user with its API URLs,
 * and the comment's and issue's times — about 9 KB. Signature checks, JSON parsing and the replay
 * key (which needs `updated_at`) cost what they cost on that size, for every server the benches
 * compare. The kit's own values win where both set a field. Field lists follow the payload examples
 * in GitHub's "Webhook events and payloads" documentation.
 */
export function asDelivered(payload: Record<string, unknown>, i: number): Record<string, unknown> {
  const at = new Date(SINCE + i * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const p = payload as Payload;
  const [owner = 'acme', name = 'widgets'] = String(p.repository?.full_name ?? 'acme/widgets').split('/');
  const repoApi = `https://api.github.com/repos/${owner}/${name}`;
  const number = Number(p.issue?.number ?? 1);
  const issueApi = `${repoApi}/issues/${number}`;
  const commentId = Number(p.comment?.id ?? 1);
  return {
    ...payload,
    issue: {
      url: issueApi,
      repository_url: repoApi,
      labels_url: `${issueApi}/labels{/name}`,
      comments_url: `${issueApi}/comments`,
      events_url: `${issueApi}/events`,
      html_url: `https://github.com/${owner}/${name}/issues/${number}`,
      id: 2_000_000_000 + number,
      node_id: `I_kwDOAbCdEf${number}`,
      labels: [label(repoApi, 'bug', 'd73a4a', "Something isn't working")],
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments: 3,
      created_at: '2026-10-30T09:12:44Z',
      updated_at: at,
      closed_at: null,
      active_lock_reason: null,
      sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
      reactions: reactions(issueApi),
      timeline_url: `${issueApi}/timeline`,
      performed_via_github_app: null,
      state_reason: null,
      ...p.issue,
      user: fullUser(p.issue?.user),
    },
    comment: {
      url: `${repoApi}/issues/comments/${commentId}`,
      issue_url: issueApi,
      node_id: `IC_kwDOAbCdEf${commentId}`,
      created_at: at,
      updated_at: at,
      reactions: reactions(`${repoApi}/issues/comments/${commentId}`),
      performed_via_github_app: null,
      ...p.comment,
      user: fullUser(p.comment?.user),
    },
    repository: fullRepository(owner, name, p.repository),
    sender: fullUser(p.sender),
    installation: { id: 41_000_001, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDEwMDAwMDE=' },
  };
}

interface Payload {
  issue?: Record<string, unknown> & { user?: Record<string, unknown>; number?: unknown };
  comment?: Record<string, unknown> & { user?: Record<string, unknown>; id?: unknown };
  repository?: Record<string, unknown> & { full_name?: unknown; owner?: Record<string, unknown> };
  sender?: Record<string, unknown>;
}

function fullUser(u: Record<string, unknown> | undefined): Record<string, unknown> {
  const login = String(u?.login ?? 'octocat');
  const api = `https://api.github.com/users/${login}`;
  return {
    login,
    id: 1,
    node_id: 'MDQ6VXNlcjE=',
    avatar_url: 'https://avatars.githubusercontent.com/u/1?v=4',
    gravatar_id: '',
    url: api,
    html_url: `https://github.com/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: 'User',
    user_view_type: 'public',
    site_admin: false,
    ...u,
  };
}

function fullRepository(owner: string, name: string, given: Payload['repository']): Record<string, unknown> {
  const api = `https://api.github.com/repos/${owner}/${name}`;
  const urls = Object.fromEntries(REPO_URLS.map(([field, path]) => [field, `${api}${path}`]));
  return {
    id: 1,
    node_id: 'R_kgDOAbCdEf',
    name,
    full_name: `${owner}/${name}`,
    private: false,
    html_url: `https://github.com/${owner}/${name}`,
    description: 'The widgets service',
    fork: false,
    url: api,
    ...urls,
    created_at: '2024-02-11T10:00:00Z',
    updated_at: '2026-10-31T17:20:03Z',
    pushed_at: '2026-10-31T17:19:58Z',
    git_url: `git://github.com/${owner}/${name}.git`,
    ssh_url: `git@github.com:${owner}/${name}.git`,
    clone_url: `https://github.com/${owner}/${name}.git`,
    svn_url: `https://github.com/${owner}/${name}`,
    homepage: null,
    size: 18_344,
    stargazers_count: 112,
    watchers_count: 112,
    language: 'TypeScript',
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    has_discussions: false,
    forks_count: 9,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 27,
    license: {
      key: 'mit',
      name: 'MIT License',
      spdx_id: 'MIT',
      url: 'https://api.github.com/licenses/mit',
      node_id: 'MDc6TGljZW5zZTEz',
    },
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: ['widgets', 'service'],
    visibility: 'public',
    forks: 9,
    open_issues: 27,
    watchers: 112,
    default_branch: 'main',
    custom_properties: {},
    ...given,
    owner: fullUser({
      type: 'Organization',
      ...given?.owner,
      login: owner,
    }),
  };
}

/** The repository object's API links, each below the repository's API URL. */
const REPO_URLS: [string, string][] = [
  ['forks_url', '/forks'],
  ['keys_url', '/keys{/key_id}'],
  ['collaborators_url', '/collaborators{/collaborator}'],
  ['teams_url', '/teams'],
  ['hooks_url', '/hooks'],
  ['issue_events_url', '/issues/events{/number}'],
  ['events_url', '/events'],
  ['assignees_url', '/assignees{/user}'],
  ['branches_url', '/branches{/branch}'],
  ['tags_url', '/tags'],
  ['blobs_url', '/git/blobs{/sha}'],
  ['git_tags_url', '/git/tags{/sha}'],
  ['git_refs_url', '/git/refs{/sha}'],
  ['trees_url', '/git/trees{/sha}'],
  ['statuses_url', '/statuses/{sha}'],
  ['languages_url', '/languages'],
  ['stargazers_url', '/stargazers'],
  ['contributors_url', '/contributors'],
  ['subscribers_url', '/subscribers'],
  ['subscription_url', '/subscription'],
  ['commits_url', '/commits{/sha}'],
  ['git_commits_url', '/git/commits{/sha}'],
  ['comments_url', '/comments{/number}'],
  ['issue_comment_url', '/issues/comments{/number}'],
  ['contents_url', '/contents/{+path}'],
  ['compare_url', '/compare/{base}...{head}'],
  ['merges_url', '/merges'],
  ['archive_url', '/{archive_format}{/ref}'],
  ['downloads_url', '/downloads'],
  ['issues_url', '/issues{/number}'],
  ['pulls_url', '/pulls{/number}'],
  ['milestones_url', '/milestones{/number}'],
  ['notifications_url', '/notifications{?since,all,participating}'],
  ['labels_url', '/labels{/name}'],
  ['releases_url', '/releases{/id}'],
  ['deployments_url', '/deployments'],
];

function label(repoApi: string, name: string, color: string, description: string): Record<string, unknown> {
  return {
    id: 5_000_001,
    node_id: 'LA_kwDOAbCdEf8AAAABAAAAAQ',
    url: `${repoApi}/labels/${name}`,
    name,
    color,
    default: true,
    description,
  };
}

function reactions(api: string): Record<string, unknown> {
  return {
    url: `${api}/reactions`,
    total_count: 0,
    '+1': 0,
    '-1': 0,
    laugh: 0,
    hooray: 0,
    confused: 0,
    heart: 0,
    rocket: 0,
    eyes: 0,
  };
}
