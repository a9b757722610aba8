import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type CspDirectives = Record<string, string[]>;

/** What a part of the site changes in the headers below: usually its Content-Security-Policy. */
interface SectionHeaders {
  contentSecurityPolicy?: { useDefaults: boolean; directives: CspDirectives };
  crossOriginResourcePolicy?: { policy: 'cross-origin' };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The security headers of the route's part of the site, worked out once when the route is added. */
    securityHeaders?: Readonly<Record<string, string>>;
  }
}

/** JSON answers load nothing, submit nothing and are never framed. */
const API_CSP: CspDirectives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * swagger-ui loads its scripts, styles, fonts and the spec from its own origin, has images inlined as
 * data: URIs in its CSS, and writes `style="text-align: …"` attributes into the Markdown tables it
 * renders (so inline styles, never inline scripts).
 */
const DOCS_CSP: CspDirectives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

/** The dashboard's own scripts and styles only (its build inlines nothing); it talks to this origin alone. */
const DASHBOARD_CSP: CspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
};

/** Exactly these directives: helmet's defaults are for HTML pages and would loosen the API's. */
const policy = (directives: CspDirectives) => ({ useDefaults: false, directives });

/**
 * Parts of the site that serve pages instead of JSON, by path prefix (a prefix without a trailing
 * slash also covers the path itself). Each page kind states its own policy here; the chat widget's
 * script is loaded by other sites' pages, which helmet's default `Cross-Origin-Resource-Policy:
 * same-origin` would refuse (it keeps the API's CSP: a script's own CSP header governs nothing).
 */
const SECTIONS: ReadonlyArray<{ prefix: string; headers: SectionHeaders }> = [
  { prefix: '/docs', headers: { contentSecurityPolicy: policy(DOCS_CSP) } },
  { prefix: '/dashboard/', headers: { contentSecurityPolicy: policy(DASHBOARD_CSP) } },
  { prefix: '/widget.js', headers: { crossOriginResourcePolicy: { policy: 'cross-origin' } } },
];

const within = (url: string, prefix: string): boolean =>
  prefix.endsWith('/') ? url.startsWith(prefix) : url === prefix || url.startsWith(`${prefix}/`);

/** A year, this host and the names under it; no `preload`, which an operator asks browsers for on purpose. */
const HSTS = { maxAge: 31_536_000, includeSubDomains: true, preload: false } as const;

/**
 * Security headers on every answer, errors and 404s included: nosniff, a Content-Security-Policy that
 * forbids framing, `X-Frame-Options: DENY` for browsers without frame-ancestors, no X-Powered-By, and
 * `Referrer-Policy: no-referrer`: neither the API nor the docs link anywhere that needs to know where a
 * visitor came from, and URLs here carry ids and cursors. `Strict-Transport-Security` when Parley serves
 * HTTPS itself (`https`: then it speaks nothing else on its port); behind a proxy that terminates TLS it is
 * the proxy's to send, even when X-Forwarded-Proto says https: a second header from us would come first,
 * and browsers heed only the first, so an operator could not lower or withdraw it at the proxy.
 * Registered before any route, so the sections' policies reach the routes as they are added.
 */
export async function registerSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }): Promise<void> {
  const global = {
    contentSecurityPolicy: policy(API_CSP),
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? HSTS : false,
  } as const;
  const apiHeaders = headersOf(global);
  const sectionHeaders = SECTIONS.map(({ prefix, headers }) => ({ prefix, headers: headersOf({ ...global, ...headers }) }));
  app.addHook('onRoute', (route) => {
    const section = sectionHeaders.find(({ prefix }) => within(route.url, prefix));
    route.config = { ...route.config, securityHeaders: section?.headers ?? apiHeaders };
  });
  // The not-found handler's answers have no route config: they are API answers.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.routeOptions.config.securityHeaders ?? apiHeaders);
    done();
  });
}

/**
 * The headers helmet sets with these options, recorded once: helmet's middleware builds its headers
 * from the options alone, so doing it per request (as @fastify/helmet does) repeats the same work.
 */
function headersOf(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return Object.freeze(headers);
}
