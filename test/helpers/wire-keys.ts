import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A wire-style key: lower-case words joined by underscores (`raw_html_size_kb`). */
export const SNAKE_KEY = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/**
 * Snake_case property names written in a source file, as `file:line key`: keys of object
 * literals (the wire shape being built), property signatures of interfaces and type literals
 * (a domain type declared in the wire's names) and property accesses (`metadata.site_name =`,
 * or a wire body read below http/). Skipped:
 *
 * - the extra fields of a `new ServiceError(code, message, {retry_after: …})`: the error
 *   envelope's fields, declared with the error registry (src/errors.ts, ErrorFields) that
 *   every layer raises errors through;
 * - names in `allowed` (`file` → names): external formats the code reads or writes as they are.
 */
export function snakeCaseKeys(file: string, source: string, allowed: ReadonlySet<string> = new Set()): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isServiceErrorFields(node)) return;
    const name = propertyName(node);
    if (name !== null && SNAKE_KEY.test(name) && !allowed.has(name)) {
      found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The written name of an object-literal property, a property signature or a property access; null for anything else. */
function propertyName(node: ts.Node): string | null {
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) return node.argumentExpression.text;
  const literalMember =
    (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) &&
    ts.isObjectLiteralExpression(node.parent);
  if (!literalMember && !ts.isPropertySignature(node)) return null;
  const name = (node as ts.PropertyAssignment | ts.PropertySignature).name;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return null;
}

/** An object literal given to `new ServiceError(…)` (its fields), at any depth of the argument. */
function isServiceErrorFields(node: ts.Node): boolean {
  if (!ts.isObjectLiteralExpression(node)) return false;
  let at: ts.Node = node;
  while (ts.isParenthesizedExpression(at.parent) || ts.isConditionalExpression(at.parent) || ts.isBinaryExpression(at.parent)) {
    at = at.parent;
  }
  const call = at.parent;
  return (
    ts.isNewExpression(call) &&
    ts.isIdentifier(call.expression) &&
    call.expression.text === 'ServiceError' &&
    (call.arguments ?? []).some((arg) => arg === at)
  );
}

/** snakeCaseKeys over every `.ts` file of `layers` under `root`; `allow` maps `layer/file.ts` to the names it may use. */
export function snakeCaseKeysIn(root: string, layers: readonly string[], allow: Readonly<Record<string, readonly string[]>>): string[] {
  const found: string[] = [];
  for (const layer of layers) {
    for (const entry of readdirSync(join(root, layer), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      const file = relative(root, path);
      found.push(...snakeCaseKeys(file, readFileSync(path, 'utf8'), new Set(allow[file] ?? [])));
    }
  }
  return found;
}
