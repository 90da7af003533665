import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentNode, GraphQLSchema, IntrospectionQuery } from 'graphql';
import type { getVariableValues as GetVariableValues } from 'graphql/execution/values.js';
import { packageDir, requireHere } from './contract-cache.ts';

/**
 * Issue 46 item 3: every GraphQL document the product sends to the test kit's GitHub is validated
 * against GitHub's published schema (`@octokit/graphql-schema`, the introspection its `validate()`
 * builds from) and its variables are coerced to the types the document declares. GitHub answers
 * such a document with HTTP 200 and `errors` (no `data`), and so does the fake. The schema is
 * built at the first GraphQL call in a process; each distinct document is validated once.
 */
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

/** Why a GraphQL request is off GitHub's schema (its error messages); empty when it is on it. */
export function graphqlErrors(query: string, variables: Record<string, unknown> = {}): string[] {
  const { doc, errors } = checked(query);
  if (!doc || errors.length) return errors;
  const op = gql().getOperationAST(doc);
  if (!op) return ['The document names no single operation to run'];
  const coerced = values().getVariableValues(githubSchema(), op.variableDefinitions ?? [], variables);
  return coerced.errors?.map((e) => e.message) ?? [];
}
