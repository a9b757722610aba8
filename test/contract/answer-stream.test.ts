import { describe, expect, it } from 'vitest';
import { answerFrames, readAnswerStream } from '../../src/contract/answer-stream.js';
import type { AnswerBody } from '../../src/contract/answers.js';
import { encodeSseFrame, sseParser, type SseFrame } from '../../src/contract/server-sent-events.js';

/** The frames `text` holds when it arrives in pieces of `size` characters. */
function parseInPieces(text: string, size: number): SseFrame[] {
  const frames: SseFrame[] = [];
  const parser = sseParser((frame) => frames.push(frame));
  for (let at = 0; at < text.length; at += size) parser.feed(text.slice(at, at + size));
  return frames;
}

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

const FINAL: AnswerBody = { answer: 'Yes, 100% — ask again.', conversationId: 'c1', visitorId: 'v1', messageId: 'm1', visitorToken: 't' };

describe('the answer stream, written and read by the contract', () => {
  const wire = [
    answerFrames.delta('Yes, 100%'),
    answerFrames.delta(' — ask\nagain.'),
    answerFrames.response({ ...FINAL, metadata: {} }),
    answerFrames.done(),
  ]
    .map(encodeSseFrame)
    .join('');

  it('keeps the hosted widget’s framing: URI-encoded data, an empty-named [DONE]', () => {
    expect(wire).toContain('event: answer\ndata: Yes%2C%20100%25\n\n');
    expect(wire.endsWith('event: \ndata: [DONE]\n\n')).toBe(true);
  });

  it('reads the same frames however the text is cut, and gives back the answer', async () => {
    const whole = parseInPieces(wire, wire.length);
    for (const size of [1, 2, 7]) expect(parseInPieces(wire, size)).toEqual(whole);
    const deltas: string[] = [];
    const answer = await readAnswerStream(each(whole), (text) => deltas.push(text));
    expect(deltas.join('')).toBe('Yes, 100% — ask\nagain.');
    expect(answer).toEqual({ ...FINAL, metadata: {} });
  });

  it('reads ids, skips comments, joins data lines and takes \\r\\n split between two pieces', () => {
    expect(parseInPieces(': keep-alive\r\n\r\nid: 7\r\nevent: message\r\ndata: a\r\ndata: b\r\n\r\n', 5)).toEqual([
      { id: '7', event: 'message', data: 'a\nb' },
    ]);
  });

  it('ends with the server’s message on [ERROR], and as cut short without the answer', async () => {
    const failed = parseInPieces([answerFrames.delta('Hal'), answerFrames.error('The model\nfailed')].map(encodeSseFrame).join(''), 3);
    await expect(readAnswerStream(each(failed), () => undefined)).rejects.toMatchObject({ reason: 'error', message: 'The model failed' });
    await expect(readAnswerStream(each([answerFrames.delta('Hal')]), () => undefined)).rejects.toMatchObject({ reason: 'cut-short' });
  });
});
