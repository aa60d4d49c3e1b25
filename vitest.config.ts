import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources; CLI tests spawn the built dist/ (npm test builds first).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // In-process runs write their transcripts here, not into the developer's ~/.claude.
    env: { HOOKLOOP_HOME: path.join(os.tmpdir(), 'hookloop-test-home') },
  },
});
