import { invalid } from '../../errors.js';

/** Limits of one Q&A entry: a question is a sentence or two, an answer a help-centre article at most. */
export const QA_LIMITS = { questionChars: 500, answerChars: 10_000, otherWordings: 20 } as const;

/** A question and its answer, as a `qa` datasource's config holds them. */
export interface QaEntry {
  question: string;
  answer: string;
  /** Other wordings of the same question; they match visitors' questions as the question does. */
  questions: string[];
}

/** What a `qa` datasource's config holds: the entry, and the agent answer it corrects when it came from the inbox. */
export interface QaConfig extends QaEntry {
  sourceMessageId?: string;
}

/** The entry as given, trimmed and checked: nothing blank, nothing over {@link QA_LIMITS}, no repeated wording. */
export function checkedQaEntry(input: { question: string; answer: string; questions?: readonly string[] }): QaEntry {
  const question = input.question.trim();
  const answer = input.answer.trim();
  if (question === '') throw invalid('The question is empty', [{ field: 'config.question', message: 'must not be blank' }]);
  if (answer === '') throw invalid('The answer is empty', [{ field: 'config.answer', message: 'must not be blank' }]);
  if (question.length > QA_LIMITS.questionChars) {
    throw invalid(`The question is longer than ${QA_LIMITS.questionChars} characters`, [{ field: 'config.question', message: 'too long' }]);
  }
  if (answer.length > QA_LIMITS.answerChars) {
    throw invalid(`The answer is longer than ${QA_LIMITS.answerChars} characters`, [{ field: 'config.answer', message: 'too long' }]);
  }
  const others = (input.questions ?? []).map((wording) => wording.trim());
  if (others.length > QA_LIMITS.otherWordings) {
    throw invalid(`At most ${QA_LIMITS.otherWordings} other wordings`, [{ field: 'config.questions', message: 'too many' }]);
  }
  others.forEach((wording, index) => {
    const field = `config.questions.${index}`;
    if (wording === '') throw invalid('A wording of the question is empty', [{ field, message: 'must not be blank' }]);
    if (wording.length > QA_LIMITS.questionChars)
      throw invalid(`A wording is longer than ${QA_LIMITS.questionChars} characters`, [{ field, message: 'too long' }]);
  });
  const seen = new Set([question.toLowerCase()]);
  const questions = others.filter((wording) => !seen.has(wording.toLowerCase()) && seen.add(wording.toLowerCase()));
  return { question, answer, questions };
}

/** The entry in a stored config; undefined when the config is not a Q&A entry's. */
export function qaEntryOf(config: Record<string, unknown>): QaEntry | undefined {
  const { question, answer, questions } = config;
  if (typeof question !== 'string' || typeof answer !== 'string') return undefined;
  const others = Array.isArray(questions) ? questions.filter((wording): wording is string => typeof wording === 'string') : [];
  return { question, answer, questions: others };
}

/** Every wording a visitor's question is compared with. */
export const wordingsOf = (entry: QaEntry): string[] => [entry.question, ...entry.questions];

/** The text indexed for the entry: its wordings and its answer, so search finds it by either. */
export function qaDocument(entry: QaEntry): string {
  const others = entry.questions.map((wording) => `Also asked: ${wording}`);
  return [`Question: ${entry.question}`, ...others, '', `Answer: ${entry.answer}`].join('\n');
}
