// ESLint flat config: ESLint's and typescript-eslint's recommended rules, syntax-only (not the
// type-checked sets, which build a TypeScript program and would make `npm run lint` several times
// slower). Layout is Prettier's job (.prettierrc.json); no rule here is about formatting.
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig(
  // .gitignore'd output and scratch directories.
  // .stryker-tmp holds npm run mutate's sandboxes: copies of the tree, mutants included.
  { ignores: ['dist/', 'data/', 'test/artifacts/', '.build-*/', '.stryker-tmp/', 'reports/'] },
  // An eslint-disable comment that no longer suppresses anything is itself an error.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a binding as deliberately unused: `for (const _ of rows)`, or
      // `const { secret: _secret, ...rest } = rec` to drop a field before storing or sending.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The one plain-JavaScript file, gateway/ui/build.mjs (and this one), run under Node.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
)
