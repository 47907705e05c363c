// ESLint over src/, test/, bench/ and scripts/: typescript-eslint's recommended rules; functions over 80 lines warned in src/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setImmediate',
    'clearImmediate',
    'setInterval',
    'clearInterval',
    'TextDecoder',
    'TextEncoder',
    'AbortController',
    'AbortSignal',
    'fetch',
    'Response',
    'Request',
    'Headers',
    'performance',
    'queueMicrotask',
    'structuredClone',
    'globalThis',
    'Blob',
    'FormData',
    'crypto',
    'atob',
    'btoa',
    'WebAssembly',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'src/json/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: nodeGlobals },
    rules: {
      // Control characters are what visible.ts, the terminal and the log readers look for on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests, the bench and the scripts: loose results of JSON and regexes written as the output looks.
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-regex-spaces': 'off',
      'preserve-caught-error': 'off',
      'no-useless-escape': 'off',
    },
  },
  {
    // Functions evaluated in the page by puppeteer run in the browser.
    files: ['scripts/browser.mjs', 'scripts/screenshots.mjs'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', requestAnimationFrame: 'readonly' } },
  },
  {
    // The allow-list: one switch over the pickle opcodes and one scanner over JSON tokens read best whole.
    files: ['src/parsers/allocator-snapshot/pickle-reader.ts', 'src/json/reader.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
);
