import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { MobileNav } from './mobile-nav';
import { NavLinks } from './nav-links';
import { UserMenu } from './user-menu';
import { WorkspaceSwitcher } from './workspace-switcher';

/**
 * The frame of every workspace page: a skip link, the navigation (a sidebar, or a drawer on narrow
 * screens), the account menu and the page. After a navigation, focus moves to the new page.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const main = useRef<HTMLElement>(null);
  // The page last shown: focus moves only when another is shown, not when the shell mounts or an effect reruns.
  const shown = useRef(location);
  useEffect(() => {
    if (shown.current === location) return;
    shown.current = location;
    main.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [location]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <div className="sidebar">
          <Link href="/agents" className="brand">
            Parley
          </Link>
          <WorkspaceSwitcher />
          <nav aria-label="Main">
            <NavLinks />
          </nav>
        </div>
        <div className="shell-body">
          <header className="topbar">
            <MobileNav />
            <span className="brand topbar-brand" aria-hidden="true">
              Parley
            </span>
            <UserMenu />
          </header>
          <main id="main" className="page" tabIndex={-1} ref={main}>
            {children}
          </main>
        </div>
      </div>
    </>
  );
}
