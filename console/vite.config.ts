import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Where the gateway serves the console from (its default GATEWAY_CONSOLE_DIR). */
const outputDirectory = fileURLToPath(new URL('../dist/console', import.meta.url));

/** The gateway `npm run dev` talks to; the dev server forwards /api and /v1 there, so the browser sees one origin. */
const gatewayUrl = process.env.GATEWAY_DEV_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: outputDirectory, emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': gatewayUrl, '/v1': gatewayUrl } },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup-tests.ts'],
    testTimeout: 20_000,
  },
});
