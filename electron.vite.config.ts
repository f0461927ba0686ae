import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import { secretsSourceHash } from './src/main/catalog/summary-mask'
import { readersSourceHash } from './src/main/catalog/reader-key'

// Three processes, three builds (electron-vite). The renderer build is also what browser mode
// serves over loopback HTTP, so it must work from any origin path (base './').
export default defineConfig({
  main: {
    // The masked summaries the catalog keeps are valid for this masking code only (src/main/catalog/summary-mask.ts).
    // The catalog's rows are readings of this reading code (src/main/catalog/reader-key.ts): other code reads them again.
    define: {
      __SEPIA_SECRETS_HASH__: JSON.stringify(secretsSourceHash(resolve(__dirname, 'src/main/secrets'))),
      __SEPIA_READERS_HASH__: JSON.stringify(readersSourceHash(resolve(__dirname, 'src'))),
    },
    build: {
      rollupOptions: {
        // The catalog's indexing worker (worker_threads) is an entry of its own: out/main/catalog-worker.js.
        // So are the CLI's early freshness check (bin/sepia.mjs imports it before cli.js) and its worker,
        // and the CLI's compile cache switch (bin/sepia.mjs imports it first, on a Node that has the call).
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'catalog-worker': resolve(__dirname, 'src/main/catalog/worker.ts'),
          cli: resolve(__dirname, 'src/cli/index.ts'),
          'early-freshness': resolve(__dirname, 'src/main/catalog/early-freshness.ts'),
          'early-freshness-worker': resolve(__dirname, 'src/main/catalog/early-freshness-worker.ts'),
          'compile-cache': resolve(__dirname, 'src/cli/compile-cache.ts'),
        },
        external: ['better-sqlite3', 'electron'],
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    base: './',
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [vue()],
    // vue-i18n's feature flags (its esm-bundler build asks for them): Composition API only, no
    // devtools hook; messages are compiled at run time from the JSON files (no eval: JIT to functions).
    define: {
      __VUE_I18N_FULL_INSTALL__: true,
      __VUE_I18N_LEGACY_API__: false,
      __INTLIFY_PROD_DEVTOOLS__: false,
      __INTLIFY_DROP_MESSAGE_COMPILER__: false,
    },
  },
})
