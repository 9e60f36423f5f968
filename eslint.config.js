import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.seatflow/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly', performance: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/core/config.ts reads process.env.' }],
    },
  },
  {
    // A refused write (READONLY, NOREPLICAS) is sent again by the connection (refused-write.ts): a command queued in a
    // MULTI would be sent again outside its transaction. Writes that go together are one Lua script instead.
    files: ['src/**'],
    rules: { 'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='multi']", message: 'Write keys together with writeTogether (src/queue/redis/write-together.ts) or a luaScript, not MULTI: a refused write is sent again outside its transaction.' }] },
  },
  {
    files: ['src/core/config.ts', 'test/**', 'bench/**', 'bin/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
