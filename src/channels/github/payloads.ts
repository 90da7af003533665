import { z } from 'zod';

/**
 * The parts of GitHub webhook payloads the parser reads, checked with zod: a signed payload is
 * still untrusted input, and a shape we don't expect is a 400, never a crash (R-A2).
 */
export const UserSchema = z.object({
  login: z.string().min(1),
  type: z.string().optional(),
  id: z.number().int().optional(),
});
export type GitHubUser = z.infer<typeof UserSchema>;

/** GitHub's placeholder for a deleted account: its issues, comments and reviews show `ghost`. */
export const GHOST_USER: GitHubUser = { login: 'ghost', type: 'User' };

/**
 * Who wrote an issue, PR, comment or review. GitHub's webhook schema lets it be `null` (the account
 * was deleted, issue 46): read as `ghost`, who holds no role anywhere (`textAuthorOf`).
 */
const AuthorSchema = UserSchema.nullable().transform((u) => u ?? GHOST_USER);

const text = z.string().nullish();

export const RepositorySchema = z.object({ full_name: z.string().regex(/^[\w.-]+\/[\w.-]+$/) });

export const IssueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  user: AuthorSchema,
  state: z.string().optional(),
  author_association: z.string().optional(),
  /** Present when the "issue" is a pull request. */
  pull_request: z.object({}).loose().nullish(),
});

export const CommentSchema = z.object({
  id: z.number().int(),
  body: text,
  user: AuthorSchema,
  author_association: z.string().optional(),
  /** Review comments only: the comment this one answers, i.e. its review thread. */
  in_reply_to_id: z.number().int().optional(),
  commit_id: z.string().optional(),
  path: z.string().optional(),
});

const HeadSchema = z.object({
  ref: z.string(),
  sha: z.string(),
  repo: z.object({ full_name: z.string() }).nullish(),
});

export const PullRequestSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: text,
  user: AuthorSchema,
  state: z.string().optional(),
  draft: z.boolean().optional(),
  merged: z.boolean().nullish(),
  author_association: z.string().optional(),
  head: HeadSchema,
  base: z.object({ ref: z.string() }),
});
export type PullRequestPayload = z.infer<typeof PullRequestSchema>;

export const ReviewSchema = z.object({
  id: z.number().int(),
  body: text,
  user: AuthorSchema,
  state: z.string(),
  author_association: z.string().optional(),
});

/** A repository as check PR entries name it: `{ id, url, name }`. */
const CheckRepoSchema = z.object({ id: z.number().int().optional(), url: z.string().optional() }).nullish();
const CheckPullsSchema = z
  .array(
    z.object({
      number: z.number().int().positive(),
      head: z.object({ repo: CheckRepoSchema }).optional(),
      base: z.object({ repo: CheckRepoSchema }).optional(),
    }),
  )
  .default([]);
export type CheckPulls = z.infer<typeof CheckPullsSchema>;
const AppSchema = z.object({ slug: z.string().optional(), name: z.string().optional() }).nullish();

export const CheckRunSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullish(),
  head_sha: z.string(),
  details_url: text,
  html_url: text,
  output: z.object({ title: text, summary: text }).optional(),
  check_suite: z.object({ head_branch: text }).optional(),
  pull_requests: CheckPullsSchema,
  app: AppSchema,
});

export const CheckSuiteSchema = z.object({
  id: z.number().int(),
  status: z.string().nullish(),
  conclusion: z.string().nullish(),
  head_sha: z.string(),
  head_branch: text,
  pull_requests: CheckPullsSchema,
  app: AppSchema,
});

/** What every event the parser handles carries. */
export const EnvelopeSchema = z.object({
  action: z.string().optional(),
  sender: UserSchema,
  repository: RepositorySchema,
});
