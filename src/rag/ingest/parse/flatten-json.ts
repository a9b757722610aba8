/**
 * JSON as readable lines: every leaf becomes "path.to.key: value", arrays of plain values one line
 * ("tags: red, green"), and each record of an array of objects its own block, so that a chunk boundary
 * falls between records rather than inside one.
 */
export function flattenJson(value: unknown): string[] {
  const blocks: string[][] = [[]];
  visit(value, '', blocks);
  return blocks.map((lines) => lines.join('\n')).filter(Boolean);
}

function visit(value: unknown, path: string, blocks: string[][]): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) return visitArray(value, path, blocks);
  if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) visit(child, path ? `${path}.${key}` : key, blocks);
    return;
  }
  blocks.at(-1)?.push(path ? `${path}: ${String(value)}` : String(value));
}

function visitArray(values: readonly unknown[], path: string, blocks: string[][]): void {
  if (values.every((item) => item === null || typeof item !== 'object')) {
    const items = values.filter((item) => item !== null && item !== '').map(String);
    if (items.length > 0) blocks.at(-1)?.push(path ? `${path}: ${items.join(', ')}` : items.join(', '));
    return;
  }
  for (const item of values) {
    blocks.push([]);
    visit(item, path, blocks);
    blocks.push([]);
  }
}
