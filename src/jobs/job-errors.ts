/** A failure that another attempt cannot fix (a corrupt file, a refused URL): the job fails at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/** The work was overtaken (deleted, re-synced) and must simply stop; not a failure. */
export class SupersededError extends Error {
  override readonly name = 'SupersededError';
}
