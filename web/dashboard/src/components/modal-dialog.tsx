import * as Dialog from '@radix-ui/react-dialog';
import { useState, type ReactElement, type ReactNode } from 'react';

interface ModalDialogProps {
  trigger: ReactElement;
  title: string;
  description?: ReactNode;
  /** The dialog's body; `close` shuts it (after a successful submit). */
  children: (close: () => void) => ReactNode;
  wide?: boolean;
  /** Open on arrival (a link that leads straight to the form). */
  defaultOpen?: boolean;
  /** Told when it opens or closes. */
  onOpenChange?: (open: boolean) => void;
}

/** A dialog holding a form or a viewer, with focus kept inside and Escape to close. */
export function ModalDialog({ trigger, title, description, children, wide = false, defaultOpen = false, onOpenChange }: ModalDialogProps) {
  const [open, setOpenState] = useState(defaultOpen);
  const setOpen = (next: boolean) => {
    setOpenState(next);
    onOpenChange?.(next);
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={wide ? 'dialog dialog-wide' : 'dialog'} {...(description === undefined ? { 'aria-describedby': undefined } : {})}>
          <DialogHead title={title} />
          {description !== undefined && <Dialog.Description className="dialog-description">{description}</Dialog.Description>}
          {open && children(() => setOpen(false))}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A dialog's title and the button that closes it (inside a Radix `Dialog.Content`). */
export function DialogHead({ title }: { title: string }) {
  return (
    <div className="dialog-head">
      <Dialog.Title className="dialog-title">{title}</Dialog.Title>
      <Dialog.Close asChild>
        <button type="button" className="icon-button" aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
      </Dialog.Close>
    </div>
  );
}
