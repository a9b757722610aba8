import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * How many rows the condition holds for: 1 when it holds, else 0, summed. Null over no rows at all;
 * PostgreSQL returns the sum (a bigint) as text.
 */
export const countWhen = (condition: Expression<SqlBool>) => sql<number | string | null>`sum(case when ${condition} then 1 else 0 end)`;
