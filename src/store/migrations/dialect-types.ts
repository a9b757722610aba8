import type { ColumnDataType } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Column types whose spelling differs between the dialects; everything else is plain `text`/`integer`. */
export interface DialectTypes {
  readonly double: ColumnDataType;
  readonly bigint: ColumnDataType;
}

export const dialectTypes = (dialect: DialectName): DialectTypes =>
  dialect === 'sqlite' ? { double: 'real', bigint: 'integer' } : { double: 'double precision', bigint: 'bigint' };
