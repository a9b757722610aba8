import { embeddedTexts, embeddingDuration } from '../../observability/instruments.js';
import type { Embedder } from './embedder.js';

/** Times one embedding call of `kind` and counts its texts, whether it succeeds or fails. */
async function measuredCall<T>(kind: 'query' | 'documents', texts: number, call: () => Promise<T>): Promise<T> {
  const done = embeddingDuration.startTimer({ kind });
  try {
    return await call();
  } finally {
    done();
    embeddedTexts.inc({ kind }, texts);
  }
}

/**
 * The embedder with each call timed and counted into the metrics. A proxy rather than a wrapper class:
 * everything else (the model's own methods, `instanceof`) stays the embedder's.
 */
export function measured<E extends Embedder>(embedder: E): E {
  const embedQuery: Embedder['embedQuery'] = (text, signal) => measuredCall('query', 1, () => embedder.embedQuery(text, signal));
  const embedDocuments: Embedder['embedDocuments'] = (texts, signal) =>
    measuredCall('documents', texts.length, () => embedder.embedDocuments(texts, signal));
  return new Proxy(embedder, {
    get(target, property) {
      if (property === 'embedQuery') return embedQuery;
      if (property === 'embedDocuments') return embedDocuments;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
