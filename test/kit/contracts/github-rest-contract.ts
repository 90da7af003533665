import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { readJson, requireHere } from './contract-cache.ts';
import {
  bodyFile,
  type JsonSchema,
  type RestOperation,
  readRestIndex,
  restExtract,
} from './github-rest-extract.ts';

/**
 * Issue 46 item 3: every REST call the product makes to the test kit's GitHub is held against
 * GitHub's published description (`@octokit/openapi`) before the fake answers it. Off the
 * contract, the fake answers as GitHub does: an unknown route (or method) is 404 `Not Found`, a
 * query parameter the operation lacks or a body its schema refuses is 422 `Validation Failed` with
 * `errors`, each with GitHub's `documentation_url`. The index loads at the first call in a
 * process (Ajv with it); each operation's validator is compiled at its first call and kept.
 */
export interface RestRefusal {
  status: 404 | 422;
  body: { message: string; documentation_url: string; errors?: unknown[] };
}

/**
 * What the fake serves that the REST description lacks, each with its documentation page. Git's
 * smart HTTP and the App registration page are served before the check; they are named here so
 * the list says everything the fake answers off the description.
 */
export const REST_ALLOWED: { method: string; path: RegExp; doc: string }[] = [
  {
    method: 'POST',
    path: /^\/graphql$/,
    doc: 'https://docs.github.com/graphql (checked by graphql-contract.ts)',
  },
  { method: 'GET', path: /^\/git\/.+\/info\/refs$/, doc: 'https://git-scm.com/docs/http-protocol' },
  {
    method: 'POST',
    path: /^\/git\/.+\/git-(upload|receive)-pack$/,
    doc: 'https://git-scm.com/docs/http-protocol',
  },
  {
    method: 'POST',
    path: /^\/(organizations\/[^/]+\/)?settings\/apps\/new$/,
    doc: 'https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest',
  },
];

interface Route {
  op: RestOperation;
  re: RegExp;
  /** The path's `{name}`s, in the order `re` captures them. */
  names: string[];
  /** Characters outside `{…}`: the more, the more specific (`/issues/comments` over `/issues/{n}`). */
  literal: number;
}

let routes: Route[] | undefined;
let extractDir = '';
const validators = new Map<string, ValidateFunction>();
const queryValidators = new Map<string, ValidateFunction>();
const pathValidators = new Map<string, ValidateFunction>();
let ajv: Ajv | undefined;
let coercing: Ajv | undefined;

function loadRoutes(): Route[] {
  if (routes) return routes;
  extractDir = restExtract();
  routes = readRestIndex(extractDir).map((op) => {
    const names: string[] = [];
    const pattern = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      // A file path or a git ref may span segments (`contents/{path}`, `git/ref/{ref}`).
      return name === 'path' || name === 'ref' ? '(.+)' : '([^/]+)';
    });
    return { op, re: new RegExp(`^${pattern}$`), names, literal: op.path.replace(/\{\w+\}/g, '').length };
  });
  return routes;
}

/**
 * The operation a request is, by GitHub's description; undefined when it has none. A path whose
 * parameters are off their schemas (`/issues/abc` for an integer `issue_number`) is no route of
 * GitHub's: its router answers it 404 Not Found, as it does an unknown path.
 */
export function restOperation(method: string, path: string): RestOperation | undefined {
  let best: Route | undefined;
  for (const r of loadRoutes()) {
    const m = r.op.method === method ? r.re.exec(path) : null;
    if (m && (!best || r.literal > best.literal) && pathFits(r, m)) best = r;
  }
  return best?.op;
}

function pathFits(r: Route, m: RegExpExecArray): boolean {
  let v = pathValidators.get(r.op.id);
  if (!v) {
    coercing ??= newAjv(true);
    v = coercing.compile({ type: 'object', properties: r.op.pathParams, required: r.names });
    pathValidators.set(r.op.id, v);
  }
  const values: Record<string, string> = {};
  for (const [i, name] of r.names.entries()) {
    try {
      values[name] = decodeURIComponent(m[i + 1] ?? '');
    } catch {
      return false;
    }
  }
  return v(values);
}

const NOT_FOUND: RestRefusal = {
  status: 404,
  body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
};

/** Why a REST call is off GitHub's contract, as GitHub would answer it; undefined when it is on it. */
export function restRefusal(
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): RestRefusal | undefined {
  if (REST_ALLOWED.some((a) => a.method === method && a.path.test(path))) return undefined;
  const op = restOperation(method, path);
  if (!op) return NOT_FOUND;
  const unknown = [...new Set(query.keys())].filter((k) => !Object.hasOwn(op.query, k));
  if (unknown.length)
    return invalid(
      op,
      unknown.map((field) => ({
        resource: op.id,
        field,
        code: 'invalid',
        message: `${field} is not a parameter`,
      })),
    );
  // GitHub's answer to a search without `q`: `{resource, field: 'q', code: 'missing'}`.
  const missing = op.requiredQuery.filter((k) => !query.has(k));
  if (missing.length)
    return invalid(
      op,
      missing.map((field) => ({ resource: op.id, field, code: 'missing', message: `${field} is required` })),
    );
  const q = queryValidator(op);
  const values = Object.fromEntries(query.entries());
  if (!q(values)) return invalid(op, errorsOf(op, q.errors));
  if (!op.body) return undefined;
  if (body === undefined && op.body === 'optional') return undefined;
  const v = bodyValidator(op);
  return v(body ?? {}) ? undefined : invalid(op, errorsOf(op, v.errors));
}

const invalid = (op: RestOperation, errors: unknown[]): RestRefusal => ({
  status: 422,
  body: { message: 'Validation Failed', errors, documentation_url: op.doc },
});

const errorsOf = (op: RestOperation, errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => ({
    resource: op.id,
    field: e.instancePath.replace(/^\//, '').replace(/\//g, '.') || String(e.params.missingProperty ?? ''),
    code: e.keyword === 'required' ? 'missing_field' : 'invalid',
    message: `${e.instancePath || 'body'} ${e.message ?? 'is invalid'}`,
  }));

/** OpenAPI 3.0's `nullable` is Ajv's; formats (GitHub's own, `repo.nwo`…) are not checked. */
const newAjv = (coerceTypes: boolean): Ajv =>
  new (requireHere('ajv') as typeof import('ajv')).Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    coerceTypes,
  });

function bodyValidator(op: RestOperation): ValidateFunction {
  const known = validators.get(op.id);
  if (known) return known;
  ajv ??= newAjv(false);
  const v = ajv.compile(readJson<JsonSchema>(bodyFile(extractDir, op.id)));
  validators.set(op.id, v);
  return v;
}

/** Query values are strings: `per_page=100` is checked as the integer it says. */
function queryValidator(op: RestOperation): ValidateFunction {
  const known = queryValidators.get(op.id);
  if (known) return known;
  coercing ??= newAjv(true);
  const v = coercing.compile({ type: 'object', properties: op.query });
  queryValidators.set(op.id, v);
  return v;
}
