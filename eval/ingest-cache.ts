import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * `--keep DIR`: a SQLite data directory that outlives the run, so the next run with the same corpus,
 * chunking, embedder and ingestion code skips ingestion. A manifest in the directory says what was
 * ingested; when any of it differs the directory is emptied and ingested again. A directory without the
 * manifest is never emptied.
 */

const MANIFEST = 'eval-cache.json';
/** The fingerprint part that hashes the ingestion source code. */
const CODE_PART = 'ingestionCode';

/** Everything ingestion output depends on, each part hashed or spelled out so a mismatch can be named. */
export type Fingerprint = Record<string, string>;

const Manifest = z.object({
  version: z.literal(1),
  fingerprint: z.record(z.string(), z.string()),
  complete: z.boolean(),
  datastoreId: z.string().nullable(),
  ingestionMs: z.number().nullable(),
  documents: z.number(),
  createdAt: z.string(),
});
export type Manifest = z.infer<typeof Manifest>;

/**
 * The source folders whose changes alter what ingestion writes (parsing, chunking, embedding, schema);
 * src/text because chunking counts tokens and cuts sentences with it.
 */
const INGESTION_SOURCES = ['src/rag/ingest', 'src/text', 'src/llm/embeddings', 'src/store/migrations'];

async function hashFile(file: string, hash = createHash('sha256')): Promise<ReturnType<typeof createHash>> {
  hash.update(await fs.readFile(file));
  return hash;
}

/** The corpus files (`--corpus`: files or folders, comma-separated), by name and content. */
async function hashCorpus(corpus: string): Promise<ReturnType<typeof createHash>> {
  const hash = createHash('sha256');
  for (const part of corpus.split(',')) {
    if (!(await fs.stat(part)).isDirectory()) {
      await hashFile(part, hash);
      continue;
    }
    for (const name of (await fs.readdir(part)).sort()) {
      const file = path.join(part, name);
      if (!(await fs.stat(file)).isFile()) continue;
      hash.update(name);
      await hashFile(file, hash);
    }
  }
  return hash;
}

/** One hash over the files of `folders` (under `root`), by relative path and content, in a stable order. */
async function hashSources(root: string, folders: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of folders) {
    const entries = await fs.readdir(path.join(root, folder), { recursive: true, withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort();
    for (const file of files) {
      hash.update(file + '\0');
      await hashFile(path.join(root, file), hash);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

export interface FingerprintInput {
  repoRoot: string;
  corpusPath: string;
  chunkTokens: number;
  chunkOverlapTokens: number;
  /** The embeddings endpoint and model, or "local". */
  embedder: string;
}

export async function fingerprintOf(input: FingerprintInput): Promise<Fingerprint> {
  return {
    corpus: (await hashCorpus(input.corpusPath)).digest('hex').slice(0, 16),
    chunking: `${input.chunkTokens}/${input.chunkOverlapTokens}`,
    embedder: input.embedder,
    [CODE_PART]: await hashSources(input.repoRoot, INGESTION_SOURCES),
  };
}

export type CacheState =
  /** `codeChanged`: reused under `ignoreCodeChanges` although the ingestion code differs. */
  { kind: 'reuse'; manifest: Manifest; codeChanged: boolean } | { kind: 'fresh'; reason: string };

/** An ingestion cache directory, opened: reusable as it is, or emptied and ready for a new ingestion. */
export class IngestCache {
  private constructor(
    readonly dir: string,
    readonly fingerprint: Fingerprint,
    readonly state: CacheState,
  ) {}

  /**
   * `reingest` empties the directory whatever it holds; `ignoreCodeChanges` reuses it even when the
   * ingestion code changed since (corpus, chunking and embedder must still match).
   */
  static async open(dir: string, fingerprint: Fingerprint, options: { reingest: boolean; ignoreCodeChanges: boolean }): Promise<IngestCache> {
    const manifestPath = path.join(dir, MANIFEST);
    const entries: string[] = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    if (entries.length === 0) return IngestCache.start(dir, fingerprint, 'new cache directory');
    if (!entries.includes(MANIFEST)) {
      throw new Error(`--keep ${dir}: the directory is not empty and holds no ${MANIFEST}; refusing to reuse or empty it`);
    }
    const parsed = Manifest.safeParse(JSON.parse(await fs.readFile(manifestPath, 'utf8')));
    const reason = !parsed.success
      ? 'unreadable manifest'
      : options.reingest
        ? '--reingest'
        : !parsed.data.complete || parsed.data.datastoreId === null
          ? 'previous ingestion did not finish'
          : describeMismatch(parsed.data.fingerprint, fingerprint, options.ignoreCodeChanges ? [CODE_PART] : []);
    if (reason === undefined && parsed.success) {
      const codeChanged = parsed.data.fingerprint[CODE_PART] !== fingerprint[CODE_PART];
      return new IngestCache(dir, fingerprint, { kind: 'reuse', manifest: parsed.data, codeChanged });
    }
    await Promise.all(entries.map((entry) => fs.rm(path.join(dir, entry), { recursive: true, force: true })));
    return IngestCache.start(dir, fingerprint, reason ?? 'stale');
  }

  private static async start(dir: string, fingerprint: Fingerprint, reason: string): Promise<IngestCache> {
    await fs.mkdir(dir, { recursive: true });
    const cache = new IngestCache(dir, fingerprint, { kind: 'fresh', reason });
    await cache.write({ complete: false, datastoreId: null, ingestionMs: null, documents: 0 });
    return cache;
  }

  /** Records a finished ingestion, so the next run reuses it. */
  async complete(result: { datastoreId: string; ingestionMs: number; documents: number }): Promise<void> {
    await this.write({ complete: true, ...result });
  }

  private async write(fields: Pick<Manifest, 'complete' | 'datastoreId' | 'ingestionMs' | 'documents'>): Promise<void> {
    const manifest: Manifest = { version: 1, fingerprint: this.fingerprint, createdAt: new Date().toISOString(), ...fields };
    await fs.writeFile(path.join(this.dir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  }
}

function describeMismatch(stored: Fingerprint, current: Fingerprint, ignored: readonly string[]): string | undefined {
  const keys = [...new Set([...Object.keys(stored), ...Object.keys(current)])].filter((key) => !ignored.includes(key));
  const changed = keys.filter((key) => stored[key] !== current[key]);
  return changed.length === 0 ? undefined : `changed: ${changed.map((key) => `${key} (${stored[key] ?? '-'} → ${current[key] ?? '-'})`).join(', ')}`;
}
