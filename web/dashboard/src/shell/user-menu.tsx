import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useLocation } from 'wouter';
import { useSession } from '../session/session';

const initials = (name: string, email: string) =>
  (name.trim() || email)
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');

/** The signed-in person: their account page and signing out. */
export function UserMenu() {
  const { me, signOut } = useSession();
  const [, navigate] = useLocation();
  const { name, email } = me.user;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="user-button">
        <span className="visually-hidden">Account menu: </span>
        <span className="avatar" aria-hidden="true">
          {initials(name, email)}
        </span>
        <span className="user-name">{name || email}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{email}</DropdownMenu.Label>
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate('/settings/account')}>
            Account
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut()}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
