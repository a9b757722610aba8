import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { asUnavailable } from '../database-outage.js';

/** Runs `work` (which may also throw before it returns a promise, as SQLite's driver does), turning an outage into UNAVAILABLE. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asUnavailable(error);
  }
}

/** A driver connection whose failures say UNAVAILABLE when the database is away. */
class OutageAwareConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return translated(() => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw asUnavailable(error);
    }
  }
}

/** The inner driver's own connection: its transaction and release methods need it, not the wrapper. */
const innerOf = (connection: DatabaseConnection): DatabaseConnection => (connection instanceof OutageAwareConnection ? connection.inner : connection);

class OutageAwareDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return translated(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new OutageAwareConnection(await translated(() => this.inner.acquireConnection()));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return translated(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return translated(() => this.inner.rollbackTransaction(innerOf(connection)));
  }

  // Both of Parley's drivers support savepoints; the wrapper passes them through so Kysely still sees them.
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return translated(() => this.inner.savepoint!(innerOf(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return translated(() => this.inner.rollbackToSavepoint!(innerOf(connection), name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return translated(() => this.inner.releaseSavepoint!(innerOf(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * `dialect` with every driver failure that means the database cannot be reached (a lost connection, a
 * refused one, a pool that waited too long) thrown as UNAVAILABLE; any other error, a constraint
 * violation included, passes unchanged. Both stores open their Kysely through it.
 */
export function outageAware(dialect: Dialect): Dialect {
  return {
    createDriver: () => new OutageAwareDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
