import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { findKnowledgeGap } from '../../src/domain/knowledge-gaps.js';
import { NOT_FOUND_ANSWER } from '../../src/llm/chat/compose-extractive-answer.js';

describe('findKnowledgeGap', () => {
  it('finds a gap when retrieval found no passage', () => {
    expect(findKnowledgeGap([], 'Anything at all', 0.5)).toEqual({ reason: 'no_passage', bestScore: null });
  });

  it('finds a gap when the answerer said it found nothing, whatever the scores', () => {
    expect(findKnowledgeGap([0.9, 0.2], NOT_FOUND_ANSWER, 0.5)).toEqual({ reason: 'not_found', bestScore: 0.9 });
    expect(findKnowledgeGap([0.9], `${NOT_FOUND_ANSWER}\n`, 0)).toEqual({ reason: 'not_found', bestScore: 0.9 });
  });

  it('finds a gap when the best passage scores below the threshold, none at or above it', () => {
    expect(findKnowledgeGap([0.3, 0.49], 'A guess [1]', 0.5)).toEqual({ reason: 'low_score', bestScore: 0.49 });
    expect(findKnowledgeGap([0.3, 0.5], 'The shop opens at 9 [2]', 0.5)).toBeUndefined();
    expect(findKnowledgeGap([0.95], 'The shop opens at 9 [1]', 0.96)).toEqual({ reason: 'low_score', bestScore: 0.95 });
  });

  it('with a threshold of 0 counts only answers that found nothing', () => {
    expect(findKnowledgeGap([0.01], 'A weak answer [1]', 0)).toBeUndefined();
  });
});

describe('PARLEY_KNOWLEDGE_GAP_SCORE', () => {
  it('defaults to 0.5 and takes any score from 0 to 1', () => {
    expect(loadConfig({}).analytics.knowledgeGapScore).toBe(0.5);
    expect(loadConfig({ PARLEY_KNOWLEDGE_GAP_SCORE: '0.35' }).analytics.knowledgeGapScore).toBe(0.35);
    expect(loadConfig({ PARLEY_KNOWLEDGE_GAP_SCORE: '0' }).analytics.knowledgeGapScore).toBe(0);
  });

  it.each(['1.5', '-0.1', 'half'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ PARLEY_KNOWLEDGE_GAP_SCORE: value })).toThrow(/PARLEY_KNOWLEDGE_GAP_SCORE/);
  });
});
