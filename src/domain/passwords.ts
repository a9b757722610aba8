import argon2 from 'argon2';
import { MIN_PASSWORD_LENGTH } from '../contract/auth.js';
import { invalid } from '../errors.js';

/**
 * Argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): ~20 ms a hash on this kind
 * of machine, cheap enough for sign-ins, costly enough for a stolen table.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A hash to check wrong e-mails against, so an unknown address takes as long as a wrong password. */
const DECOY = argon2.hash('a decoy password nobody has', OPTIONS);

export function checkPasswordRules(password: string, field = 'password'): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw invalid(`Passwords have at least ${MIN_PASSWORD_LENGTH} characters`, [
      { field, message: `must have at least ${MIN_PASSWORD_LENGTH} characters` },
    ]);
  }
}

export async function hashPassword(password: string): Promise<string> {
  checkPasswordRules(password);
  return argon2.hash(password, OPTIONS);
}

/** Whether `password` matches `hash` (argon2's comparison is constant-time); a null hash never matches. */
export async function passwordMatches(hash: string | null, password: string): Promise<boolean> {
  const checked = await argon2.verify(hash ?? (await DECOY), password).catch(() => false);
  return hash !== null && checked;
}
