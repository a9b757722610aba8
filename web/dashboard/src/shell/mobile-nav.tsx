import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Icon } from './icons';
import { NavLinks } from './nav-links';
import { WorkspaceSwitcher } from './workspace-switcher';

/** Under 720 px the navigation moves into a drawer behind a menu button. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="icon-button menu-button" aria-label="Open the menu">
        <Icon name="menu" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="drawer" aria-describedby={undefined}>
          <div className="drawer-head">
            <Dialog.Title className="brand">Parley</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close the menu">
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          <WorkspaceSwitcher />
          <nav aria-label="Main">
            <NavLinks onNavigate={() => setOpen(false)} />
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
