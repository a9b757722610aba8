import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AddedDatasource, DatasourceService, OnDuplicate as OnDuplicateChoice } from '../../domain/datasources.js';
import { invalid } from '../../errors.js';
import type { DatasourceRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { parseJsonBody } from '../plugins/errors.js';
import { registerFileUploads } from '../plugins/file-upload.js';
import { Id, IdParams, StringEnum, errorResponses } from '../schemas.js';
import {
  Chunk,
  CustomId,
  Datasource,
  DatasourceChanges,
  OnDuplicate,
  QaDatasource,
  TextDatasource,
  WebPageDatasource,
  WebSiteDatasource,
  type DatasourceBody,
} from '../../contract/datasources.js';

const FileBody = Type.Object({
  type: StringEnum(['file']),
  datastoreId: Id,
  file: Type.String({ description: 'The document (binary); PDF, DOCX, PPTX, XLSX, CSV, TXT, Markdown, HTML or JSON' }),
  fileName: Type.Optional(Type.String({ maxLength: 500, description: 'Defaults to the uploaded file’s name' })),
  custom_id: CustomId,
  onDuplicate: OnDuplicate,
});

/** What the hosted service's Zapier app posts: the file and its name, to the datastore of the path. */
const ExternalUploadBody = Type.Object({
  file: FileBody.properties.file,
  fileName: Type.Optional(Type.String({ maxLength: 500, description: 'Defaults to the uploaded file’s name (also when empty)' })),
  custom_id: CustomId,
  onDuplicate: OnDuplicate,
});

type CreateBody =
  | Static<typeof FileBody>
  | Static<typeof TextDatasource>
  | Static<typeof WebPageDatasource>
  | Static<typeof WebSiteDatasource>
  | Static<typeof QaDatasource>;

/** One schema per `type`; the discriminator keeps validation errors about the branch that was meant. */
const CreateBody = Type.Unsafe<CreateBody>({
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [FileBody, TextDatasource, WebPageDatasource, WebSiteDatasource, QaDatasource],
  description: 'multipart/form-data with `file` (type `file`), or JSON with type `text`, `web_page`, `web_site` or `qa`',
});

/** Past any datasource's chunk count, and well inside the 64-bit integers SQL OFFSET takes. */
const MAX_CHUNK_OFFSET = 1_000_000_000;

const toDatasource = (record: DatasourceRecord): DatasourceBody => ({
  id: record.id,
  type: record.type,
  name: record.name,
  status: record.status,
  datastoreId: record.datastoreId,
  groupId: record.groupId ?? '',
  custom_id: record.customId,
  config: record.config,
  error: record.error,
  progress: record.progress,
  nbChunks: record.nbChunks,
  textSize: record.textSize,
  totalPages: record.totalPages,
  mimeType: record.mimeType,
  size: record.sizeBytes,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
  ...(record.lastSynch === null ? {} : { lastSynch: record.lastSynch }),
});

/** The answer to an addition: the datasource, marked when the datastore already held its content or URL. */
function answerAdded(reply: FastifyReply, { datasource, duplicateOf }: AddedDatasource): DatasourceBody {
  if (duplicateOf === undefined) return toDatasource(datasource);
  reply.header('parley-duplicate-of', duplicateOf.id);
  return { ...toDatasource(datasource), duplicateOf: duplicateOf.id };
}

export interface DatasourceRoutesOptions {
  datasources: DatasourceService;
  maxUploadBytes: number;
  tempDir: string;
}

export const datasourceRoutes: FastifyPluginAsyncTypebox<DatasourceRoutesOptions> = async (app, options) => {
  const { datasources, maxUploadBytes, tempDir } = options;
  const withUpload = await registerFileUploads(app, { maxUploadBytes, tempDir });
  const tags = ['datasources'];
  // The API docs' web-page example misspells its Content-Type header, so its JSON body arrives as text/plain.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, parseJsonBody);

  interface UploadFields {
    datastoreId: string;
    fileName: string | undefined;
    customId: string | undefined;
    onDuplicate: OnDuplicateChoice | undefined;
  }
  const createFromUpload = (request: FastifyRequest, reply: FastifyReply, fields: UploadFields) =>
    withUpload(request, async (upload) => {
      if (upload === undefined) {
        throw invalid('A file datasource is uploaded as multipart/form-data with a `file` part', [
          { field: 'body.file', message: 'must be an uploaded file' },
        ]);
      }
      return answerAdded(reply, await datasources.createFromFile(workspaceOf(request), { ...fields, upload }));
    });

  app.addHook('preValidation', async (request) => {
    // Older clients leave `type` out of multipart uploads: a file is what they mean.
    if (request.isMultipart() && typeof request.body === 'object' && request.body !== null && !('type' in request.body)) {
      (request.body as Record<string, unknown>).type = 'file';
    }
  });

  app.post(
    '/datasources',
    {
      // No route bodyLimit: JSON bodies keep the server's; a multipart body is streamed, held by the upload limits.
      config: { fieldPaths: { url: 'body.config.source_url' } },
      schema: {
        tags,
        summary:
          'Add a datasource: upload a file, or send text, a web page URL, a website to crawl or a question and its answer; processed in the background. Content or a URL the datastore holds already is not added twice (onDuplicate)',
        consumes: ['multipart/form-data', 'application/json'],
        body: CreateBody,
        response: { 200: Datasource, ...errorResponses(409, 413, 415) },
      },
    },
    async (request, reply) => {
      const workspaceId = workspaceOf(request);
      const body = request.body;
      const { datastoreId } = body;
      const customId = body.custom_id;
      if (body.type === 'qa') {
        const { name, config } = body;
        const { sourceMessageId, ...entry } = config;
        return toDatasource(await datasources.createQa(workspaceId, { datastoreId, name, entry, sourceMessageId, customId }));
      }
      const { onDuplicate } = body;
      if (body.type === 'text') {
        return answerAdded(
          reply,
          await datasources.createFromText(workspaceId, { datastoreId, name: body.name, text: body.text, customId, onDuplicate }),
        );
      }
      if (body.type === 'web_page') {
        const { name, config } = body;
        const { source_url: url, refreshInterval } = config;
        return answerAdded(
          reply,
          await datasources.createFromWebPage(workspaceId, { datastoreId, name, url, refreshInterval, customId, onDuplicate }),
        );
      }
      if (body.type === 'web_site') {
        const { source_url: start, sitemap, ...settings } = body.config;
        const url = start ?? sitemap;
        if (url === undefined)
          throw invalid('A website starts from a page or a sitemap', [{ field: 'config.source_url', message: 'is required (or config.sitemap)' }]);
        const site = { ...settings, url };
        return answerAdded(reply, await datasources.createFromWebSite(workspaceId, { datastoreId, name: body.name, site, customId, onDuplicate }));
      }
      return createFromUpload(request, reply, { datastoreId, fileName: body.fileName, customId, onDuplicate });
    },
  );

  app.post(
    '/external/datastores/file-upload/:id',
    {
      schema: {
        tags,
        summary: 'Upload a file to the datastore of the path (the hosted service’s Zapier app); as POST /datasources with type file',
        consumes: ['multipart/form-data'],
        params: IdParams,
        body: ExternalUploadBody,
        response: { 200: Datasource, ...errorResponses(409, 413, 415) },
      },
    },
    // Zapier sends `fileName` empty when the user left it out.
    async (request, reply) =>
      createFromUpload(request, reply, {
        datastoreId: request.params.id,
        fileName: request.body.fileName || undefined,
        customId: request.body.custom_id,
        onDuplicate: request.body.onDuplicate,
      }),
  );

  app.get(
    '/datasources/:id',
    {
      schema: {
        tags,
        summary: 'Get a datasource with its status and progress',
        params: IdParams,
        response: { 200: Datasource, ...errorResponses() },
      },
    },
    async (request) => toDatasource(await datasources.get(workspaceOf(request), request.params.id)),
  );

  app.get(
    '/datasources/:id/chunks',
    {
      schema: {
        tags,
        summary: 'The datasource’s chunks as indexed, in document order',
        params: IdParams,
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, maximum: MAX_CHUNK_OFFSET, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
        }),
        response: { 200: Type.Array(Chunk), ...errorResponses() },
      },
    },
    async (request) =>
      (await datasources.listChunks(workspaceOf(request), request.params.id, request.query)).map((chunk) => ({
        id: chunk.id,
        ordinal: chunk.ordinal,
        text: chunk.text,
        source: chunk.source,
        page_number: chunk.pageNumber,
        tokens: chunk.tokens,
        custom_id: chunk.customId,
      })),
  );

  app.patch(
    '/datasources/:id',
    {
      schema: {
        tags,
        summary:
          'Change a datasource: config.refreshInterval (off, daily, weekly) of a URL source or a site; the question, answer or other wordings of a Q&A entry (indexed again)',
        params: IdParams,
        body: DatasourceChanges,
        response: { 200: Datasource, ...errorResponses() },
      },
    },
    async (request) => {
      const { refreshInterval, ...entry } = request.body.config;
      return toDatasource(await datasources.change(workspaceOf(request), request.params.id, { refreshInterval, entry }));
    },
  );

  app.delete(
    '/datasources/:id',
    {
      schema: {
        tags,
        summary: 'Delete a datasource and its chunks (a website with all its pages); answers the deleted record',
        params: IdParams,
        response: { 200: Datasource, ...errorResponses() },
      },
    },
    async (request) => toDatasource(await datasources.delete(workspaceOf(request), request.params.id)),
  );

  app.post(
    '/datasources/:id/resync',
    {
      schema: {
        tags,
        summary:
          'Process the datasource again (web pages are fetched anew, conditionally; a website is crawled again: new pages added, changed ones re-indexed, vanished ones removed)',
        params: IdParams,
        response: { 200: Datasource, ...errorResponses() },
      },
    },
    async (request) => toDatasource(await datasources.resync(workspaceOf(request), request.params.id)),
  );

  app.get(
    '/datastores/:id/datasources',
    {
      schema: {
        tags,
        summary: 'List a datastore’s datasources, newest first',
        params: IdParams,
        response: { 200: Type.Array(Datasource), ...errorResponses() },
      },
    },
    async (request) => (await datasources.listByDatastore(workspaceOf(request), request.params.id)).map(toDatasource),
  );
};
