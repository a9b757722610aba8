import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ParleyError } from '../errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * Seals secrets a workspace gives Parley (model providers' API keys) with AES-256-GCM under the instance's
 * secret key, which is kept outside the database. A sealed value reads `v1.<key id>.<iv>.<tag>.<ciphertext>`
 * (base64url): the key id tells a value sealed under another key (a changed PARLEY_SECRET_KEY, a lost
 * `secret.key`) from a damaged one. `context` (the owner's ids) is authenticated with it, so a sealed value
 * copied into another row does not open.
 */
export class SecretBox {
  readonly #key: Buffer;
  readonly #keyId: string;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
    this.#key = Buffer.from(key);
    this.#keyId = createHash('sha256').update('parley secret key id').update(this.#key).digest('base64url').slice(0, 11);
  }

  seal(secret: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, this.#keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Whether `sealed` was sealed under this box's key (it may still fail to open if damaged). */
  canOpen(sealed: string): boolean {
    return sealed.split('.')[1] === this.#keyId;
  }

  /** The secret; throws `SECRET_KEY_MISMATCH` when it was sealed under another key, or damaged, or for another owner. */
  open(sealed: string, context: string): string {
    const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || keyId !== this.#keyId || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new ParleyError('SECRET_KEY_MISMATCH');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new ParleyError('SECRET_KEY_MISMATCH', undefined, { cause: error });
    }
  }
}
