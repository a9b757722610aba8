type Attributes = Record<string, string | boolean | undefined>;

/**
 * Makes an element with attributes and children. Text always goes in as text nodes: no string here is
 * ever parsed as HTML, whatever the model, a person or the agent's settings wrote.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
