import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits on a condition; its 1 s default was too short for the browser tests on a
    // loaded 2-core machine (an About dialog opened from the palette took longer in a fresh-clone run).
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    globalSetup: ['tests/setup/global.ts'],
  },
})
