import { createRequire } from 'node:module';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const require = createRequire(import.meta.url);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      eqeqeq: 'error',
      'no-console': 'off',
    },
  },
  // Tool configuration files that must be CommonJS.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...web(),
  ...layering(),
);

/**
 * The web apps: hooks called by the rules, effects that name what they read, TanStack Query's own rules, and the
 * type-checked rules that catch a promise nobody waits for (an unhandled rejection in a click handler).
 */
function web() {
  const apps = ['web/dashboard/src/**/*.{ts,tsx}', 'web/widget/src/**/*.ts'];
  return [
    {
      files: ['web/dashboard/src/**/*.{ts,tsx}'],
      plugins: { 'react-hooks': reactHooks },
      rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
    },
    ...pluginQuery.configs['flat/recommended'].map((config) => ({ ...config, files: ['web/dashboard/src/**/*.{ts,tsx}'] })),
    {
      files: apps,
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/no-misused-promises': 'error',
        '@typescript-eslint/await-thenable': 'error',
        '@typescript-eslint/no-unnecessary-type-assertion': 'error',
        '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      },
    },
  ];
}

/**
 * Layering (DESIGN §2, docs/architecture.md): imports point down only, as the dependency-cruiser tables say
 * (.dependency-cruiser.cjs for src/, .dependency-cruiser-web.cjs for the dashboard); eslint says so in the editor.
 * Besides, nothing below http/ knows Fastify and only store/ writes SQL.
 */
function layering() {
  const srcTable = require('./.dependency-cruiser.cjs').MAY_IMPORT;
  const http = { group: ['fastify', '@fastify/*'], message: 'Fastify lives in src/http only' };
  const sql = {
    group: ['kysely', 'pg', 'better-sqlite3', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**'],
    message: 'SQL lives in src/store only: import its ports',
  };
  const libraries = Object.fromEntries(
    Object.keys(srcTable).map((layer) => [layer, [...(layer === 'http' ? [] : [http]), ...(layer === 'store' ? [] : [sql])]]),
  );
  const restrict = (files, patterns) => ({ files: [files], rules: { 'no-restricted-imports': ['error', { patterns }] } });
  const layers = (root, table, groupOf, extra = {}) =>
    Object.entries(table).map(([layer, mayImport]) => {
      // Every layer of src/ reads the contract (the API's wire types); it reads nothing of ours.
      const below = Object.keys(table).filter((other) => other !== layer && other !== 'contract' && !mayImport.includes(other));
      const folders = below.map((other) => ({
        group: groupOf(other),
        message: `${root}${layer} may import only from ${[layer, ...mayImport, ...('contract' in table ? ['contract'] : [])].join(', ')} (docs/architecture.md)`,
      }));
      return restrict(layer === 'api' ? `${root}{api,server-sent-events}.ts` : `${root}${layer}/**`, [...(extra[layer] ?? []), ...folders]);
    });
  return [
    ...layers('src/', srcTable, (folder) => [`**/${folder}/**`], libraries),
    ...layers('web/dashboard/src/', require('./.dependency-cruiser-web.cjs').MAY_IMPORT, (folder) =>
      folder === 'api' ? ['**/api', '**/server-sent-events'] : [`**/${folder}/**`],
    ),
  ];
}
