import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS, ParleyError, type ErrorCode } from '../src/errors.js';

describe('the error catalogue', () => {
  it('is what the README documents, code by code, with each status', () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
    for (const [code, { status }] of Object.entries(ERRORS)) {
      expect(readme).toMatch(new RegExp(`\\| \`${code}\` \\| ${status}[ ,]`));
    }
  });

  it('gives every error its status, retryability and default message from the catalogue', () => {
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      const error = new ParleyError(code);
      expect(error.status).toBe(ERRORS[code].status);
      expect(error.retryable).toBe(ERRORS[code].retryable);
      expect(error.message).toBe(ERRORS[code].message);
      expect(ParleyError.isInstance(error)).toBe(true);
    }
    expect(ParleyError.isInstance(new Error('x'))).toBe(false);
  });
});
