import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Monotonic, so ids made in the same millisecond still sort in creation order. */
const ulid = monotonicFactory();
/** A new opaque, time-ordered identifier (ULID, lower case so it reads well in URLs). */
export const newId = (): string => ulid().toLowerCase();

/** `bytes` of cryptographic randomness as URL-safe text. */
export const randomToken = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** The current time as the ISO 8601 UTC string every record carries. */
export const now = (): string => new Date().toISOString();
