import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasourceService } from '../../src/domain/datasources.js';
import { createSignals } from '../../src/domain/signals.js';
import { OutboundPolicy } from '../../src/net/address-policy.js';
import { openMigratedFrom, type MigratedStore } from '../support/migrations.js';
import { STORE_KINDS } from '../support/stores.js';

const AT = '2026-01-01T00:00:00.000Z';
const POLICY = 'Returns are accepted within thirty days with the receipt.';

describe.each(STORE_KINDS)('migration 022: content keys of datasources, on %s', (kind) => {
  let migrated: MigratedStore;
  let service: DatasourceService;

  beforeAll(async () => {
    migrated = await openMigratedFrom(kind, '020-automation-hooks', async (db) => {
      // A store of the previous release: a text (its bytes in the blob store) and a web page, in one datastore.
      await sql`insert into workspace (id, name, created_at) values ('ws_a', 'A', ${AT})`.execute(db);
      await sql`insert into datastore (id, workspace_id, name, description, type, visibility, created_at, updated_at)
        values ('ds_1', 'ws_a', 'Docs', '', 'vector_a', 'private', ${AT}, ${AT})`.execute(db);
      for (const [id, type, config, fileKey] of [
        ['src_text', 'text', '{"kind":"txt"}', 'src_text'],
        ['src_page', 'web_page', '{"source_url":"https://shop.example/returns"}', null],
      ] as const) {
        await sql`insert into datasource (id, workspace_id, datastore_id, type, name, status, config, file_key, progress, nb_chunks, text_size, generation, created_at, updated_at)
          values (${id}, 'ws_a', 'ds_1', ${type}, ${id}, 'synched', ${config}, ${fileKey}, 1, 1, 10, 1, ${AT}, ${AT})`.execute(db);
      }
    });
    const tempDir = path.join(migrated.scratch.dataDir, 'tmp');
    await fs.mkdir(tempDir, { recursive: true });
    const blob = path.join(tempDir, 'older-text');
    await fs.writeFile(blob, POLICY, 'utf8');
    await migrated.store.blobs.put('src_text', blob);
    const outbound = new OutboundPolicy({ setting: 'public', public: true, ranges: [], hosts: [] });
    service = new DatasourceService(migrated.store, { tempDir, maxAttempts: 1, outbound, signals: createSignals() });
  }, 60_000);
  afterAll(() => migrated.close());

  it('leaves the older datasources unkeyed until their datastore gets an addition', async () => {
    expect((await migrated.store.datasources.listWithoutContentKey('ws_a', 'ds_1', ['text', 'web_page'])).map((d) => d.id).sort()).toEqual([
      'src_page',
      'src_text',
    ]);
  });

  it('keys them on the next addition, so their text and their page are found as duplicates', async () => {
    const text = await service.createFromText('ws_a', { datastoreId: 'ds_1', text: POLICY });
    expect([text.datasource.id, text.duplicateOf?.id]).toEqual(['src_text', 'src_text']);
    const page = await service.createFromWebPage('ws_a', { datastoreId: 'ds_1', url: 'https://SHOP.example/returns#top' });
    expect([page.datasource.id, page.duplicateOf?.id]).toEqual(['src_page', 'src_page']);
    expect(await migrated.store.datasources.listWithoutContentKey('ws_a', 'ds_1', ['text', 'web_page'])).toEqual([]);
    expect(await migrated.store.datasources.listByDatastore('ws_a', 'ds_1')).toHaveLength(2);
  });
});
