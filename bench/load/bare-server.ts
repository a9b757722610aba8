/**
 * The load bench's baseline: a bare Fastify route that reads one SQLite row by primary key and answers it
 * as JSON, with the same fastify and better-sqlite3 as Parley and the same logger settings. What the
 * framework and the database need for a read; Parley's `GET /agents/{id}` is measured against it.
 *
 *   PORT=0 PARLEY_LOG_LEVEL=info tsx bench/load/bare-server.ts <sqlite file>
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: bare-server.ts <sqlite file>');
const database = new SQLite(file);
database.pragma('journal_mode = WAL');
database.exec(`create table if not exists agent (id text primary key, name text not null, description text not null,
  model_name text not null, temperature real not null, created_at text not null)`);
database
  .prepare(`insert or replace into agent values ('bench-agent', 'Bench agent', 'A row to read', 'gpt-4o-mini', 0, ?)`)
  .run(new Date().toISOString());
const readAgent = database.prepare('select * from agent where id = ?');

const app = Fastify({ logger: { level: process.env.PARLEY_LOG_LEVEL ?? 'info' } });
app.get<{ Params: { id: string } }>('/agents/:id', async (request, reply) => {
  const row = readAgent.get(request.params.id);
  if (row === undefined) return reply.code(404).send({ error: 'not found' });
  return row;
});
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`Baseline listening at ${address}`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
