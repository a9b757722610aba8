import { randomBytes } from 'node:crypto';
import type { InstanceSecretStore } from '../store/store.js';
import { now } from './ids.js';

/**
 * A 256-bit HMAC key kept in the store under `name`, made by the first process that needs it and shared by
 * every process after (so a token signed by one is accepted by all). Read once per process.
 */
export class SigningKey {
  #key: Promise<Uint8Array> | undefined;

  constructor(
    private readonly secrets: InstanceSecretStore,
    private readonly name: string,
  ) {}

  get(): Promise<Uint8Array> {
    this.#key ??= this.secrets
      .getOrCreate(this.name, randomBytes(32).toString('base64url'), now())
      .then((value) => new Uint8Array(Buffer.from(value, 'base64url')))
      .catch((error: unknown) => {
        // The store was unreachable: the next call tries again instead of failing for ever.
        this.#key = undefined;
        throw error;
      });
    return this.#key;
  }
}
