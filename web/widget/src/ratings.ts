import { button, icon } from './controls.js';
import { h } from './element.js';
import type { Rating } from './parley-client.js';
import type { Strings } from './strings/index.js';

const THUMB =
  'M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3a1.5 1.5 0 0 0-.5-1L13.2 1 6.6 7.6A2 2 0 0 0 6 9v10a2 2 0 0 0 2 2h9a2 2 0 0 0 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z';

/**
 * The two rating buttons under an answer, pressed as it is rated. A press sends the rating (again on
 * the same button: none); `rate` resolves true once the server has it, and only then do the buttons change.
 */
export function ratingButtons(t: Strings, rating: Rating, rate: (next: Rating) => Promise<boolean>): HTMLDivElement {
  let current = rating;
  // Drawn, not emoji: a system without an emoji font would show empty boxes.
  const good = button('', t.helpful, () => void choose('GOOD'), icon(THUMB));
  const bad = button('', t.notHelpful, () => void choose('BAD'), icon(THUMB, 'down'));
  const show = () => {
    good.setAttribute('aria-pressed', String(current === 'GOOD'));
    bad.setAttribute('aria-pressed', String(current === 'BAD'));
  };
  const choose = async (value: 'GOOD' | 'BAD') => {
    const next = current === value ? null : value;
    if (!(await rate(next))) return;
    current = next;
    show();
  };
  show();
  return h('div', { class: 'rate' }, good, bad);
}
