import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

type LayerTable = Record<string, string[]>;

/** What dependency-cruiser enforces: each layer and the layers it may import, read from the config itself. */
function enforced(config: string): LayerTable {
  const { MAY_IMPORT } = require(path.join(ROOT, config)) as { MAY_IMPORT: LayerTable };
  return Object.fromEntries(Object.entries(MAY_IMPORT).map(([layer, below]) => [layer, [...below].sort()]));
}

/**
 * The table of docs/architecture.md whose header starts with `firstColumn`: a row names one or more layers in
 * backticks, then what they may import, comma-separated, each with an optional remark in parentheses
 * ("store (record types)"); "nothing of …" is the empty list.
 */
function documented(firstColumn: string): LayerTable {
  const lines = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith(`| ${firstColumn} | may import |`));
  expect(header, `a table headed "${firstColumn} | may import" in docs/architecture.md`).toBeGreaterThanOrEqual(0);
  const rows = lines.slice(header + 2);
  const table: LayerTable = {};
  for (const row of rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  )) {
    const [layers = '', mayImport = ''] = row.split('|').slice(1, -1);
    const below = /^\s*nothing\b/.test(mayImport)
      ? []
      : mayImport
          .replace(/\([^)]*\)/g, '')
          .split(',')
          .map((name) => name.trim())
          .sort();
    for (const [, layer] of layers.matchAll(/`([^`]+)`/g)) table[layer!] = below;
  }
  return table;
}

describe('docs/architecture.md says what the lint enforces', () => {
  it("the layer table of src/ is .dependency-cruiser.cjs's", () => {
    expect(documented('folder')).toEqual(enforced('.dependency-cruiser.cjs'));
  });

  it("the dashboard's layer table is .dependency-cruiser-web.cjs's", () => {
    expect(documented('dashboard folder')).toEqual(enforced('.dependency-cruiser-web.cjs'));
  });
});
