import ts from 'typescript';
import type { RedisUse } from './find-redis-uses.ts';

/** `JSON.parse(…)`, looked through parentheses. */
function isJsonParse(node: ts.Expression): boolean {
  let e = node;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return (
    ts.isCallExpression(e) &&
    ts.isPropertyAccessExpression(e.expression) &&
    ts.isIdentifier(e.expression.expression) &&
    e.expression.expression.text === 'JSON' &&
    e.expression.name.text === 'parse'
  );
}

/**
 * Issue 20: where a file casts parsed JSON to a type (`JSON.parse(x) as T`, `<T>JSON.parse(x)`)
 * instead of checking it with the record's zod schema. Parsed, not grepped: text in strings and
 * comments does not count.
 */
export function findCastParses(fileName: string, source: string): RedisUse[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: RedisUse[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && isJsonParse(node.expression)) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      found.push({ line: line + 1, text: (sf.text.split('\n')[line] ?? '').trim() });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
