import { sql, type ColumnDataType, type ColumnDefinitionBuilder, type Expression } from 'kysely';
import type { StoreCapabilities } from '../ports/store-capabilities.js';

type DataTypeExpression = ColumnDataType | Expression<unknown>;

/** Column types whose spelling differs between the dialects; everything else is plain `text`/`integer`. */
export interface DialectTypes {
  readonly double: ColumnDataType;
  readonly bigint: ColumnDataType;
  readonly blob: ColumnDataType;
  /** An integer key the database numbers itself. */
  readonly serial: ColumnDataType;
  /** Makes that key never hand out a number again once its row is deleted (SQLite reuses rowids otherwise). */
  readonly neverReused: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** Chunk vectors: float32 bytes in SQLite, pgvector's `vector` (any dimension) in PostgreSQL. */
  readonly vector: DataTypeExpression;
  readonly vectorExtension: boolean;
  /** SQLite: an FTS5 table beside `chunk`; PostgreSQL: a generated tsvector column with a GIN index. */
  readonly keywordIndex: StoreCapabilities['keywordIndex'];
  /** PostgreSQL alters a primary key in place; SQLite rebuilds the table. */
  readonly changesPrimaryKeysInPlace: boolean;
}

/** The types the migrations write for a store with these capabilities. */
export const dialectTypes = ({ dialect, vectorIndex, keywordIndex }: StoreCapabilities): DialectTypes => ({
  ...(dialect === 'sqlite'
    ? {
        double: 'real',
        bigint: 'integer',
        blob: 'blob',
        serial: 'integer',
        neverReused: (column) => column.autoIncrement(),
        changesPrimaryKeysInPlace: false,
      }
    : {
        double: 'double precision',
        bigint: 'bigint',
        blob: 'bytea',
        serial: 'bigint',
        neverReused: (column) => column.generatedAlwaysAsIdentity(),
        changesPrimaryKeysInPlace: true,
      }),
  vector: vectorIndex === 'pgvector' ? sql`vector` : 'blob',
  vectorExtension: vectorIndex === 'pgvector',
  keywordIndex,
});
