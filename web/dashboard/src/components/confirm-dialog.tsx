import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState, type ReactElement, type ReactNode } from 'react';
import { FormAlert } from './form-alert';

interface ConfirmDialogProps {
  /** The button that opens the dialog. */
  trigger: ReactElement;
  /** A question naming the thing, e.g. `Delete the agent “Support”?` */
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Runs the action; the dialog stays open with the API's message when it fails. */
  onConfirm: () => Promise<unknown>;
  /** Choices that go with the action (shown between the description and the buttons). */
  children?: ReactNode;
}

/** Confirmation of a destructive action: names what goes, stays open until it is done, shows why it failed. */
export function ConfirmDialog({ trigger, title, description, confirmLabel, onConfirm, children }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        setError(null);
      }}
    >
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog dialog-small">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">{description}</AlertDialog.Description>
          {children}
          <FormAlert error={error} />
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <button type="button" className="button" disabled={pending}>
                Cancel
              </button>
            </AlertDialog.Cancel>
            <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={pending} aria-busy={pending}>
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** The usual trigger of a row's destructive action: a small quiet red button; `name` says which row it acts on. */
export function rowDangerButton(label: string, name?: string): ReactElement {
  return (
    <button type="button" className="button button-small button-danger-quiet" aria-label={name}>
      {label}
    </button>
  );
}
