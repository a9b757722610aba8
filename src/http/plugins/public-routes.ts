import type { PublicResource } from '../../domain/public-access.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route serves callers without a key; its `:id` names this kind of resource. A route without `:id`
     * (the resource is named in its body) answers every origin's pages; its handler checks the agent's.
     */
    publicResource?: PublicResource;
  }
}

/** A public resource as a request path names it; no id when the path names none. */
export interface PublicTarget {
  resource: PublicResource;
  id: string | undefined;
}

/**
 * The routes that answer callers without a key, found by path before routing is done (CORS preflights
 * reach no route of their own). Filled from each route's `publicResource` as the routes are registered.
 */
export class PublicRoutes {
  readonly #patterns: { pattern: RegExp; resource: PublicResource }[] = [];
  /** Paths without an id; they win over a pattern the same path matches (`/conversations/eval-answer`). */
  readonly #paths = new Map<string, PublicResource>();

  /** `url` as Fastify registers it, with `:id` where the resource's id goes. */
  add(url: string, resource: PublicResource): void {
    if (!url.split('/').includes(':id')) {
      this.#paths.set(url, resource);
      return;
    }
    const source = url
      .split('/')
      .map((part) => (part === ':id' ? '([^/?#]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.#patterns.push({ pattern: new RegExp(`^${source}$`), resource });
  }

  match(url: string): PublicTarget | undefined {
    const path = url.split('?')[0] ?? '';
    const resource = this.#paths.get(path);
    if (resource !== undefined) return { resource, id: undefined };
    for (const { pattern, resource } of this.#patterns) {
      const id = pattern.exec(path)?.[1];
      if (id !== undefined) return { resource, id: decodeURIComponent(id) };
    }
    return undefined;
  }
}
