import { NOT_FOUND_ANSWER } from '../llm/chat/compose-extractive-answer.js';
import type { KnowledgeGapReason } from '../store/store.js';

/** Why an answer is a knowledge gap, and the best retrieval score behind it. */
export interface KnowledgeGapFinding {
  reason: KnowledgeGapReason;
  bestScore: number | null;
}

/**
 * Whether an agent answer shows a gap in its datastores: retrieval found no passage, the answerer said it
 * found nothing, or the best passage scored below `threshold` (0 turns that test off). Undefined otherwise.
 */
export function findKnowledgeGap(scores: readonly number[], answer: string, threshold: number): KnowledgeGapFinding | undefined {
  if (scores.length === 0) return { reason: 'no_passage', bestScore: null };
  const bestScore = Math.max(...scores);
  if (answer.trim() === NOT_FOUND_ANSWER) return { reason: 'not_found', bestScore };
  if (bestScore < threshold) return { reason: 'low_score', bestScore };
  return undefined;
}
