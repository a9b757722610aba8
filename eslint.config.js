import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  ...layering(),
);

/** Layering (DESIGN §2): imports point down only; nothing below http/ knows Fastify, only store/ writes SQL. */
function layering() {
  const http = { group: ['fastify', '@fastify/*', '**/http/**'], message: 'http/ sits above this layer' };
  const sql = {
    group: ['kysely', 'pg', 'better-sqlite3', '**/store/sql/**', '**/store/sqlite/**', '**/store/postgres/**'],
    message: 'SQL lives in src/store only',
  };
  const domain = { group: ['**/domain/**'], message: 'domain/ sits above this layer: map to its errors where the domain calls in' };
  const restrict = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
  return [
    restrict(['src/domain/**'], [http, sql]),
    restrict(['src/llm/**'], [http, sql, domain]),
    restrict(['src/store/**'], [http]),
    restrict(['src/http/**'], [sql]),
  ];
}
