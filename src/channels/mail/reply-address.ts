/**
 * The reply address `local+<conversation>@domain`: when a mail program drops the threading headers, the
 * tag still names the conversation. Only tags shaped like Parley's ids count, so `me+shop@…` is no hint.
 */
const TAG = /^[a-z0-9_]{8,64}$/;

/** The conversation tag of `address`, or null when it has none (or one that is not an id of ours). */
export function conversationTagOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  const local = address.slice(0, at);
  const plus = local.indexOf('+');
  if (plus < 0) return null;
  // Some servers keep the case the sender typed; Parley's ids are lower case.
  const tag = local.slice(plus + 1).toLowerCase();
  return TAG.test(tag) ? tag : null;
}

/** `address` with `conversationId` as its tag, or null when the id cannot be a tag. */
export function taggedAddress(address: string, conversationId: string): string | null {
  const tag = conversationId.toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0 || !TAG.test(tag)) return null;
  const local = address.slice(0, at).split('+', 1)[0];
  return `${local}+${tag}@${address.slice(at + 1)}`;
}

/** `local+tag@domain` → `local@domain`, lower case: the address a tagged reply address stands for. */
export function untaggedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return address.toLowerCase();
  return `${address.slice(0, at).split('+', 1)[0]}${address.slice(at)}`.toLowerCase();
}
