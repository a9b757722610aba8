import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useRef } from 'react';
import { DialogHead } from '../../components/modal-dialog';

/** The inbox's keyboard shortcuts, all in this file: the list's, the thread's and the help for both. */
export const SHORTCUTS = [
  { key: 'j', does: 'Open the next conversation' },
  { key: 'k', does: 'Open the previous conversation' },
  { key: 'r', does: 'Reply (moves to the reply box)' },
  { key: 'e', does: 'Resolve the conversation' },
  { key: 'a', does: 'Assign the conversation to me' },
  { key: '?', does: 'Show these shortcuts' },
] as const;

export type ShortcutKey = (typeof SHORTCUTS)[number]['key'];

/** Typing in a field, or working in a dialog or a menu, is not a shortcut. */
function ignored(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return true;
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="alertdialog"], [role="menu"]')) return true;
  return document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;
}

/** Runs a binding's action when its key is pressed on the page (the latest actions given). */
export function useKeybinds(bindings: Partial<Record<ShortcutKey, () => void>>): void {
  const latest = useRef(bindings);
  useEffect(() => {
    latest.current = bindings;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (ignored(event)) return;
      const action = latest.current[event.key as ShortcutKey];
      if (action === undefined) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** The list of shortcuts, opened with `?` or its button. */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-small" aria-describedby={undefined}>
          <DialogHead title="Keyboard shortcuts" />
          <table className="table table-compact shortcuts">
            <caption className="visually-hidden">Keyboard shortcuts of the inbox</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Does</th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUTS.map(({ key, does }) => (
                <tr key={key}>
                  <td>
                    <kbd className="kbd">{key}</kbd>
                  </td>
                  <td>{does}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
