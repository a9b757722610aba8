import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The dashboard is served by Parley under /dashboard/; its build lands in dist/web/dashboard. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/web/dashboard'),
    emptyOutDir: true,
    // No inline scripts or styles: the page runs under a CSP of 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
