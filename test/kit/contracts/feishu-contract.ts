import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { cachedExtract, packageDir, packageVersion, readJson, requireHere } from './contract-cache.ts';

/**
 * Issue 46 item 3: every Open API call the product makes to the test kit's Feishu is held
 * against Feishu's own API definitions — path, method, and the zod schemas of body and query per
 * API, as generated into `@larksuiteoapi/lark-mcp` (`dist/mcp-tool/tools/en/gen-tools/zod/*.js`).
 * Off them the fake answers as Feishu does: 404 for a path or method that does not exist, 400
 * with code 99992402 ("field validation failed") and the violations for a body or query that does
 * not parse; a card or post whose content is over 30 KB is refused with 230025.
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
/** Feishu's limits on a message's `content`: a card or a post 30 KB, text 150 KB. */
const CONTENT_LIMIT: Record<string, number> = { interactive: 30 * 1024, post: 30 * 1024, text: 150 * 1024 };

interface Api {
  file: string;
  name: string;
  method: string;
  path: string;
}
interface Tool {
  schema: { data?: z.ZodType; params?: z.ZodType; path?: z.ZodType };
}

let apis: { api: Api; re: RegExp; literal: number }[] | undefined;

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
    re: new RegExp(`^${api.path.replace(/:\w+/g, '[^/]+')}$`),
    literal: api.path.replace(/:\w+/g, '').length,
  }));
  return apis;
}

/** The API a request is, by Feishu's definitions; undefined when there is none. */
export function feishuApi(method: string, path: string): Api | undefined {
  let best: ReturnType<typeof loadApis>[number] | undefined;
  for (const a of loadApis()) {
    if (a.api.method === method && a.re.test(path) && (!best || a.literal > best.literal)) best = a;
  }
  return best?.api;
}

/** Why a call is off Feishu's definitions, as Feishu would answer; undefined when it is on them. */
export function feishuRefusal(
  method: string,
  path: string,
  query: Record<string, string>,
  body: Record<string, unknown> | undefined,
): FeishuRefusal | undefined {
  if (FEISHU_ALLOWED.some((a) => a.method === method && a.path.test(path))) return undefined;
  const api = feishuApi(method, path);
  if (!api) return { status: 404, body: { code: 404, msg: `404 page not found: ${method} ${path}` } };
  const tool = (requireHere(join(packageDir(PKG), TOOLS, api.file)) as Record<string, Tool>)[api.name];
  const violations = [
    ...issues('query', tool?.schema.params, wireQuery(tool?.schema.params, query)),
    ...(body === undefined && !tool?.schema.data ? [] : issues('body', tool?.schema.data, body ?? {})),
  ];
  if (violations.length)
    return {
      status: 400,
      body: { code: 99992402, msg: 'field validation failed', error: { field_violations: violations } },
    };
  const over = oversized(api, body);
  return over ? { status: 400, body: { code: 230025, msg: over } } : undefined;
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

/** A message's content over Feishu's limit for its type (a card update is a card). */
function oversized(api: Api, body: Record<string, unknown> | undefined): string | undefined {
  if (typeof body?.content !== 'string' || !/\/im\/v1\/messages/.test(api.path)) return undefined;
  const type = typeof body.msg_type === 'string' ? body.msg_type : 'interactive';
  const limit = CONTENT_LIMIT[type];
  const size = Buffer.byteLength(body.content);
  return limit !== undefined && size > limit
    ? `message content too long: ${size} bytes, ${type} content is at most ${limit / 1024} KB`
    : undefined;
}
