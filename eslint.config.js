// ESLint, type-aware: the rules a machine checks so review does not have to (DESIGN.md §9 and §10).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'console/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'data/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits turns its failure into an unhandled rejection, which ends the process (issue 37).
      '@typescript-eslint/no-floating-promises': 'error',
      // An async callback where the caller ignores the result (a listener, an interval) loses its rejection the same way.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'no-debugger': 'error',
    },
  },
  {
    // Product code has no `any`; tests read loosely typed JSON answers and may.
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['src/storage/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
);
