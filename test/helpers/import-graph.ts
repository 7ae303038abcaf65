import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** File (relative to the source root, e.g. `ops/read.ts`) → what it imports: other files, or package names. */
export type ImportGraph = Map<string, Array<{ file: string } | { pkg: string }>>;

/** Every import of every `.ts` file under `root`: static, re-exports, type-only and dynamic `import()` alike. */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const imports = ts
      .preProcessFile(readFileSync(path, 'utf8'), true, true)
      .importedFiles.map(({ fileName }) =>
        fileName.startsWith('.')
          ? { file: relative(root, resolve(dirname(path), fileName)).replace(/\.js$/, '.ts') }
          : { pkg: fileName.startsWith('@') ? fileName.split('/').slice(0, 2).join('/') : (fileName.split('/')[0] ?? fileName) },
      );
    graph.set(relative(root, path), imports);
  }
  return graph;
}

/** The layer of a file: its top folder under the source root (`ops/read.ts` → `ops`), or its name (`errors.ts` → `errors`). */
export const layerOf = (file: string): string => (file.split('/')[0] ?? file).replace(/\.ts$/, '');

/**
 * A layer rule: files of `layer` may not import the layers in `notLayers`, or only those in
 * `onlyLayers` (its own layer always allowed), and none of the packages in `notPackages`
 * (`@scope` covers the whole scope).
 */
export interface LayerRule {
  layer: string;
  why: string;
  notLayers?: string[];
  onlyLayers?: string[];
  notPackages?: string[];
}

export function layerViolations(graph: ImportGraph, rules: LayerRule[]): string[] {
  const out: string[] = [];
  for (const [file, imports] of graph) {
    for (const rule of rules.filter((r) => r.layer === layerOf(file))) {
      for (const imp of imports) {
        const bad =
          'pkg' in imp
            ? rule.notPackages?.some((p) => imp.pkg === p || imp.pkg.startsWith(`${p}/`))
            : layerOf(imp.file) !== rule.layer &&
              (rule.notLayers?.includes(layerOf(imp.file)) || (rule.onlyLayers && !rule.onlyLayers.includes(layerOf(imp.file))));
        if (bad) out.push(`${file} imports ${'pkg' in imp ? imp.pkg : imp.file}: ${rule.why}`);
      }
    }
  }
  return out;
}

/** Every import cycle between files, as `a.ts → b.ts → a.ts` (Tarjan's strongly connected components). */
export function importCycles(graph: ImportGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const imp of graph.get(file) ?? []) {
      if (!('file' in imp) || !graph.has(imp.file)) continue;
      if (!index.has(imp.file)) visit(imp.file);
      if (onStack.has(imp.file)) low.set(file, Math.min(low.get(file)!, low.get(imp.file)!, index.get(imp.file)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let top: string | undefined;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      component.push(top);
    } while (top !== file);
    const selfImport = graph.get(file)?.some((imp) => 'file' in imp && imp.file === file);
    if (component.length > 1 || selfImport) cycles.push([...component.reverse(), component[0]].join(' → '));
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles;
}
