import { h } from './element.js';

/** A decorative SVG icon (its button carries the name); `down` turns it upside down. */
export function icon(d: string, turn?: 'down'): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  if (turn) svg.classList.add(turn);
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

/** A button; with `content` other than its label (a sign, an icon) the label is its name and tooltip. */
export function button(className: string, label: string, onClick: () => void, content: string | Node = label): HTMLButtonElement {
  const button = h('button', { type: 'button', class: className || undefined }, content);
  if (content !== label) {
    button.setAttribute('aria-label', label);
    button.title = label;
  }
  button.addEventListener('click', onClick);
  return button;
}
