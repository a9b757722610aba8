import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the instance secrets port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('makes the first candidate the secret and returns it to every later caller', async () => {
    const name = `visitor-token-${newId()}`;
    expect(await store().secrets.getOrCreate(name, 'first', at(0))).toBe('first');
    expect(await store().secrets.getOrCreate(name, 'second', at(1))).toBe('first');
  });

  it('gives processes starting together one secret, whichever candidate landed first', async () => {
    const name = `visitor-token-${newId()}`;
    const candidates = ['c1', 'c2', 'c3', 'c4', 'c5'];
    const answers = await Promise.all(candidates.map((candidate) => store().secrets.getOrCreate(name, candidate, at(0))));
    expect(new Set(answers).size).toBe(1);
    expect(candidates).toContain(answers[0]);
  });

  it('keeps secrets of different names apart', async () => {
    const [one, two] = [`a-${newId()}`, `b-${newId()}`];
    await store().secrets.getOrCreate(one, 'value one', at(0));
    expect(await store().secrets.getOrCreate(two, 'value two', at(0))).toBe('value two');
    expect(await store().secrets.getOrCreate(one, 'other', at(0))).toBe('value one');
  });
});
