import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BlockedUrlError, OutboundPolicy } from '../../src/net/address-policy.js';

/** The policy PARLEY_OUTBOUND_ALLOW=`setting` gives, as the server builds it. */
const policyOf = (setting?: string) => new OutboundPolicy(loadConfig(setting === undefined ? {} : { PARLEY_OUTBOUND_ALLOW: setting }).outbound);

/** What the policy makes of a URL as the app receives it: through WHATWG's parser, which undoes some spellings itself. */
const destinationOf = (policy: OutboundPolicy, url: string) => policy.destinationOf(new URL(url));

describe('the default policy (public addresses only) refuses every spelling of a non-public address', () => {
  const policy = policyOf();

  it.each([
    // IPv4 written as one number, in octal, in hex, short, with a trailing dot, percent-encoded.
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['http://0x7f000001/', '127.0.0.1 is a loopback address'],
    ['http://127.1/', '127.0.0.1 is a loopback address'],
    ['http://127.0.0.1./', '127.0.0.1 is a loopback address'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://127.8.9.10:8080/', '127.8.9.10 is a loopback address'],
    // IPv4 inside IPv6: mapped, compatible, translated, NAT64, 6to4.
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/', '::ffff:7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::7f00:1]/', '::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::127.0.0.1]/', '::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::a9fe:a9fe]/', '::a9fe:a9fe is 169.254.169.254 in IPv6 form, a link-local address'],
    ['http://[::ffff:0:7f00:1]/', '::ffff:0:7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[64:ff9b::c0a8:101]/', '64:ff9b::c0a8:101 is 192.168.1.1 in IPv6 form, a private address'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1:: is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[2002:a00:1::1]/', '2002:a00:1::1 is 10.0.0.1 in IPv6 form, a private address'],
    // Tunnels whose far end is not written plainly in the address: never public.
    ['http://[64:ff9b:1::a00:1]/', '64:ff9b:1::a00:1 is a reserved address (rfc6052)'],
    ['http://[2001::1]/', '2001::1 is a reserved address (teredo)'],
    // Nothing, everything, this machine, private networks.
    ['http://0.0.0.0/', '0.0.0.0 is an unspecified address'],
    ['http://0/', '0.0.0.0 is an unspecified address'],
    ['http://[::]/', ':: is an unspecified address'],
    ['http://[::1]/', '::1 is a loopback address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
    ['http://172.16.0.1/', '172.16.0.1 is a private address'],
    ['http://192.168.1.1/', '192.168.1.1 is a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
    ['http://[febf::1]/', 'febf::1 is a link-local address'],
    ['http://[fc00::1]/', 'fc00::1 is a private (unique-local) address'],
    ['http://[fd12:3456::1]/', 'fd12:3456::1 is a private (unique-local) address'],
    ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT address'],
    ['http://100.127.255.254/', '100.127.255.254 is a carrier-grade NAT address'],
    ['http://224.0.0.1/', '224.0.0.1 is a multicast address'],
    ['http://[ff02::1]/', 'ff02::1 is a multicast address'],
    ['http://255.255.255.255/', '255.255.255.255 is the broadcast address'],
    ['http://192.0.2.1/', '192.0.2.1 is a reserved address (reserved)'],
    // Names of this machine, however written.
    ['http://localhost/', 'localhost is this machine'],
    ['http://LOCALHOST:3000/', 'localhost is this machine'],
    ['http://localhost./', 'localhost is this machine'],
    ['http://localhost../', 'localhost is this machine'],
    ['http://foo.localhost/', 'foo.localhost is this machine'],
    ['http://foo.localhost./', 'foo.localhost is this machine'],
  ])('%s', (url, what) => {
    expect(() => destinationOf(policy, url)).toThrow(new BlockedUrlError(`${what}, which PARLEY_OUTBOUND_ALLOW=public does not allow`));
  });

  it.each([
    ['http://93.184.215.14/', '93.184.215.14'],
    ['http://[2606:2800:220:1::]/', '2606:2800:220:1::'],
    ['http://[::ffff:5db8:d70e]/', '::ffff:5db8:d70e'],
    ['http://[64:ff9b::5db8:d70e]/', '64:ff9b::5db8:d70e'],
  ])('lets a public address through: %s', (url, address) => {
    expect(destinationOf(policy, url)).toEqual({ kind: 'address', address });
  });

  it('hands other names on to be looked up, and refuses what they resolve to unless it is public', () => {
    expect(destinationOf(policy, 'https://Hooks.Example.com./x')).toEqual({ kind: 'name', name: 'hooks.example.com' });
    expect(() => policy.checkResolved('hooks.example.com', '93.184.215.14')).not.toThrow();
    for (const [address, what] of [
      ['127.0.0.1', 'a loopback address'],
      ['::ffff:127.0.0.1', '127.0.0.1 in IPv6 form, a loopback address'],
      ['::7f00:1', '127.0.0.1 in IPv6 form, a loopback address'],
      ['64:ff9b::a00:1', '10.0.0.1 in IPv6 form, a private address'],
      ['169.254.169.254', 'a link-local address'],
      ['fd00::1', 'a private (unique-local) address'],
    ]) {
      expect(() => policy.checkResolved('hooks.example.com', address!)).toThrow(
        `hooks.example.com resolves to ${address}, ${what}, which PARLEY_OUTBOUND_ALLOW=public does not allow`,
      );
    }
  });
});

describe('PARLEY_OUTBOUND_ALLOW=loopback, as the tests run', () => {
  const policy = policyOf('loopback');

  it.each(['http://127.0.0.1:8080/hook', 'http://127.8.9.10/', 'http://2130706433/', 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]/'])(
    'allows this machine’s address %s',
    (url) => {
      expect(destinationOf(policy, url).kind).toBe('address');
    },
  );

  it('allows localhost’s names, which are this machine by definition', () => {
    expect(destinationOf(policy, 'http://localhost:3000/')).toEqual({ kind: 'name', name: 'localhost' });
    expect(destinationOf(policy, 'http://hooks.localhost./')).toEqual({ kind: 'name', name: 'hooks.localhost' });
  });

  it.each([
    ['http://93.184.215.14/hook', '93.184.215.14 is a public address'],
    ['http://[2606:2800:220:1::]/', '2606:2800:220:1:: is a public address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
    ['http://0.0.0.0/', '0.0.0.0 is an unspecified address'],
    ['http://[::]/', ':: is an unspecified address'],
    // Reaches (or is relayed to) 127.0.0.1 only through a translator or tunnel elsewhere.
    ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
    ['http://[::7f00:1]/', '::7f00:1 is 127.0.0.1 in IPv6 form, a loopback address'],
  ])('refuses %s', (url, what) => {
    expect(() => destinationOf(policy, url)).toThrow(`${what}, which PARLEY_OUTBOUND_ALLOW=loopback does not allow`);
  });

  it.each(['https://example.com/hook', 'https://api.openai.com/v1', 'http://hooks.example.com./x'])(
    'refuses the name in %s without it being looked up: no address it could have is allowed',
    (url) => {
      expect(() => destinationOf(policy, url)).toThrow(/^[a-z.]+ is not a listed host, which PARLEY_OUTBOUND_ALLOW=loopback does not allow$/);
    },
  );

  it('refuses a localhost name that resolves elsewhere', () => {
    expect(() => policy.checkResolved('hooks.localhost', '93.184.215.14')).toThrow(
      'hooks.localhost resolves to 93.184.215.14, a public address, which PARLEY_OUTBOUND_ALLOW=loopback does not allow',
    );
    expect(() => policy.checkResolved('hooks.localhost', '::1')).not.toThrow();
  });
});

describe('PARLEY_OUTBOUND_ALLOW as a list', () => {
  it('allows listed names wherever they resolve, addresses inside listed ranges, and nothing public unless it says so', () => {
    const policy = policyOf('10.0.0.0/8, 192.168.1.5, hooks.example.com, .corp.example');
    expect(destinationOf(policy, 'http://10.1.2.3/').kind).toBe('address');
    expect(destinationOf(policy, 'http://192.168.1.5/').kind).toBe('address');
    expect(() => destinationOf(policy, 'http://192.168.1.6/')).toThrow(
      '192.168.1.6 is a private address, which PARLEY_OUTBOUND_ALLOW=10.0.0.0/8,192.168.1.5,hooks.example.com,.corp.example does not allow',
    );
    expect(() => destinationOf(policy, 'http://93.184.215.14/')).toThrow(BlockedUrlError);
    expect(() => destinationOf(policy, 'http://127.0.0.1/')).toThrow(BlockedUrlError);
    expect(() => destinationOf(policy, 'http://localhost/')).toThrow(/localhost is this machine/);

    expect(() => policy.checkResolved('hooks.example.com', '169.254.169.254')).not.toThrow();
    expect(() => policy.checkResolved('HOOKS.example.com.', '127.0.0.1')).not.toThrow();
    expect(() => policy.checkResolved('wiki.corp.example', '10.9.9.9')).not.toThrow();
    expect(() => policy.checkResolved('wiki.corp.example', '93.184.215.14')).not.toThrow();
    // A suffix names what is under it, not itself; an unlisted name must resolve inside a listed range.
    expect(() => policy.checkResolved('corp.example', '93.184.215.14')).toThrow(/corp\.example resolves to 93\.184\.215\.14, a public address/);
    expect(() => policy.checkResolved('intranet', '10.20.30.40')).not.toThrow();
    expect(() => policy.checkResolved('evilcorp.example', '93.184.215.14')).toThrow(BlockedUrlError);
  });

  it('adds ranges to public addresses with `public`, and allows everything with `any`', () => {
    const intranet = policyOf('public,10.0.0.0/8');
    expect(destinationOf(intranet, 'http://93.184.215.14/').kind).toBe('address');
    expect(destinationOf(intranet, 'http://10.1.2.3/').kind).toBe('address');
    expect(() => destinationOf(intranet, 'http://192.168.1.1/')).toThrow(BlockedUrlError);
    const any = policyOf('any');
    for (const url of ['http://127.0.0.1/', 'http://169.254.169.254/', 'http://[::ffff:7f00:1]/', 'http://localhost/', 'http://93.184.215.14/']) {
      expect(() => destinationOf(any, url)).not.toThrow();
    }
  });

  it('looks names up only when an address beyond this machine could be allowed', () => {
    expect(() => destinationOf(policyOf('127.0.0.1,::1'), 'https://example.com/')).toThrow(/not a listed host/);
    expect(() => destinationOf(policyOf('hooks.example.com'), 'https://example.com/')).toThrow(/not a listed host/);
    expect(destinationOf(policyOf('127.0.0.1,203.0.113.0/24'), 'https://example.com/')).toEqual({ kind: 'name', name: 'example.com' });
  });
});
