import { h } from './element.js';

const SAFE_LINK = /^(https?:|mailto:)/i;

/** A link's target when it is http, https or mailto; anything else (javascript:, data:, relative) is no link. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  if (!SAFE_LINK.test(trimmed)) return null;
  try {
    const parsed = new URL(trimmed);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A link that opens elsewhere and tells the page it leads to nothing about this one. */
export function link(href: string, text: string): HTMLAnchorElement {
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
}

// `code`, **bold**, *italic* or _italic_, [text](url), bare http(s) URLs.
const INLINE =
  /`([^`\n]+)`|\*\*([^*\n]+)\*\*|__([^_\n]+)__|\*([^*\n]+)\*|\b_([^_\n]+)_\b|\[([^\]\n]*)\]\(([^)\s]*)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

function inline(text: string, into: Node): void {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) into.appendChild(document.createTextNode(text.slice(last, at)));
    last = at + match[0].length;
    const [, code, bold, bold2, italic, italic2, label, url, bare] = match;
    if (code !== undefined) into.appendChild(h('code', {}, code));
    else if (bold !== undefined || bold2 !== undefined) inline(bold ?? bold2 ?? '', into.appendChild(h('strong')));
    else if (italic !== undefined || italic2 !== undefined) inline(italic ?? italic2 ?? '', into.appendChild(h('em')));
    else if (label !== undefined) {
      const href = safeHref(url ?? '');
      // A link to anything but the web or e-mail keeps its words and loses the link.
      if (href === null) into.appendChild(document.createTextNode(label));
      else into.appendChild(link(href, label || href));
    } else if (bare !== undefined) {
      const href = safeHref(bare);
      into.appendChild(href === null ? document.createTextNode(bare) : link(href, bare));
    }
  }
  if (last < text.length) into.appendChild(document.createTextNode(text.slice(last)));
}

/**
 * Markdown as DOM nodes, without raw HTML: paragraphs, bold, italics, inline and fenced code, bulleted and
 * numbered lists, and links to http, https and mailto only. A tag in the text stays text.
 */
export function renderMarkdown(source: string): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: HTMLUListElement | HTMLOListElement | null = null;
  const flush = () => {
    if (paragraph.length > 0) {
      const p = h('p');
      paragraph.forEach((line, index) => {
        if (index > 0) p.appendChild(h('br'));
        inline(line, p);
      });
      out.appendChild(p);
    }
    paragraph = [];
    list = null;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      while (++index < lines.length && !/^\s*```/.test(lines[index] ?? '')) code.push(lines[index] ?? '');
      out.appendChild(h('pre', {}, h('code', {}, code.join('\n'))));
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      if (paragraph.length > 0) flush();
      if (list === null || (list.tagName === 'OL') !== ordered) {
        list = ordered ? h('ol') : h('ul');
        out.appendChild(list);
      }
      const li = h('li');
      inline(item[3] ?? '', li);
      list.appendChild(li);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    list = null;
    paragraph.push(line.replace(/^#{1,6}\s+/, ''));
  }
  flush();
  return out;
}
