// ESLint runs only the regex-safety rules; Biome does the rest of lint and format.
// Every regex in src/ may see hostile text (fetched bodies, headers, robots.txt, sitemaps,
// client strings), so none may backtrack or rescan super-linearly.
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
    },
  },
];
