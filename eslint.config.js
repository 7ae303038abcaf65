// ESLint runs only the regex-safety rules; Biome does the rest of lint and format.
// Every regex in src/ may see hostile text (fetched bodies, headers, robots.txt, sitemaps,
// client strings), so none may backtrack or rescan super-linearly. And no `push(...items)`:
// a spread puts every item on the stack, and a page of a million siblings overflows it.
import tsParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';
import pith from './scripts/eslint/no-rescan.mjs';

export default [
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tsParser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp, pith },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: true, ignorePartial: false }],
      'pith/no-rescan': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='push'] > SpreadElement",
          message: 'push(...items) overflows the stack on large inputs: use pushAll (dom.ts) or a loop.',
        },
      ],
    },
  },
];
