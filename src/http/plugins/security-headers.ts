import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

type CspDirectives = Record<string, string[]>;

/** What a part of the site changes in the headers below: usually its Content-Security-Policy. */
type SectionHeaders = Omit<FastifyHelmetOptions, 'global' | 'enableCSPNonces'>;

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

/**
 * Security headers on every answer, errors and 404s included: nosniff, a Content-Security-Policy that
 * forbids framing, `X-Frame-Options: DENY` for browsers without frame-ancestors, no X-Powered-By, and
 * `Referrer-Policy: no-referrer`: neither the API nor the docs link anywhere that needs to know where a
 * visitor came from, and URLs here carry ids and cursors. No HSTS: Parley speaks plain HTTP, and the
 * proxy that terminates TLS is the one to send it. Registered before any route, so the sections'
 * policies reach the routes as they are added.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const section = SECTIONS.find(({ prefix }) => within(route.url, prefix));
    if (section !== undefined && route.helmet === undefined) route.helmet = section.headers;
  });
  await app.register(helmet, {
    contentSecurityPolicy: policy(API_CSP),
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
}
