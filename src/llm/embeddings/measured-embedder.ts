import { embeddedTexts, embeddingDuration } from '../../observability/instruments.js';
import type { Embedder } from './embedder.js';

/**
 * The embedder with each call timed and counted into the metrics. A proxy rather than a wrapper class:
 * everything else (the model's own methods, `instanceof`) stays the embedder's.
 */
export function measured<E extends Embedder>(embedder: E): E {
  const embedQuery: Embedder['embedQuery'] = async (text, signal) => {
    const done = embeddingDuration.startTimer({ kind: 'query' });
    try {
      return await embedder.embedQuery(text, signal);
    } finally {
      done();
      embeddedTexts.inc({ kind: 'query' });
    }
  };
  const embedDocuments: Embedder['embedDocuments'] = async (texts, signal) => {
    const done = embeddingDuration.startTimer({ kind: 'documents' });
    try {
      return await embedder.embedDocuments(texts, signal);
    } finally {
      done();
      embeddedTexts.inc({ kind: 'documents' }, texts.length);
    }
  };
  return new Proxy(embedder, {
    get(target, property) {
      if (property === 'embedQuery') return embedQuery;
      if (property === 'embedDocuments') return embedDocuments;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
