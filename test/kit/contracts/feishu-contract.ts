import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { cachedExtract, packageDir, packageVersion, readJson, requireHere } from './contract-cache.ts';

/**
 * Issue 46 item 3: every Open API call the product makes to the test kit's Feishu is held
 * against Feishu's own API definitions — path, method, and the zod schemas of body and query per
 * API, as generated into `@larksuiteoapi/lark-mcp` (`dist/mcp-tool/tools/en/gen-tools/zod/*.js`).
 * Off them the fake answers as Feishu does: 404 for a path or method that does not exist, 400
 * with code 99992402 ("field validation failed") and the violations for a path, body or query that
 * does not parse; 230001 ("invalid request parameter, ext=invalid message_id") for an id of the
 * wrong kind (a message id is `om_…`, a chat id `oc_…`); a message whose request body is over
 * Feishu's limit (text 150 KB, card or rich text 30 KB, as the send, reply and update APIs
 * describe them) is refused with 230025. A body key the definitions lack is ignored, as Feishu
 * ignores it (no documented refusal): the fake's routes must act only on defined keys.
 *
 * The index (method, path, file and export of each of the ~1,300 APIs) is read out of the files'
 * text once per machine into `node_modules/.cache`; a file's schemas are loaded (it needs zod)
 * only when a test calls one of its APIs.
 */
export interface FeishuRefusal {
  status: number;
  body: { code: number; msg: string; error?: unknown };
}

/** What the product calls that the definitions lack, each with where it is documented. */
export const FEISHU_ALLOWED: { method: string; path: RegExp; doc: string }[] = [
  {
    method: 'GET',
    path: /^\/open-apis\/bot\/v3\/info$/,
    doc: 'Feishu Open Platform, Bot > Obtain bot information (open.feishu.cn/document/client-docs/bot-v3/obtain-bot-info)',
  },
  {
    method: 'POST',
    path: /^\/callback\/ws\/endpoint$/,
    doc: 'the long connection the node SDK’s WSClient opens (open.feishu.cn/document/server-docs/event-subscription-guide/event-subscription-configure-/request-url-configuration-case, "use long connection")',
  },
];

const PKG = '@larksuiteoapi/lark-mcp';
const FORMAT = 1;
const TOOLS = 'dist/mcp-tool/tools/en/gen-tools/zod';
/**
 * Feishu's limits on a message's request body (not its `content` alone), by `msg_type`: "the
 * maximum size of a text message request body cannot exceed 150 KB; of a card message or rich
 * text message request body, 30 KB" (send and reply), "the updated card message must not exceed
 * 30 KB" (update).
 */
export const BODY_LIMIT: Record<string, number> = {
  interactive: 30 * 1024,
  post: 30 * 1024,
  text: 150 * 1024,
};
/** The prefix of each kind of id a path or `receive_id` may carry. */
const ID_PREFIX: Record<string, string> = { message_id: 'om_', chat_id: 'oc_' };

interface Api {
  file: string;
  name: string;
  method: string;
  path: string;
}
interface Tool {
  schema: { data?: z.ZodType; params?: z.ZodType; path?: z.ZodType };
}

let apis: { api: Api; re: RegExp; names: string[]; literal: number }[] | undefined;

