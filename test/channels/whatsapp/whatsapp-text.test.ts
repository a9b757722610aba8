import { describe, expect, it } from 'vitest';
import { splitForWhatsApp, toWhatsAppText } from '../../../src/channels/whatsapp/whatsapp-text.js';

describe('answers in WhatsApp’s formatting', () => {
  it('turns light Markdown into WhatsApp’s marks', () => {
    expect(toWhatsAppText('## Delivery\n**Free** over 50 €, *usually* in 3 days: [details](https://shop.example/delivery)')).toBe(
      '*Delivery*\n*Free* over 50 €, _usually_ in 3 days: details (https://shop.example/delivery)',
    );
    expect(toWhatsAppText('See [https://shop.example](https://shop.example) or __ask__ us')).toBe('See https://shop.example or *ask* us');
  });

  it('leaves code blocks as they are, in WhatsApp’s monospace block', () => {
    expect(toWhatsAppText('Run:\n```sh\nnpm run **build**\n```\nthen **wait**.')).toBe('Run:\n```npm run **build**```\nthen *wait*.');
  });

  it('cuts at a paragraph, else a line, else a space in the second half; never inside a surrogate pair', () => {
    expect(splitForWhatsApp('aaaa bbbb\n\ncccc dddd', 14)).toEqual(['aaaa bbbb', 'cccc dddd']);
    expect(splitForWhatsApp('aaaa bbbb cccc dddd', 12)).toEqual(['aaaa bbbb', 'cccc dddd']);
    expect(splitForWhatsApp(`${'x'.repeat(9)}😀yy`, 10)).toEqual(['x'.repeat(9), '😀yy']);
    expect(splitForWhatsApp('   ')).toEqual([]);
  });
});
