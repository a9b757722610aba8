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
  /** The methods that answer without a key at this path: a key route on the same path (PATCH /agents/{id}) is not among them. */
  methods: readonly string[];
}

interface PublicPath {
  resource: PublicResource;
  methods: string[];
}

/**
 * The routes that answer callers without a key, found by path before routing is done (CORS preflights
 * reach no route of their own). Filled from each route's `publicResource` as the routes are registered.
 */
export class PublicRoutes {
  readonly #patterns = new Map<string, PublicPath & { pattern: RegExp }>();
  /** Paths without an id; they win over a pattern the same path matches (`/conversations/eval-answer`). */
  readonly #paths = new Map<string, PublicPath>();

  /** `url` as Fastify registers it, with `:id` where the resource's id goes. */
  add(url: string, resource: PublicResource, methods: readonly string[]): void {
    const known = this.#paths.get(url) ?? this.#patterns.get(url);
    if (known !== undefined) {
      known.methods.push(...methods);
      return;
    }
    if (!url.split('/').includes(':id')) {
      this.#paths.set(url, { resource, methods: [...methods] });
      return;
    }
    const source = url
      .split('/')
      .map((part) => (part === ':id' ? '([^/?#]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.#patterns.set(url, { pattern: new RegExp(`^${source}$`), resource, methods: [...methods] });
  }

  match(url: string): PublicTarget | undefined {
    const path = url.split('?')[0] ?? '';
    const known = this.#paths.get(path);
    if (known !== undefined) return { resource: known.resource, id: undefined, methods: known.methods };
    for (const { pattern, resource, methods } of this.#patterns.values()) {
      const id = pattern.exec(path)?.[1];
      if (id !== undefined) return { resource, id: decodeURIComponent(id), methods };
    }
    return undefined;
  }
}
