/** The element `selector` names under `root`; the page's markup is broken without it. */
export function find<T extends Element>(root: ParentNode, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (element === null) throw new Error(`The page has no ${selector}.`);
  return element;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  if (className !== undefined) created.className = className;
  return created;
}

export const ENTER_KEY = 'Enter';
export const ESCAPE_KEY = 'Escape';
