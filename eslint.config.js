// Lint config: the recommended JS and type-aware TypeScript rules; generated and fixture files are ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/fixtures/**', 'coverage/**', 'examples/demo/project/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // Node's recursive mkdir never returns on some filesystems (procfs); src/files/make-directory.ts is bounded.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^mkdir(Sync)?$/] > ObjectExpression > Property[key.name='recursive'][value.value=true]",
          message:
            'Use makeDirectory/makeDirectorySync from src/files/make-directory.ts: recursive mkdir can loop forever.',
        },
      ],
    },
  },
);
