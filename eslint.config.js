// Lint rules the project relies on: no console outside src/cli (stdout of `mcp` is the protocol channel).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.dist-*/**', 'node_modules/**', 'coverage/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The studio page and the preview player's view run in the browser: its globals, and no Node ones.
    files: ['src/studio/ui/**', 'src/player/view/**', 'test/e2e/player-host/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/cli/**', 'src/cli.ts', 'bench/**', 'test/**', 'scripts/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
);
