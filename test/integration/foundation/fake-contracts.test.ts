import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEISHU_ALLOWED } from '../../kit/contracts/feishu-contract.ts';
import { REST_ALLOWED } from '../../kit/contracts/github-rest-contract.ts';
import { graphqlErrors } from '../../kit/contracts/graphql-contract.ts';
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

  it('GitHub REST: bad credentials are 401 whatever the body; a path parameter off its schema is 404; a required query parameter missing is 422', async () => {
    const locked = await startFakeGitHub({ token: 'ghp_right' });
    try {
      const post = (auth: string) =>
        fetch(`${locked.url}/repos/acme/web/pulls`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ title: 'Fix', draft: 'yes' }),
        }).then(async (r) => ({ status: r.status, body: await r.json() }));
      expect(await post('token ghp_wrong')).toEqual({ status: 401, body: { message: 'Bad credentials' } });
      // With the right token the same body is off the contract.
      expect((await post('token ghp_right')).status).toBe(422);
    } finally {
      await locked.close();
    }
    // `issue_number` is an integer: GitHub has no route for `/issues/abc`.
    expect(await rest('GET', '/repos/acme/web/issues/abc/comments')).toEqual({
      status: 404,
      body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
    });
    expect(await rest('PATCH', '/repos/acme/web/issues/comments/1e3', { body: 'x' })).toMatchObject({
      status: 404,
    });
    expect(await rest('GET', '/search/issues?per_page=5')).toMatchObject({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [{ field: 'q', code: 'missing' }],
        documentation_url: 'https://docs.github.com/rest/search/search#search-issues-and-pull-requests',
      },
    });
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

  it('GitHub GraphQL: every connection keeps GitHub’s limits on first and last, as GitHub words them', async () => {
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (await rest('POST', '/graphql', { query, variables })).body;
    const pr = (inner: string) =>
      `query($n: Int!) { repository(owner: "acme", name: "web") { pullRequest(number: $n) { ${inner} } } }`;
    const nested = pr('reviewThreads(first: 10) { nodes { comments(first: $n) { nodes { body } } } }');
    expect(await gql(nested, { n: 100 })).toHaveProperty('data');
    expect(await gql(nested, { n: 101 })).toEqual({
      data: null,
      errors: [
        {
          type: 'EXCESSIVE_PAGINATION',
          path: ['repository', 'pullRequest', 'reviewThreads', 'nodes', 'comments'],
          locations: [{ line: 1, column: nested.indexOf('comments(') + 1 }],
          message:
            'Requesting 101 records on the `comments` connection exceeds the `first` limit of 100 records.',
        },
      ],
    });
    const last = await gql(pr('commits(last: 250) { nodes { commit { oid } } }'), { n: 1 });
    expect(last).toMatchObject({
      data: null,
      errors: [
        {
          type: 'EXCESSIVE_PAGINATION',
          message:
            'Requesting 250 records on the `commits` connection exceeds the `last` limit of 100 records.',
        },
      ],
    });
    expect(await gql(pr('files(first: -1) { nodes { path } }'), { n: 1 })).toMatchObject({
      data: null,
      errors: [
        { type: 'INVALID_PAGINATION', message: '`first` on the connection cannot be less than zero.' },
      ],
    });
    expect(await gql(pr('labels { nodes { name } }'), { n: 1 })).toMatchObject({
      data: null,
      errors: [
        {
          type: 'MISSING_PAGINATION_BOUNDARIES',
          message: 'You must provide a `first` or `last` value to properly paginate the `labels` connection.',
        },
      ],
    });
    // A count alone lists nothing: no bounds needed.
    expect(graphqlErrors(pr('labels { totalCount }'), { n: 1 })).toEqual([]);
  });

  const tokenOf = async () => {
    const token = await fetch(`${feishu.url}/open-apis/auth/v3/tenant_access_token/internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: feishu.appId, app_secret: feishu.appSecret }),
    });
    return ((await token.json()) as { tenant_access_token: string }).tenant_access_token;
  };
  const feishuCall = async (method: string, path: string, body?: unknown) => {
    const tenant_access_token = await tokenOf();
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
    // Only this test's message: another test of the file may have patched its own (the order is shuffled).
    expect(feishu.patches.filter((p) => p.messageId === 'om_1')).toHaveLength(0);
  });

  const raw = async (method: string, path: string, body: string, token: string) => {
    const res = await fetch(`${feishu.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    return { status: res.status, body: (await res.json()) as { code: number; msg: string } };
  };

  it('Feishu: a bad token is refused whatever the body; ids of the wrong kind are 230001; the limit is on the request body', async () => {
    const offBody = JSON.stringify({ receive_id: 'oc_1', msg_type: 'text', content: { text: 'hi' } });
    const send = '/open-apis/im/v1/messages?receive_id_type=chat_id';
    expect(await raw('POST', send, offBody, 't-stolen')).toEqual({
      status: 400,
      body: { code: 99991663, msg: 'Invalid access token for authorization' },
    });
    const text = JSON.stringify({ text: 'hello' });
    expect(
      await feishuCall('POST', '/open-apis/im/v1/messages/msg-42/reply', { msg_type: 'text', content: text }),
    ).toEqual({
      status: 400,
      body: {
        code: 230001,
        msg: 'Your request contains an invalid request parameter, ext=invalid message_id',
      },
    });
    expect(
      await feishuCall('POST', send, { receive_id: 'ou_person', msg_type: 'text', content: text }),
    ).toEqual({
      status: 400,
      body: {
        code: 230001,
        msg: 'Your request contains an invalid request parameter, ext=invalid receive_id',
      },
    });
    // Feishu measures the request body: one of exactly 30 KB passes, one byte more is refused,
    // though the card's `content` is well under 30 KB (its quotes are escaped twice in the body).
    const token = await tokenOf();
    const bodyOf = (n: number) =>
      JSON.stringify({
        content: JSON.stringify({
          elements: [{ tag: 'markdown', content: `${'"'.repeat(7000)}${'x'.repeat(n)}` }],
        }),
      });
    const exact = bodyOf(30 * 1024 - Buffer.byteLength(bodyOf(0)));
    expect(Buffer.byteLength(exact)).toBe(30 * 1024);
    expect(Buffer.byteLength(JSON.parse(exact).content)).toBeLessThan(24 * 1024);
    const patches = feishu.patches.length;
    expect((await raw('PATCH', '/open-apis/im/v1/messages/om_limit', exact, token)).body.code).toBe(0);
    expect(
      await raw(
        'PATCH',
        '/open-apis/im/v1/messages/om_limit',
        bodyOf(30 * 1024 - Buffer.byteLength(bodyOf(0)) + 1),
        token,
      ),
    ).toMatchObject({
      status: 400,
      body: { code: 230025 },
    });
    expect(feishu.patches.length).toBe(patches + 1);
  });

  it('each endpoint served off the definitions is named with its documentation', () => {
    for (const a of [...REST_ALLOWED, ...FEISHU_ALLOWED]) expect(a.doc).toMatch(/\S{10}/);
    expect(FEISHU_ALLOWED.map((a) => `${a.method} ${a.path.source}`)).toEqual([
      'GET ^\\/open-apis\\/bot\\/v3\\/info$',
      'POST ^\\/callback\\/ws\\/endpoint$',
    ]);
  });
});
