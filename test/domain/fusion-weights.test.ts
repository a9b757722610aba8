import { describe, expect, it } from 'vitest';
import { fusionWeightsOf } from '../../src/domain/fusion-weights.js';
import { DEFAULT_FUSION_WEIGHTS } from '../../src/rag/retrieve/retriever.js';

describe('fusionWeightsOf', () => {
  it('takes a datastore’s own weights', () => {
    expect(fusionWeightsOf([{ vectorWeight: 0, keywordWeight: 2 }])).toEqual({ vector: 0, keyword: 2 });
  });

  it('averages the weights of several datastores, each datastore counting once', () => {
    const weights = [
      { vectorWeight: 0, keywordWeight: 1 },
      { vectorWeight: 1, keywordWeight: 1 },
      { vectorWeight: 1, keywordWeight: 4 },
    ];
    expect(fusionWeightsOf(weights)).toEqual({ vector: 2 / 3, keyword: 2 });
  });

  it('falls back to the defaults without a datastore', () => {
    expect(fusionWeightsOf([])).toEqual(DEFAULT_FUSION_WEIGHTS);
  });
});
