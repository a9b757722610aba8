/** The part of a mutation a form needs to submit through it. */
interface SubmittingMutation<I> {
  isPending: boolean;
  error: unknown;
  mutate: (input: I) => void;
}

/** A resource form's `pending`, `error` and `onSubmit`, taken from the mutation that saves what it submits. */
export function submitsTo<I>(mutation: SubmittingMutation<I>): { pending: boolean; error: unknown; onSubmit: (input: I) => void } {
  return { pending: mutation.isPending, error: mutation.error, onSubmit: (input) => mutation.mutate(input) };
}
