import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  DocumentNode,
  FieldNode,
  GraphQLSchema,
  IntrospectionQuery,
  OperationDefinitionNode,
} from 'graphql';
import type { getVariableValues as GetVariableValues } from 'graphql/execution/values.js';
import { packageDir, requireHere } from './contract-cache.ts';

/**
 * Issue 46 item 3: every GraphQL document the product sends to the test kit's GitHub is validated
 * against GitHub's published schema (`@octokit/graphql-schema`, the introspection its `validate()`
 * builds from) and its variables are coerced to the types the document declares. GitHub answers
 * such a document with HTTP 200 and `errors` (no `data`), and so does the fake. Every connection
 * is held to GitHub's pagination limits (docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api):
 * `first` / `last` at most 100 and not below zero, and one of them given wherever `nodes` or `edges`
 * are asked for; off them GitHub answers 200 with `data: null` and typed errors, and so does the
 * fake. The schema is built at the first GraphQL call in a process; each distinct document is
 * validated once.
 */
export interface GraphqlError {
  message: string;
  /** GitHub's error type, for a query that validates but breaks a limit (`EXCESSIVE_PAGINATION`). */
  type?: string;
  path?: string[];
  locations?: { line: number; column: number }[];
}

let schema: GraphQLSchema | undefined;
/** `graphql` loads at the first GraphQL call: most test processes never make one. */
const gql = () => requireHere('graphql') as typeof import('graphql');
const values = () =>
  requireHere('graphql/execution/values.js') as { getVariableValues: typeof GetVariableValues };
const documents = new Map<string, { doc?: DocumentNode; errors: string[] }>();

function githubSchema(): GraphQLSchema {
  schema ??= gql().buildClientSchema(
    JSON.parse(
      readFileSync(join(packageDir('@octokit/graphql-schema'), 'schema.json'), 'utf8'),
    ) as IntrospectionQuery,
  );
  return schema;
}

function checked(query: string): { doc?: DocumentNode; errors: string[] } {
  const known = documents.get(query);
  if (known) return known;
  let out: { doc?: DocumentNode; errors: string[] };
  try {
    const doc = gql().parse(query);
    out = {
      doc,
      errors: gql()
        .validate(githubSchema(), doc)
        .map((e) => e.message),
    };
  } catch (err) {
    out = { errors: [(err as Error).message] };
  }
  documents.set(query, out);
  return out;
}

/**
 * Why a GraphQL request is off GitHub's schema or limits, as GitHub's `errors`; empty when it is on
 * them. Errors with a `type` are the limits' (GitHub answers them with `data: null`).
 */
export function graphqlErrors(query: string, variables: Record<string, unknown> = {}): GraphqlError[] {
  const { doc, errors } = checked(query);
  if (!doc || errors.length) return errors.map((message) => ({ message }));
  const op = gql().getOperationAST(doc);
  if (!op) return [{ message: 'The document names no single operation to run' }];
  const coerced = values().getVariableValues(githubSchema(), op.variableDefinitions ?? [], variables);
  if ('errors' in coerced) return coerced.errors.map((e) => ({ message: e.message }));
  return paginationErrors(doc, op, coerced.coerced);
}

/** Each connection field's `first` / `last` against GitHub's limits, with the variables' values. */
function paginationErrors(
  doc: DocumentNode,
  op: OperationDefinitionNode,
  vars: Record<string, unknown>,
): GraphqlError[] {
  const g = gql();
  const info = new g.TypeInfo(githubSchema());
  const out: GraphqlError[] = [];
  const path: string[] = [];
  let inFragment = false;
  const check = (node: FieldNode) => {
    const def = info.getFieldDef();
    if (!def || !g.getNamedType(def.type).name.endsWith('Connection')) return;
    const arg = (name: 'first' | 'last') => {
      const given = node.arguments?.find((a) => a.name.value === name);
      const type = def.args.find((a) => a.name === name)?.type;
      const v = given && type ? g.valueFromAST(given.value, type, vars) : undefined;
      return typeof v === 'number' ? v : undefined;
    };
    const at = {
      ...(inFragment ? {} : { path: [...path] }),
      locations: node.loc ? [g.getLocation(node.loc.source, node.loc.start)] : [],
    };
    const connection = node.name.value;
    const bounds = { first: arg('first'), last: arg('last') };
    for (const [name, n] of Object.entries(bounds)) {
      if (n === undefined) continue;
      if (n < 0)
        out.push({
          type: 'INVALID_PAGINATION',
          ...at,
          message: `\`${name}\` on the connection cannot be less than zero.`,
        });
      else if (n > 100)
        out.push({
          type: 'EXCESSIVE_PAGINATION',
          ...at,
          message: `Requesting ${n} records on the \`${connection}\` connection exceeds the \`${name}\` limit of 100 records.`,
        });
    }
    const listed = node.selectionSet?.selections.some(
      (s) => s.kind === g.Kind.FIELD && (s.name.value === 'nodes' || s.name.value === 'edges'),
    );
    if (listed && bounds.first === undefined && bounds.last === undefined)
      out.push({
        type: 'MISSING_PAGINATION_BOUNDARIES',
        ...at,
        message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${connection}\` connection.`,
      });
  };
  const used = doc.definitions.filter((d) => d === op || d.kind === g.Kind.FRAGMENT_DEFINITION);
  g.visit(
    { kind: g.Kind.DOCUMENT, definitions: used },
    g.visitWithTypeInfo(info, {
      FragmentDefinition: {
        enter: () => {
          inFragment = true;
        },
        leave: () => {
          inFragment = false;
        },
      },
      Field: {
        enter(node) {
          path.push(node.alias?.value ?? node.name.value);
          check(node);
        },
        leave: () => {
          path.pop();
        },
      },
    }),
  );
  return out;
}
