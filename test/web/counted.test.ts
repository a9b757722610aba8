import { describe, expect, it } from 'vitest';
import { counted } from '../../web/dashboard/src/components/counted.js';

describe('a count with its noun', () => {
  it('is singular for one and plural otherwise, with the thousands grouped', () => {
    expect(counted(1, 'chunk')).toBe('1 chunk');
    expect(counted(0, 'chunk')).toBe('0 chunks');
    expect(counted(1204, 'chunk')).toBe('1,204 chunks');
    expect(counted(2, 'person', 'people')).toBe('2 people');
  });
});
