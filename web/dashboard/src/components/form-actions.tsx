import type { ReactNode } from 'react';

interface SubmitActionsProps {
  /** While the request runs: the button is disabled and says what it is doing. */
  pending: boolean;
  label: string;
  pendingLabel?: string;
  /** Buttons after the submit button (e.g. "Discard changes"). */
  children?: ReactNode;
}

/** The buttons under a form: its submit button first. */
export function SubmitActions({ pending, label, pendingLabel = 'Saving…', children }: SubmitActionsProps) {
  return (
    <div className="form-actions">
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? pendingLabel : label}
      </button>
      {children}
    </div>
  );
}

/** The one button under what a dialog shows once (a secret, a link): it closes the dialog. */
export function DoneAction({ close }: { close: () => void }) {
  return (
    <div className="form-actions">
      <button type="button" className="button button-primary" onClick={close}>
        Done
      </button>
    </div>
  );
}
