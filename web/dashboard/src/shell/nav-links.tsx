import { Link, useLocation } from 'wouter';
import { Icon, type IconName } from './icons';
import { InboxBadge } from './inbox-badge';

/** The dashboard's sections. `also`: another path the section owns. */
const SECTIONS: ReadonlyArray<{ href: string; label: string; icon: IconName; also?: string }> = [
  { href: '/inbox', label: 'Inbox', icon: 'inbox', also: '/conversations/' },
  { href: '/agents', label: 'Agents', icon: 'agents' },
  { href: '/datastores', label: 'Datastores', icon: 'datastores' },
  { href: '/analytics', label: 'Analytics', icon: 'analytics' },
  { href: '/settings', label: 'Settings', icon: 'settings' },
];

export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  return (
    <ul className="nav-links">
      {SECTIONS.map(({ href, label, icon, also }) => {
        const current = location === href || location.startsWith(`${href}/`) || (also !== undefined && location.startsWith(also));
        return (
          <li key={href}>
            <Link href={href} className="nav-link" aria-current={current ? 'page' : undefined} onClick={onNavigate}>
              <Icon name={icon} />
              {label}
              {href === '/inbox' && <InboxBadge />}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
