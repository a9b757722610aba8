import { useId, useState, type DragEvent } from 'react';
import type { OnDuplicateChoice } from '../../../../../src/contract/datasources';
import { useUploadFile } from '../../queries/datasources';
import { DuplicateChoice, duplicateHolder, type DuplicateHolder } from './duplicate-choice';

interface Upload {
  key: string;
  file: File;
  sent: number;
  total: number;
  state: 'uploading' | 'failed' | 'duplicate';
  error?: string;
  /** The datasource that holds the same bytes already (state duplicate), for the person to choose. */
  holder?: DuplicateHolder;
}

const ACCEPT = '.pdf,.docx,.pptx,.xlsx,.csv,.txt,.md,.markdown,.html,.htm,.json';

/**
 * Adds files to a datastore: dropped on the zone or picked with its button, several at once, each with
 * its own progress bar. A file that is in leaves this list for the datasources table; one whose bytes the
 * datastore holds already stays, naming the datasource that has them, until the person replaces it or
 * keeps both.
 */
export function UploadZone({ datastoreId }: { datastoreId: string }) {
  const id = useId();
  const uploadFile = useUploadFile(datastoreId);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);

  const change = (key: string, patch: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const send = (upload: Upload, onDuplicate: OnDuplicateChoice) => {
    change(upload.key, { state: 'uploading', sent: 0, holder: undefined });
    uploadFile.mutateAsync({ file: upload.file, onDuplicate, onProgress: (sent, total) => change(upload.key, { sent, total }) }).then(
      () => setUploads((all) => all.filter((item) => item.key !== upload.key)),
      (error: unknown) => {
        const holder = duplicateHolder(error);
        if (holder !== undefined) change(upload.key, { state: 'duplicate', holder });
        else change(upload.key, { state: 'failed', error: error instanceof Error ? error.message : 'The upload failed.' });
      },
    );
  };

  const start = (files: FileList | null) => {
    if (files === null || files.length === 0) return;
    const added = Array.from(files, (file, index) => ({
      key: `${Date.now()}-${index}-${file.name}`,
      file,
      sent: 0,
      total: file.size,
      state: 'uploading' as const,
    }));
    setUploads((all) => [...all, ...added]);
    for (const upload of added) send(upload, 'reject');
  };

  const dismiss = (key: string) => setUploads((all) => all.filter((item) => item.key !== key));

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    start(event.dataTransfer.files);
  };

  return (
    <div className="upload">
      <div
        className={dragging ? 'dropzone dropzone-active' : 'dropzone'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p className="dropzone-text">Drop files here to upload them, or</p>
        <label className="button button-primary file-button" htmlFor={id}>
          Choose files
        </label>
        <input
          id={id}
          className="visually-hidden"
          type="file"
          multiple
          accept={ACCEPT}
          onChange={(event) => {
            start(event.currentTarget.files);
            event.currentTarget.value = '';
          }}
        />
        <p className="field-hint">PDF, DOCX, PPTX, XLSX, CSV, TXT, Markdown, HTML or JSON.</p>
      </div>
      {uploads.length > 0 && (
        <ul className="upload-list" aria-label="Uploads">
          {uploads.map((upload) => {
            const percent = upload.total === 0 ? 100 : Math.round((upload.sent / upload.total) * 100);
            const name = upload.file.name;
            return (
              <li key={upload.key} className="upload-item">
                <span className="upload-name">{name}</span>
                {upload.state === 'duplicate' && upload.holder !== undefined ? (
                  <>
                    <button
                      type="button"
                      className="button button-small button-quiet"
                      onClick={() => dismiss(upload.key)}
                      aria-label={`Cancel ${name}`}
                    >
                      Cancel
                    </button>
                    <DuplicateChoice holder={upload.holder} what="this file" choose={(choice) => send(upload, choice)} />
                  </>
                ) : upload.state === 'failed' ? (
                  <>
                    <span className="field-error" role="alert">
                      {upload.error}
                    </span>
                    <button
                      type="button"
                      className="button button-small button-quiet"
                      onClick={() => dismiss(upload.key)}
                      aria-label={`Dismiss ${name}`}
                    >
                      Dismiss
                    </button>
                  </>
                ) : (
                  <>
                    <progress className="progress" max={100} value={percent} aria-label={`Uploading ${name}`} />
                    <span className="muted small">{percent < 100 ? `${percent}%` : 'Saving…'}</span>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
