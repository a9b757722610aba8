import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UploadedFile } from '../../domain/uploaded-file.js';
import { contentHash, contentKey } from '../../domain/duplicate-keys.js';
import { ParleyError, invalid } from '../../errors.js';

export interface FileUploadOptions {
  maxUploadBytes: number;
  /** Where uploads are streamed before they join the blob store. */
  tempDir: string;
}

/**
 * Runs `use` with the file the request uploaded (undefined without one, or once its client is gone) and
 * removes the file when `use` is done, whatever `use` did with it.
 */
export type WithUpload = <T>(request: FastifyRequest, use: (upload: UploadedFile | undefined) => Promise<T>) => Promise<T>;

/** Node's own I/O failures name the system call; the client's bytes never cause one. */
const isSystemError = (error: unknown): boolean => typeof error === 'object' && error !== null && 'syscall' in error;

/**
 * Multipart uploads of one file for the routes of `app`: fields become the body, the file is streamed to
 * disk (memory stays flat whatever its size) and removed when the request is over: by the route that used
 * it, or when the response closes (refused, failed, or its client gone mid-body). A body the parser cannot
 * read is the client's mistake and answers 400, never the parser's own words.
 */
export async function registerFileUploads(app: FastifyInstance, options: FileUploadOptions): Promise<WithUpload> {
  const { maxUploadBytes, tempDir } = options;
  const uploads = new WeakMap<FastifyRequest, UploadedFile>();
  // A route using its file removes it when done: a client leaving meanwhile must not pull it from under the route.
  const inUse = new WeakSet<FastifyRequest>();
  const responseClosed = new WeakSet<FastifyRequest>();
  const limitMb = Math.round(maxUploadBytes / 1048576);
  const tooLarge = () => new ParleyError('PAYLOAD_TOO_LARGE', `Uploads are limited to ${limitMb} MB`);

  await fs.mkdir(tempDir, { recursive: true });
  await app.register(multipart, { limits: { fileSize: maxUploadBytes, files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 25 } });
  const { FilesLimitError, RequestFileTooLargeError } = app.multipartErrors;

  /** What the client hears when reading its body failed. */
  function clientError(error: unknown): unknown {
    if (ParleyError.isInstance(error) || isSystemError(error)) return error;
    // The parser stops at the second file part; one upload is one datasource.
    if (error instanceof FilesLimitError) {
      return invalid('Send one file per request', [{ field: 'body.file', message: 'must be a single file part' }]);
    }
    if (error instanceof RequestFileTooLargeError) return tooLarge();
    const status = (error as { statusCode?: unknown }).statusCode;
    // The plugin's own limits (parts, fields) are 413 and its refusals (a `__proto__` field) 400: said in our words.
    if (status === 413) return new ParleyError('PAYLOAD_TOO_LARGE', 'The multipart body has too many parts or fields, or a field too long');
    return invalid(
      'The multipart/form-data body cannot be read: it needs a boundary in its Content-Type, a Content-Disposition ' +
        'header on each part, fields as plain text, and the closing delimiter',
    );
  }

  async function readParts(request: FastifyRequest): Promise<Record<string, unknown>> {
    const body: Record<string, unknown> = {};
    for await (const part of request.parts()) {
      if (Object.hasOwn(body, part.fieldname))
        throw invalid(`Send ${part.fieldname} once`, [{ field: `body.${part.fieldname}`, message: 'must appear once' }]);
      if (part.type === 'field') {
        body[part.fieldname] = part.value;
        continue;
      }
      const file = path.join(tempDir, `upload-${randomUUID()}`);
      // Known before the first byte lands, so a response closing meanwhile removes a half-written file too.
      uploads.set(request, { path: file, fileName: part.filename, size: 0, contentKey: '' });
      // Removed again once the write stream is closed: a removal on close may have run before the stream created it.
      // Hashed on the way to disk, so knowing whether the datastore holds it already costs no second read.
      const hash = contentHash();
      try {
        await pipeline(
          part.file,
          async function* (chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              hash.update(chunk);
              yield chunk;
            }
          },
          createWriteStream(file),
        );
      } catch (error) {
        await fs.rm(file, { force: true });
        throw error;
      }
      uploads.set(request, { path: file, fileName: part.filename, size: part.file.bytesRead, contentKey: contentKey(hash) });
      if (responseClosed.has(request)) await discard(request);
      // The header's file name is the client's file system talking, cleaned by the naming rule later; NUL
      // goes here, as the edge refuses it in every field a client writes (nul-characters.ts).
      body[part.fieldname] = part.filename.replaceAll('\0', '');
    }
    return body;
  }

  /** Removes the request's file unless a route is using it. */
  async function discard(request: FastifyRequest): Promise<void> {
    const upload = uploads.get(request);
    if (upload !== undefined && !inUse.has(request)) await fs.rm(upload.path, { force: true });
  }

  app.addHook('onRequest', async (request, reply) => {
    // Refuse what is announced too large before reading any of it.
    if (Number(request.headers['content-length'] ?? 0) > maxUploadBytes + 1024 * 1024) throw tooLarge();
    // 'close', unlike onResponse, also comes when the client leaves before the response is written.
    reply.raw.once('close', () => {
      responseClosed.add(request);
      discard(request).catch((error: unknown) => request.log.error({ err: error }, 'removing an upload failed'));
    });
  });
  app.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    try {
      request.body = await readParts(request);
    } catch (error) {
      throw clientError(error);
    }
  });

  return async (request, use) => {
    inUse.add(request);
    try {
      return await use(responseClosed.has(request) ? undefined : uploads.get(request));
    } finally {
      inUse.delete(request);
      await discard(request);
    }
  };
}
