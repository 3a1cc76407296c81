/**
 * Every regular expression in statusd's source, found by TypeScript's own parser: regex
 * literals, and `RegExp(…)` / `new RegExp(…)` whose pattern is a string literal, a template
 * without substitutions or `String.raw`. A `RegExp` built from a value is listed as dynamic, so
 * a test can insist each one is known and explained.
 * @module
 */
import ts from "typescript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** One regular expression in the source. */
export interface FoundRegex {
  /** `path:line` from the repository root. */
  readonly where: string;
  /** The pattern's source, or null when it is built from a value. */
  readonly source: string | null;
  readonly flags: string;
}

/** TypeScript and TSX files under `paths` (folders are walked), relative to `root`. */
export function sourceFiles(root: string, paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const full = join(root, p);
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) walk(join(p, name));
    } else if (/\.tsx?$/.test(p)) out.push(p);
  };
  for (const p of paths) walk(p);
  return out;
}

function literalText(node: ts.Node | undefined): string | null {
  if (node === undefined) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (
    ts.isTaggedTemplateExpression(node) &&
    node.tag.getText().replace(/\s+/g, "") === "String.raw" &&
    ts.isNoSubstitutionTemplateLiteral(node.template)
  ) {
    return node.template.rawText ?? node.template.text;
  }
  return null;
}

/** Every regular expression in `text` (the file at `path`). */
export function regexesOf(path: string, text: string): FoundRegex[] {
  const file = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: FoundRegex[] = [];
  const at = (n: ts.Node) =>
    `${path}:${file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1}`;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const t = node.getText(file);
      const end = t.lastIndexOf("/");
      found.push({ where: at(node), source: t.slice(1, end), flags: t.slice(end + 1) });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) && node.expression.text === "RegExp"
    ) {
      const [pattern, flags] = node.arguments ?? [];
      found.push({
        where: at(node),
        source: literalText(pattern),
        flags: flags === undefined ? "" : literalText(flags) ?? "",
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every regular expression in the files under `paths`. */
export function repositoryRegexes(root: string, paths: readonly string[]): FoundRegex[] {
  return sourceFiles(root, paths).flatMap((p) =>
    regexesOf(relative(root, join(root, p)), readFileSync(join(root, p), "utf8"))
  );
}
