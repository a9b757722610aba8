import { describe, expect, it } from 'vitest';
import { questionKey } from '../../src/text/question-key.js';

describe('questionKey', () => {
  it('groups a question with its repeats that differ in case, punctuation and spacing', () => {
    const key = questionKey('What is your refund policy?');
    for (const repeat of [
      'what is your refund policy',
      '  WHAT is your   refund policy ?!',
      'What is your refund-policy…',
      'What\tis\nyour refund policy.',
    ]) {
      expect(questionKey(repeat)).toBe(key);
    }
    expect(key).toBe('what is your refund policy');
  });

  it('joins the parts of a word around an apostrophe instead of splitting it', () => {
    expect(questionKey("What's the price?")).toBe(questionKey('whats the price'));
    expect(questionKey('What’s the price?')).toBe('whats the price');
  });

  it('keeps different questions apart, word forms included', () => {
    expect(questionKey('What is the price?')).not.toBe(questionKey('What are the prices?'));
    expect(questionKey('Can I pay by card?')).not.toBe(questionKey('Can I pay by cash?'));
  });

  it('unifies compatibility forms and folds case beyond lower-casing, in any script', () => {
    // Full-width Latin letters and digits (NFKC), the ligature ﬁ, and ß folded with SS.
    expect(questionKey('ＷＨＥＲＥ is ｒｏｏｍ １２?')).toBe('where is room 12');
    expect(questionKey('ﬁnd the ﬁle')).toBe('find the file');
    expect(questionKey('Wo ist die Straße?')).toBe(questionKey('WO IST DIE STRASSE'));
    // Greek: a final sigma folds with the medial one; the Greek question mark is punctuation.
    expect(questionKey('ΤΙ ΛΕΣ\u037E')).toBe('τι λες');
    expect(questionKey('τι λεσ')).toBe('τι λες');
  });

  it('keeps letters and marks of scripts without spaces or with vowel signs, and strips their punctuation', () => {
    expect(questionKey('退款政策是什么？')).toBe('退款政策是什么');
    expect(questionKey('退款政策是什么')).toBe(questionKey('退款政策是什么？'));
    // Devanagari vowel signs are combining marks: they are part of the word.
    expect(questionKey('क्या आप हिंदी बोलते हैं?')).toBe('क्या आप हिंदी बोलते हैं');
    expect(questionKey('¿Cuál es la política de devoluciones?')).toBe('cuál es la política de devoluciones');
    expect(questionKey('Cuál es la política de devoluciones')).toBe(questionKey('¿CUÁL ES LA POLÍTICA DE DEVOLUCIONES?'));
  });

  it('decomposed and precomposed accents give one key', () => {
    expect(questionKey('Cafe\u0301 ouvert ?')).toBe(questionKey('Café ouvert'));
  });

  it('gives a question of symbols only a key of its own rather than an empty one', () => {
    expect(questionKey('👍')).toBe('👍');
    expect(questionKey(' ?? ')).toBe('??');
    expect(questionKey('👍')).not.toBe(questionKey('👎'));
  });
});
