import type { Kysely, Selectable } from 'kysely';
import type { ContactTable, Database, VisitorTable } from '../schema.js';
import type { ContactFields, ContactRecord, ParticipantStore, VisitorRecord } from '../ports/participant-store.js';

const toVisitor = (row: Selectable<VisitorTable>): VisitorRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  contactId: row.contact_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toContact = (row: Selectable<ContactTable>): ContactRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  phoneNumber: row.phone_number,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class SqlParticipantStore implements ParticipantStore {
  constructor(private readonly db: Kysely<Database>) {}

  async ensureVisitor(workspaceId: string, id: string, contactId: string | null, at: string): Promise<VisitorRecord> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('visitor')
        .values({ id, workspace_id: workspaceId, contact_id: contactId, created_at: at, updated_at: at })
        .onConflict((conflict) => conflict.columns(['workspace_id', 'id']).doNothing())
        .execute();
      if (contactId !== null) {
        await trx
          .updateTable('visitor')
          .set({ contact_id: contactId, updated_at: at })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute();
      }
      const row = await trx.selectFrom('visitor').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirstOrThrow();
      return toVisitor(row);
    });
  }

  async visitors(workspaceId: string, ids: readonly string[]): Promise<VisitorRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('visitor')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(toVisitor);
  }

  async upsertContact(workspaceId: string, id: string, fields: ContactFields, at: string): Promise<ContactRecord> {
    const row = await this.db
      .insertInto('contact')
      .values({
        id,
        workspace_id: workspaceId,
        first_name: fields.firstName ?? null,
        last_name: fields.lastName ?? null,
        email: fields.email ?? null,
        phone_number: fields.phoneNumber ?? null,
        created_at: at,
        updated_at: at,
      })
      // Fields not given keep their stored values.
      .onConflict((conflict) =>
        conflict.columns(['workspace_id', 'email']).doUpdateSet((eb) => ({
          first_name: eb.fn.coalesce('excluded.first_name', 'contact.first_name'),
          last_name: eb.fn.coalesce('excluded.last_name', 'contact.last_name'),
          phone_number: eb.fn.coalesce('excluded.phone_number', 'contact.phone_number'),
          updated_at: at,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toContact(row);
  }

  async contacts(workspaceId: string, ids: readonly string[]): Promise<ContactRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('contact')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(toContact);
  }
}
