import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { InstanceSecretStore } from '../ports/instance-secret-store.js';

export class SqlInstanceSecretStore implements InstanceSecretStore {
  constructor(private readonly db: Kysely<Database>) {}

  async getOrCreate(name: string, candidate: string, at: string): Promise<string> {
    // Processes starting together may both insert: the one that lands first is the secret for all.
    await this.db
      .insertInto('instance_secret')
      .values({ name, value: candidate, created_at: at })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('instance_secret').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
}
