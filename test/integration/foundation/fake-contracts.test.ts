import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEISHU_ALLOWED } from '../../kit/contracts/feishu-contract.ts';
import { REST_ALLOWED } from '../../kit/contracts/github-rest-contract.ts';
import { type FakeFeishu, startFakeFeishu } from '../../kit/fake-feishu.ts';
import { type FakeGitHub, startFakeGitHub } from '../../kit/fake-github.ts';

/**
 * Issue 46 item 3: the kit's fakes hold every request against the platforms' published contracts
 * (GitHub's REST description and GraphQL schema, Feishu's API definitions) and answer a call off
 * them as the platform does, so every test of the product enforces the contracts. Each case here
 * is a call the fake's own routes would have served.
 */
describe('the fakes answer calls off the published contracts as the platforms do (issue 46)', () => {
  let gh: FakeGitHub;
  let feishu: FakeFeishu;
  beforeAll(async () => {
    [gh, feishu] = await Promise.all([startFakeGitHub(), startFakeFeishu()]);
  });
  afterAll(async () => {
    await Promise.all([gh.close(), feishu.close()]);
  });

  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${gh.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('GitHub REST: an unknown route is 404, a foreign query parameter or a bad body 422 Validation Failed', async () => {
    gh.addIssue('acme/web', { title: 'One' });
    // On the contract: the fake serves it.
    expect((await rest('GET', '/repos/acme/web/issues/1/comments?per_page=100&page=1')).status).toBe(200);
    // Not an operation of GitHub's (the fake would answer the issue itself).
    expect(await rest('GET', '/repos/acme/web/issue/1')).toEqual({
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
    });
    // An existing path under a method GitHub does not have for it.
    expect((await rest('PUT', '/repos/acme/web/issues/1/comments')).status).toBe(404);
    const foreign = await rest('GET', '/repos/acme/web/issues/1/comments?per_page=100&limit=5');
    expect(foreign).toMatchObject({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ field: 'limit', code: 'invalid' }],
        documentation_url: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
      },
    });
    expect((await rest('GET', '/repos/acme/web/issues/1/comments?per_page=many')).status).toBe(422);
    // `head` is required, `draft` a boolean: the fake would have opened this PR.
    const pr = await rest('POST', '/repos/acme/web/pulls', { title: 'Fix', base: 'main', draft: 'yes' });
    expect(pr.status).toBe(422);
    expect(pr.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'head', code: 'missing_field' }),
        expect.objectContaining({ field: 'draft', code: 'invalid' }),
      ]),
    );
    expect(gh.pulls).toHaveLength(0);
    expect(
      (await rest('POST', '/repos/acme/web/pulls', { title: 'Fix', head: 'sy/t1', base: 'main' })).status,
    ).toBe(201);
  });

  it('GitHub GraphQL: a document off the schema, or without its variables, is answered with errors and no data', async () => {
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (await rest('POST', '/graphql', { query, variables })).body;
    const threads =
      'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 10) { pageInfo { hasNextPage endCursor } nodes { id } } } } }';
    expect(await gql(threads, { owner: 'acme', name: 'web', number: 1 })).toHaveProperty('data');
    expect(
      await gql(threads.replace('nodes { id }', 'nodes { id colour }'), {
        owner: 'acme',
        name: 'web',
        number: 1,
      }),
    ).toEqual({
      errors: [{ message: 'Cannot query field "colour" on type "PullRequestReviewThread".' }],
    });
    expect(await gql(threads, { owner: 'acme', name: 'web' })).toEqual({
      errors: [{ message: 'Variable "$number" of required type "Int!" was not provided.' }],
    });
  });

  const feishuCall = async (method: string, path: string, body?: unknown) => {
    const token = await fetch(`${feishu.url}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: feishu.appId, app_secret: feishu.appSecret }),
    });
    const { tenant_access_token } = (await token.json()) as { tenant_access_token: string };
    const res = await fetch(`${feishu.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant_access_token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as { code: number; msg: string } };
  };

  it('Feishu: an unknown API is 404, a body off its schema 99992402, a card over 30 KB 230025', async () => {
    const text = JSON.stringify({ text: 'hello' });
    const send = '/open-apis/im/v1/messages?receive_id_type=chat_id';
    expect(
      (await feishuCall('POST', send, { receive_id: 'oc_1', msg_type: 'text', content: text })).body.code,
    ).toBe(0);
    expect((await feishuCall('POST', '/open-apis/im/v1/message', { content: text })).status).toBe(404);
    const bad = await feishuCall('POST', send, {
      receive_id: 'oc_1',
      msg_type: 'text',
      content: { text: 'hi' },
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 99992402, msg: 'field validation failed' } });
    const card = JSON.stringify({ elements: [{ tag: 'markdown', content: 'x'.repeat(31 * 1024) }] });
    const big = await feishuCall('PATCH', '/open-apis/im/v1/messages/om_1', { content: card });
    expect(big).toMatchObject({ status: 400, body: { code: 230025 } });
    expect(feishu.patches).toHaveLength(0);
  });

  it('each endpoint served off the definitions is named with its documentation', () => {
    for (const a of [...REST_ALLOWED, ...FEISHU_ALLOWED]) expect(a.doc).toMatch(/\S{10}/);
    expect(FEISHU_ALLOWED.map((a) => `${a.method} ${a.path.source}`)).toEqual([
      'GET ^\\/open-apis\\/bot\\/v3\\/info$',
      'POST ^\\/callback\\/ws\\/endpoint$',
    ]);
  });
});
