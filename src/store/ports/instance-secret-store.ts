/** Secrets of the Parley instance, such as the key that signs visitor tokens. */

/** Secrets every process on this store shares; not workspace data, so no workspace id. */
export interface InstanceSecretStore {
  /** The secret named `name`; `candidate` becomes it when none exists yet (the first writer wins). */
  getOrCreate(name: string, candidate: string, at: string): Promise<string>;
}
