import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { DeliveryAttemptRecord, DeliveryChannel, NewDelivery } from '../../src/store/store.js';
import { at, deliveryRecord, jobRecord, twoWorkspaces, useScratchStore, webhookRecord } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

const attempt = (n: number, overrides: Partial<DeliveryAttemptRecord> = {}): DeliveryAttemptRecord => ({
  attempt: n,
  startedAt: at(100 * n),
  durationMs: 120,
  statusCode: 500,
  error: 'HTTP 500',
  responseExcerpt: 'Internal Server Error',
  ...overrides,
});

describe.each(STORE_KINDS)('the deliveries port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  async function create(delivery: NewDelivery, runAt?: string) {
    const job = jobRecord({ kind: 'contract-deliver', workspaceId: delivery.workspaceId, payload: { deliveryId: delivery.id }, runAt });
    const created = await store().deliveries.createWithJob(delivery, job);
    return { created, job };
  }

  async function webhookDelivery(workspaceId: string, overrides: Partial<NewDelivery> = {}) {
    const endpoint = webhookRecord(workspaceId);
    await store().webhooks.create(endpoint);
    const delivery = deliveryRecord(workspaceId, { channel: 'webhook', endpointId: endpoint.id, recipients: null, ...overrides });
    await create(delivery);
    return { endpoint, delivery };
  }

  describe('creating', () => {
    it('writes the delivery, pending and not yet attempted, with the job that sends it', async () => {
      const [a] = await twoWorkspaces(store());
      const delivery = deliveryRecord(a.id, { recipients: ['a@example.com', 'b@example.com'], createdAt: at(5) });
      const { created, job } = await create(delivery);
      expect(created).toBe(true);
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toEqual({
        ...delivery,
        status: 'pending',
        attemptCount: 0,
        lastStatusCode: null,
        lastError: null,
        nextAttemptAt: at(5),
        updatedAt: at(5),
        completedAt: null,
        attempts: [],
      });
      expect(await store().jobs.find(job.id)).toMatchObject({ status: 'queued', payload: { deliveryId: delivery.id } });
    });

    it('is due when its job is', async () => {
      const [a] = await twoWorkspaces(store());
      const delivery = deliveryRecord(a.id, { createdAt: at(5) });
      await create(delivery, at(60));
      expect((await store().deliveries.find(delivery.workspaceId, delivery.id))?.nextAttemptAt).toBe(at(60));
    });

    it('writes nothing, not even a job, when a delivery of that id exists', async () => {
      const [a] = await twoWorkspaces(store());
      const delivery = deliveryRecord(a.id, { body: 'first' });
      await create(delivery);
      const again = await create({ ...delivery, body: 'second' });
      expect(again.created).toBe(false);
      expect(await store().jobs.find(again.job.id)).toBeUndefined();
      expect((await store().deliveries.find(delivery.workspaceId, delivery.id))?.body).toBe('first');
    });

    it('creates a delivery once when two dispatchers hand the same event on at once', async () => {
      const [a] = await twoWorkspaces(store());
      const delivery = deliveryRecord(a.id);
      const attempts = await Promise.all([create(delivery), create(delivery), create(delivery)]);
      expect(attempts.filter((attempt) => attempt.created)).toHaveLength(1);
      const jobs = await Promise.all(attempts.map((attempt) => store().jobs.find(attempt.job.id)));
      expect(jobs.filter((job) => job !== undefined)).toHaveLength(1);
    });
  });

  describe('reading', () => {
    it('finds a delivery by id in its workspace only, and nothing for an unknown id', async () => {
      const [a, b] = await twoWorkspaces(store());
      const delivery = deliveryRecord(b.id);
      await create(delivery);
      expect((await store().deliveries.find(b.id, delivery.id))?.workspaceId).toBe(b.id);
      expect(await store().deliveries.find(a.id, delivery.id)).toBeUndefined();
      expect(await store().deliveries.find(b.id, newId())).toBeUndefined();
    });

    it('lists a workspace’s deliveries newest first, narrowed by endpoint, channel and count', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { endpoint, delivery: hook1 } = await webhookDelivery(a.id, { createdAt: at(10) });
      const hook2 = deliveryRecord(a.id, { channel: 'webhook', endpointId: endpoint.id, recipients: null, createdAt: at(30) });
      await create(hook2);
      const { delivery: otherHook } = await webhookDelivery(a.id, { createdAt: at(20) });
      const mail = deliveryRecord(a.id, { createdAt: at(25) });
      await create(mail);
      await create(deliveryRecord(b.id, { createdAt: at(40) }));
      const ids = async (filter: { endpointId?: string; channel?: DeliveryChannel; limit: number }) =>
        (await store().deliveries.list(a.id, filter)).map((delivery) => delivery.id);
      expect(await ids({ limit: 10 })).toEqual([hook2.id, mail.id, otherHook.id, hook1.id]);
      expect(await ids({ limit: 2 })).toEqual([hook2.id, mail.id]);
      expect(await ids({ endpointId: endpoint.id, limit: 10 })).toEqual([hook2.id, hook1.id]);
      expect(await ids({ channel: 'email', limit: 10 })).toEqual([mail.id]);
      expect(await store().deliveries.list(b.id, { endpointId: endpoint.id, limit: 10 })).toEqual([]);
    });
  });

  describe('attempts and outcomes', () => {
    it('logs each attempt, oldest first, with the outcome it led to', async () => {
      const [a] = await twoWorkspaces(store());
      const { delivery } = await webhookDelivery(a.id);
      await store().deliveries.recordAttempt(delivery.workspaceId, delivery.id, attempt(1), {
        status: 'pending',
        nextAttemptAt: at(160),
        at: at(101),
      });
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toMatchObject({
        status: 'pending',
        attemptCount: 1,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: at(160),
        updatedAt: at(101),
        completedAt: null,
        attempts: [attempt(1)],
      });
      const success = attempt(2, { statusCode: 204, error: null, responseExcerpt: '' });
      await store().deliveries.recordAttempt(delivery.workspaceId, delivery.id, success, { status: 'succeeded', nextAttemptAt: null, at: at(201) });
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toMatchObject({
        status: 'succeeded',
        attemptCount: 2,
        lastStatusCode: 204,
        lastError: null,
        nextAttemptAt: null,
        completedAt: at(201),
        attempts: [attempt(1), success],
      });
    });

    it('logs an attempt that got no answer', async () => {
      const [a] = await twoWorkspaces(store());
      const delivery = deliveryRecord(a.id);
      await create(delivery);
      const refused = attempt(1, { statusCode: null, error: 'connect ECONNREFUSED', responseExcerpt: null });
      await store().deliveries.recordAttempt(delivery.workspaceId, delivery.id, refused, { status: 'failed', nextAttemptAt: null, at: at(300) });
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toMatchObject({
        status: 'failed',
        lastStatusCode: null,
        lastError: 'connect ECONNREFUSED',
        completedAt: at(300),
        attempts: [refused],
      });
    });

    it('settles a delivery without an attempt: a retry scheduled, or given up with its reason', async () => {
      const [a] = await twoWorkspaces(store());
      const delivery = deliveryRecord(a.id);
      await create(delivery);
      await store().deliveries.recordAttempt(delivery.workspaceId, delivery.id, attempt(1), { status: 'pending', nextAttemptAt: null, at: at(101) });
      await store().deliveries.settle(delivery.workspaceId, delivery.id, { status: 'pending', nextAttemptAt: at(400), at: at(102) });
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: at(400),
        updatedAt: at(102),
        lastError: 'HTTP 500',
        attemptCount: 1,
        completedAt: null,
      });
      await store().deliveries.settle(
        delivery.workspaceId,
        delivery.id,
        { status: 'failed', nextAttemptAt: null, at: at(500) },
        'gave up after 1 attempt',
      );
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toMatchObject({
        status: 'failed',
        nextAttemptAt: null,
        lastError: 'gave up after 1 attempt',
        completedAt: at(500),
        attempts: [attempt(1)],
      });
    });
  });

  describe('failing endpoints', () => {
    it('counts each endpoint’s tried deliveries since its newest success, in its own workspace only', async () => {
      const [a, b] = await twoWorkspaces(store());
      const { endpoint, delivery: first } = await webhookDelivery(a.id, { createdAt: at(1) });
      const outcome = (status: 'pending' | 'succeeded' | 'failed') => ({ status, nextAttemptAt: null, at: at(400) });
      const later = async (seconds: number, status: 'pending' | 'succeeded' | 'failed' | 'untried') => {
        const delivery = deliveryRecord(a.id, { channel: 'webhook', endpointId: endpoint.id, recipients: null, createdAt: at(seconds) });
        await create(delivery);
        if (status !== 'untried') await store().deliveries.recordAttempt(a.id, delivery.id, attempt(1), outcome(status));
      };
      await store().deliveries.recordAttempt(a.id, first.id, attempt(1), outcome('failed'));
      expect(await store().deliveries.consecutiveFailures(a.id)).toEqual(new Map([[endpoint.id, 1]]));
      await later(2, 'succeeded');
      expect(await store().deliveries.consecutiveFailures(a.id)).toEqual(new Map());
      // Given up, still being retried, not tried yet (says nothing): two failures since the success.
      await later(3, 'failed');
      await later(4, 'pending');
      await later(5, 'untried');
      const healthy = await webhookDelivery(a.id, { createdAt: at(6) });
      await store().deliveries.recordAttempt(a.id, healthy.delivery.id, attempt(1), outcome('succeeded'));
      expect(await store().deliveries.consecutiveFailures(a.id)).toEqual(new Map([[endpoint.id, 2]]));
      // Another workspace's failures are its own.
      const theirs = await webhookDelivery(b.id, { createdAt: at(7) });
      await store().deliveries.recordAttempt(b.id, theirs.delivery.id, attempt(1), outcome('failed'));
      expect(await store().deliveries.consecutiveFailures(b.id)).toEqual(new Map([[theirs.endpoint.id, 1]]));
      expect(await store().deliveries.consecutiveFailures(a.id)).toEqual(new Map([[endpoint.id, 2]]));
    });
  });

  describe('endpoints', () => {
    it('keeps a disabled endpoint’s log', async () => {
      const [a] = await twoWorkspaces(store());
      const { endpoint, delivery } = await webhookDelivery(a.id);
      await store().webhooks.update(a.id, endpoint.id, { enabled: false }, at(1));
      expect((await store().deliveries.list(a.id, { endpointId: endpoint.id, limit: 10 })).map((found) => found.id)).toEqual([delivery.id]);
    });

    it('drops a deleted endpoint’s deliveries, so their pending retries find nothing', async () => {
      const [a] = await twoWorkspaces(store());
      const { endpoint, delivery } = await webhookDelivery(a.id);
      await store().deliveries.recordAttempt(delivery.workspaceId, delivery.id, attempt(1), {
        status: 'pending',
        nextAttemptAt: at(160),
        at: at(101),
      });
      await store().webhooks.delete(a.id, endpoint.id);
      expect(await store().deliveries.find(delivery.workspaceId, delivery.id)).toBeUndefined();
    });
  });
});
