import { lazy, type ComponentType } from 'react';

/** A page loaded when first visited; `name` is its export. */
export function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
