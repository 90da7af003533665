import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedExtract, packageDir, packageVersion, readJson } from './contract-cache.ts';

/**
 * A compact index of GitHub's REST description (`@octokit/openapi`, api.github.com): per
 * operation its method, path template, documentation page, path and query parameters (with their
 * schemas, and which query parameters are required) and whether it takes a JSON body. Each body schema, with its `$ref`s resolved and its
 * prose dropped, is a file of its own (`bodies/<operationId>.json`, `/` as `.`), read only when a test calls
 * that operation. Parsing the 13 MB description takes seconds; this runs once per machine.
 */
export interface RestOperation {
  id: string;
  method: string;
  path: string;
  doc: string;
  query: Record<string, JsonSchema>;
  /** The query parameters the operation requires (`q` of a search). */
  requiredQuery: string[];
  /** The schema of each `{name}` in the path (`issue_number` is an integer). */
  pathParams: Record<string, JsonSchema>;
  /** `required` / `optional` for a JSON body, absent when the operation takes none. */
  body?: 'required' | 'optional';
}
export type JsonSchema = Record<string, unknown>;

const PKG = '@octokit/openapi';
/** Bump when the extract's shape changes. */
const FORMAT = 2;
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head'];
/** Schema keywords that are prose, examples or Octokit's annotations: not part of what is checked. */
const PROSE = new Set(['description', 'example', 'examples', 'externalDocs', 'title', 'summary']);

interface Spec {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

/** The extract's folder: `index.json` and `bodies/`. */
export function restExtract(): string {
  return cachedExtract(`github-rest-${packageVersion(PKG)}-f${FORMAT}`, build);
}

function build(dir: string): void {
  const file = join(packageDir(PKG), 'generated/api.github.com.json');
  const spec = JSON.parse(readFileSync(file, 'utf8')) as Spec;
  const lookup = (ref: string): unknown =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key.replace(/~1/g, '/')], spec);
  const schema = (node: unknown, stack: string[] = []): unknown => {
    if (Array.isArray(node)) return node.map((n) => schema(n, stack));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string') {
      // A schema that contains itself (a tree of comments, say) is cut at the repeat: anything goes there.
      if (stack.includes(obj.$ref)) return {};
      return schema(lookup(obj.$ref), [...stack, obj.$ref]);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      if (PROSE.has(k) || k.startsWith('x-')) continue;
      out[k] =
        k === 'properties' && v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([name, s]) => [name, schema(s, stack)]))
          : schema(v, stack);
    }
    return out;
  };
  const deref = (node: unknown): Record<string, unknown> => {
    const obj = (node ?? {}) as Record<string, unknown>;
    return typeof obj.$ref === 'string' ? deref(lookup(obj.$ref)) : obj;
  };
  mkdirSync(join(dir, 'bodies'));
  const index: RestOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const id = String(op.operationId);
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(
        deref,
      );
      const of = (where: string) => params.filter((p) => p.in === where);
      const schemas = (list: Record<string, unknown>[]) =>
        Object.fromEntries(list.map((p) => [String(p.name), schema(p.schema) as JsonSchema]));
      const query = schemas(of('query'));
      const request = deref(op.requestBody);
      const content = request.content as Record<string, { schema?: unknown }> | undefined;
      const json = content?.['application/json']?.schema;
      if (json) writeFileSync(bodyFile(dir, id), JSON.stringify(schema(json)));
      const doc = String(
        (op.externalDocs as { url?: string } | undefined)?.url ?? 'https://docs.github.com/rest',
      );
      index.push({
        id,
        method: method.toUpperCase(),
        path,
        doc,
        query,
        requiredQuery: of('query')
          .filter((p) => p.required === true)
          .map((p) => String(p.name)),
        pathParams: schemas(of('path')),
        ...(json ? { body: request.required === true ? 'required' : 'optional' } : {}),
      });
    }
  }
  writeFileSync(join(dir, 'index.json'), JSON.stringify(index));
}

/** An operation's body schema file (operation ids hold `/`: `pulls/create`). */
export const bodyFile = (dir: string, id: string): string =>
  join(dir, 'bodies', `${id.replace(/\//g, '.')}.json`);

export const readRestIndex = (dir: string): RestOperation[] =>
  readJson<RestOperation[]>(join(dir, 'index.json'));
