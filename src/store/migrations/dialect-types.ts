import { sql, type ColumnDataType, type Expression } from 'kysely';

type DataTypeExpression = ColumnDataType | Expression<unknown>;

export type DialectName = 'sqlite' | 'postgres';

/** Column types whose spelling differs between the dialects; everything else is plain `text`/`integer`. */
export interface DialectTypes {
  readonly double: ColumnDataType;
  readonly bigint: ColumnDataType;
  readonly blob: ColumnDataType;
  /** Chunk vectors: float32 bytes in SQLite, pgvector's `vector` (any dimension) in PostgreSQL. */
  readonly vector: DataTypeExpression;
  readonly vectorExtension: boolean;
  /** SQLite: an FTS5 table beside `chunk`; PostgreSQL: a generated tsvector column with a GIN index. */
  readonly keywordIndex: 'fts5' | 'tsvector';
  /** PostgreSQL alters a primary key in place; SQLite rebuilds the table. */
  readonly changesPrimaryKeysInPlace: boolean;
}

export const dialectTypes = (dialect: DialectName): DialectTypes =>
  dialect === 'sqlite'
    ? { double: 'real', bigint: 'integer', blob: 'blob', vector: 'blob', vectorExtension: false, keywordIndex: 'fts5', changesPrimaryKeysInPlace: false }
    : {
        double: 'double precision',
        bigint: 'bigint',
        blob: 'bytea',
        vector: sql`vector`,
        vectorExtension: true,
        keywordIndex: 'tsvector',
        changesPrimaryKeysInPlace: true,
      };
