import { counted } from '../../components/counted';

/** "the last delivery" or "the last 3 deliveries": how an endpoint's failing streak is told, on its page and in the list. */
export const lastDeliveries = (count: number): string => (count === 1 ? 'the last delivery' : `the last ${counted(count, 'delivery', 'deliveries')}`);
