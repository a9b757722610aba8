import { useId, useState, type DragEvent } from 'react';
import { useUploadFile } from '../../queries/datasources';

interface Upload {
  key: string;
  name: string;
  sent: number;
  total: number;
  state: 'uploading' | 'processing' | 'failed';
  error?: string;
}

const ACCEPT = '.pdf,.docx,.pptx,.xlsx,.csv,.txt,.md,.markdown,.html,.htm,.json';

/**
 * Adds files to a datastore: dropped on the zone or picked with its button, several at once, each with
 * its own progress bar. A file that is in leaves this list for the datasources table.
 */
export function UploadZone({ datastoreId }: { datastoreId: string }) {
  const id = useId();
  const uploadFile = useUploadFile(datastoreId);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);

  const change = (key: string, patch: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const start = (files: FileList | null) => {
    if (files === null || files.length === 0) return;
    const added = Array.from(files, (file, index) => ({
      file,
      upload: { key: `${Date.now()}-${index}-${file.name}`, name: file.name, sent: 0, total: file.size, state: 'uploading' as const },
    }));
    setUploads((all) => [...all, ...added.map(({ upload }) => upload)]);
    for (const { file, upload } of added) {
      uploadFile.mutateAsync({ file, onProgress: (sent, total) => change(upload.key, { sent, total }) }).then(
        () => setUploads((all) => all.filter((item) => item.key !== upload.key)),
        (error: unknown) => change(upload.key, { state: 'failed', error: error instanceof Error ? error.message : 'The upload failed.' }),
      );
    }
  };

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
            return (
              <li key={upload.key} className="upload-item">
                <span className="upload-name">{upload.name}</span>
                {upload.state === 'failed' ? (
                  <>
                    <span className="field-error" role="alert">
                      {upload.error}
                    </span>
                    <button
                      type="button"
                      className="button button-small button-quiet"
                      onClick={() => setUploads((all) => all.filter((item) => item.key !== upload.key))}
                      aria-label={`Dismiss ${upload.name}`}
                    >
                      Dismiss
                    </button>
                  </>
                ) : (
                  <>
                    <progress className="progress" max={100} value={percent} aria-label={`Uploading ${upload.name}`} />
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
