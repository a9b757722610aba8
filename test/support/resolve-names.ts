import dns from 'node:dns';
import { vi } from 'vitest';

export type LookupAnswer = { address: string; family: number }[];

/**
 * The system resolver, answering chosen names as a DNS server would (the machine has no DNS of its own):
 * both the promise API (checked when an endpoint is saved) and the callback API (a socket's own lookup).
 * Other names go to the real resolver. Every name asked, of either API, is recorded in `asked`, so a test
 * can show that a name was refused before anyone looked it up. Undo with `vi.restoreAllMocks()`.
 */
export function resolveNames(answers: Record<string, LookupAnswer>): { asked: string[] } {
  const asked: string[] = [];
  const promiseLookup = dns.promises.lookup.bind(dns.promises);
  vi.spyOn(dns.promises, 'lookup').mockImplementation(((hostname: string, options: dns.LookupAllOptions) => {
    asked.push(hostname);
    return answers[hostname] ? Promise.resolve(answers[hostname]) : promiseLookup(hostname, options);
  }) as typeof dns.promises.lookup);
  const callbackLookup = dns.lookup.bind(dns);
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const answer = answers[hostname];
    if (answer === undefined) return callbackLookup(hostname, options as dns.LookupAllOptions, callback as never);
    process.nextTick(() => callback(null, answer));
  }) as typeof dns.lookup);
  return { asked };
}
