import { EventEmitter } from 'node:events';

/**
 * What a loopback peer (webhook receiver, SMTP sink) has received, in order, with a wait for the n-th
 * arrival that is woken by the arrival itself: no polling, and no test runner needed (the bench uses it too).
 */
export class Arrivals<T> {
  readonly items: T[] = [];
  readonly #arrived = new EventEmitter();

  push(item: T): void {
    this.items.push(item);
    this.#arrived.emit('arrived');
  }

  /** Resolves with the first `count` items once they are there; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.items.length < count) return false;
        clearTimeout(timer);
        this.#arrived.off('arrived', check);
        resolve(this.items.slice(0, count));
        return true;
      };
      const timer = setTimeout(() => {
        this.#arrived.off('arrived', check);
        reject(new Error(`${count} expected within ${timeoutMs} ms; ${this.items.length} arrived`));
      }, timeoutMs);
      if (!check()) this.#arrived.on('arrived', check);
    });
  }
}