function extract(dir: string): void {
  const folder = join(packageDir(PKG), TOOLS);
  const found: Api[] = [];
  // Each API is an exported object literal whose first fields are fixed: read them from the text.
  const re =
    /exports\.(\w+) = \{\s*project: [^\n]*\n\s*name: '[^']+',[^\n]*\n\s*sdkName: [^\n]*\n\s*path: '([^']+)',\s*\n\s*httpMethod: '([A-Z]+)'/g;
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.js'))) {
    for (const m of readFileSync(join(folder, file), 'utf8').matchAll(re))
      found.push({ file, name: m[1] ?? '', path: m[2] ?? '', method: m[3] ?? '' });
  }
  if (found.length < 1000) throw new Error(`lark-mcp: only ${found.length} APIs found in ${TOOLS}`);
  writeFileSync(join(dir, 'index.json'), JSON.stringify(found));
}

function loadApis() {
  if (apis) return apis;
  const dir = cachedExtract(`feishu-api-${packageVersion(PKG)}-f${FORMAT}`, extract);
  apis = readJson<Api[]>(join(dir, 'index.json')).map((api) => ({
    api,
    re: new RegExp(`^${api.path.replace(/:\w+/g, '([^/]+)')}$`),
    names: [...api.path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? ''),
    literal: api.path.replace(/:\w+/g, '').length,
  }));
  return apis;
}

/** The API a request is, by Feishu's definitions; undefined when there is none. */
export function feishuApi(method: string, path: string): Api | undefined {
  return route(method, path)?.api;
}

function route(method: string, path: string) {
  let best: ReturnType<typeof loadApis>[number] | undefined;
  for (const a of loadApis()) {
    if (a.api.method === method && a.re.test(path) && (!best || a.literal > best.literal)) best = a;
  }
  return best;
}

const invalidParameter = (what: string): FeishuRefusal => ({
  status: 400,
  body: { code: 230001, msg: `Your request contains an invalid request parameter, ext=invalid ${what}` },
});

/**
 * Why a call is off Feishu's definitions, as Feishu would answer; undefined when it is on them.
 * `bytes` is the request body's size on the wire (what Feishu's message limits measure).
 */
export function feishuRefusal(
  method: string,
  path: string,
  query: Record<string, string>,
  body: Record<string, unknown> | undefined,
  bytes: number,
): FeishuRefusal | undefined {
  if (FEISHU_ALLOWED.some((a) => a.method === method && a.path.test(path))) return undefined;
  const found = route(method, path);
  if (!found) return { status: 404, body: { code: 404, msg: `404 page not found: ${method} ${path}` } };
  const { api } = found;
  const tool = (requireHere(join(packageDir(PKG), TOOLS, api.file)) as Record<string, Tool>)[api.name];
  const params = pathParams(found.re, found.names, path);
  const violations = [
    ...(tool?.schema.path ? issues('path', tool.schema.path, params) : []),
    ...issues('query', tool?.schema.params, wireQuery(tool?.schema.params, query)),
    ...(body === undefined && !tool?.schema.data ? [] : issues('body', tool?.schema.data, body ?? {})),
  ];
  if (violations.length)
    return {
      status: 400,
      body: { code: 99992402, msg: 'field validation failed', error: { field_violations: violations } },
    };
  const wrongId = Object.entries(params).find(([k, v]) => ID_PREFIX[k] && !v.startsWith(ID_PREFIX[k] ?? ''));
  if (wrongId) return invalidParameter(wrongId[0]);
  // Feishu's answer to a chat message sent to another kind of id: "ext=invalid receive_id".
  if (
    query.receive_id_type === 'chat_id' &&
    typeof body?.receive_id === 'string' &&
    !body.receive_id.startsWith('oc_')
  )
    return invalidParameter('receive_id');
  const over = oversized(api, body, bytes);
  return over ? { status: 400, body: { code: 230025, msg: over } } : undefined;
}

/** A path's parameters by name, decoded (`/messages/:message_id/reply` → `{ message_id }`). */
function pathParams(re: RegExp, names: string[], path: string): Record<string, string> {
  const m = re.exec(path);
  return Object.fromEntries(
    names.map((name, i) => {
      const raw = m?.[i + 1] ?? '';
      try {
        return [name, decodeURIComponent(raw)];
      } catch {
        return [name, raw];
      }
    }),
  );
}

/**
 * A query's values are text on the wire; the definitions type them as the SDK takes them
 * (`page_size: number`, flags as booleans): a value reads as a number or boolean where only that parses.
 */
function wireQuery(schema: z.ZodType | undefined, query: Record<string, string>): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
  return Object.fromEntries(
    Object.entries(query).map(([k, v]) => {
      const field = shape[k];
      if (!field || field.safeParse(v).success) return [k, v];
      const typed = v === 'true' || v === 'false' ? v === 'true' : v.trim() === '' ? v : Number(v);
      return [k, field.safeParse(typed).success ? typed : v];
    }),
  );
}

function issues(where: string, schema: z.ZodType | undefined, value: unknown) {
  if (!schema)
    return where === 'query' && Object.keys(value as object).length
      ? [{ field: where, description: 'the API takes no query' }]
      : [];
  const r = schema.safeParse(value);
  return r.success
    ? []
    : r.error.issues.map((i) => ({ field: [where, ...i.path].join('.'), description: i.message }));
}

/** A message's request body over Feishu's limit for its type (an update without a type is a card). */
function oversized(api: Api, body: Record<string, unknown> | undefined, bytes: number): string | undefined {
  if (typeof body?.content !== 'string' || !/^\/open-apis\/im\/v1\/messages(\/|$)/.test(api.path))
    return undefined;
  const type = typeof body.msg_type === 'string' ? body.msg_type : 'interactive';
  const limit = BODY_LIMIT[type];
  return limit !== undefined && bytes > limit
    ? `message content too long: the request body is ${bytes} bytes, a ${type} message's at most ${limit / 1024} KB`
    : undefined;
}
