import { describe, expect, it } from 'vitest';
import { createSignals } from '../../src/domain/signals.js';

describe('Signals', () => {
  it('tells every subscriber of a notice, with its arguments, until it stops hearing', () => {
    const { datasourceSuperseded, jobEnqueued } = createSignals();
    const heard: string[] = [];
    const stopFirst = datasourceSuperseded.subscribe((id, live) => heard.push(`first ${id} ${live}`));
    datasourceSuperseded.subscribe((id, live) => heard.push(`second ${id} ${live}`));
    datasourceSuperseded.notify('ds_1', 2);
    stopFirst();
    datasourceSuperseded.notify('ds_2');
    // Another kind of news reaches only its own subscribers.
    jobEnqueued.notify();
    expect(heard).toEqual(['first ds_1 2', 'second ds_1 2', 'second ds_2 undefined']);
  });
});
