import ts from 'typescript';

/** One place a source file touches the Redis connection. */
export interface RedisUse {
  line: number;
  text: string;
}

/**
 * Issue 20: where a file touches the app's Redis connection. Parsed, not grepped, so Lua text
 * (`redis.call(...)` inside a string), comments and `Pick<Ctx, 'redis'>` do not count, while every
 * way of reaching the connection does: `ctx.redis`, `deps.redis`, `const { redis } = ctx`,
 * `ctx['redis']`, and any import from `ioredis`.
 */
export function findRedisUses(fileName: string, source: string): RedisUse[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const uses: RedisUse[] = [];
  const add = (node: ts.Node) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    uses.push({ line: line + 1, text: (sf.text.split('\n')[line] ?? '').trim() });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && (node.text === 'redis' || node.text === 'Redis')) add(node);
    else if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'redis'
    )
      add(node);
    else if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === 'ioredis'
    )
      add(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // One report per line is enough to find it.
  return uses.filter((u, i) => uses.findIndex((v) => v.line === u.line) === i);
}
