import { DEFAULT_FUSION_WEIGHTS, type FusionWeights } from '../rag/retrieve/retriever.js';
import type { DatastoreRecord } from '../store/store.js';

/**
 * The hybrid fusion weights of a search over `datastores`: a datastore's own, or for an agent with several,
 * the mean of each engine's weights. One fusion over all their candidates keeps scores comparable across
 * datastores (fused apart, each datastore's best hit would score near 1 however poor); the mean is their
 * own weights when they agree, and otherwise counts each linked datastore once.
 */
export function fusionWeightsOf(datastores: readonly Pick<DatastoreRecord, 'vectorWeight' | 'keywordWeight'>[]): FusionWeights {
  if (datastores.length === 0) return DEFAULT_FUSION_WEIGHTS;
  const mean = (weight: (datastore: (typeof datastores)[number]) => number) =>
    datastores.reduce((sum, datastore) => sum + weight(datastore), 0) / datastores.length;
  return { vector: mean((datastore) => datastore.vectorWeight), keyword: mean((datastore) => datastore.keywordWeight) };
}
