import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** Lints `code` as if it were a file under src/, with the repository's ESLint config. */
async function ruleIds(code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath: 'src/convert/planted.ts' });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('the regex lint step (npm run lint) catches planted super-linear regexes', () => {
  it.each([
    ['exponential backtracking', 'export const r = /^(a+)+$/;', 'regexp/no-super-linear-backtracking'],
    ['the old ATX title regex (cubic)', 'export const r = /^#\\s+(.+?)\\s*#*\\s*$/m;', 'regexp/no-super-linear-backtracking'],
    ['trailing-space trim (quadratic move)', "export const f = (s: string) => s.replace(/\\s+$/, '');", 'regexp/no-super-linear-move'],
    [
      'the old sitemap <url> block regex',
      'export const r = /<(?:[\\w-]+:)?url\\b[^>]*>([\\s\\S]*?)<\\/(?:[\\w-]+:)?url>/g;',
      'pith/no-rescan',
    ],
    ['the old DTD-subset regex', 'export const r = /<!DOCTYPE[^[>]*\\[[\\s\\S]*?\\]\\s*>/i;', 'pith/no-rescan'],
    [
      'the old firewall-body regex',
      "export const r = /You don't have permission to access[\\s\\S]*Reference\\s*#\\d+/i;",
      'pith/no-rescan',
    ],
    ['a RegExp built from a variable', 'export const f = (s: string) => new RegExp(s);', 'pith/no-rescan'],
  ])('%s', async (_name, code, rule) => {
    expect(await ruleIds(code)).toContain(rule);
  });

  it.each([
    ['a sticky scanner', 'export const r = /<!--[\\s\\S]*?-->/y;'],
    ['an anchored single attempt', 'export const r = /^---\\n([\\s\\S]*?)\\n---\\n/;'],
    ['a stop set that excludes the opener', 'export const r = /<a\\b[^<>]*>/g;'],
    ['a quoted attribute value', 'export const r = /\\bsrc\\s*=\\s*"([^"]*)"/g;'],
    ['a run that starts only where the run begins', "export const f = (s: string) => s.replace(/(?<! ) {2,}\\|/g, ' |');"],
    ['a literal RegExp source', "export const r = new RegExp('^a+$');"],
  ])('lets %s pass', async (_name, code) => {
    expect(await ruleIds(code)).toEqual([]);
  });
});
