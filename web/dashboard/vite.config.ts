import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The dashboard is served by Parley under /dashboard/; its build lands in dist/web/dashboard. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  resolve: {
    // Radix's scroll lock adds its styles in a <style> element, which the CSP refuses: these go in an adopted sheet.
    alias: { 'react-style-singleton': path.resolve(import.meta.dirname, 'src/components/adopted-style-singleton.ts') },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/web/dashboard'),
    emptyOutDir: true,
    // No inline scripts or styles: the page runs under a CSP of 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
