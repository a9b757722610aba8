import { Link, useLocation } from 'wouter';
import { Icon, type IconName } from './icons';

/** The dashboard's sections; Inbox joins when it exists. */
const SECTIONS: ReadonlyArray<{ href: string; label: string; icon: IconName }> = [
  { href: '/agents', label: 'Agents', icon: 'agents' },
  { href: '/datastores', label: 'Datastores', icon: 'datastores' },
  { href: '/analytics', label: 'Analytics', icon: 'analytics' },
  { href: '/settings', label: 'Settings', icon: 'settings' },
];

export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const [location] = useLocation();
  return (
    <ul className="nav-links">
      {SECTIONS.map(({ href, label, icon }) => {
        const current = location === href || location.startsWith(`${href}/`);
        return (
          <li key={href}>
            <Link href={href} className="nav-link" aria-current={current ? 'page' : undefined} onClick={onNavigate}>
              <Icon name={icon} />
              {label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
