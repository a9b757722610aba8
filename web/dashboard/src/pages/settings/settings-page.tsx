import { Link, Route, Switch, useLocation } from 'wouter';
import { usePageTitle } from '../../components/page-title';
import { NotFoundPage } from '../not-found-page';
import { AccountSection } from './account-section';
import { KeysSection } from './keys-section';
import { MembersSection } from './members-section';
import { ModelsSection } from './models-section';
import { WebhookSection } from './webhook-section';
import { WebhooksSection } from './webhooks-section';
import { WorkspaceSection } from './workspace-section';

const SECTIONS = [
  { href: '/settings/keys', label: 'API keys' },
  { href: '/settings/members', label: 'Members' },
  { href: '/settings/models', label: 'Models' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/workspace', label: 'Workspace' },
  { href: '/settings/account', label: 'Account' },
] as const;

/** The settings sections (`/settings/{keys|members|models|webhooks|workspace|account}`), one link each. */
export function SettingsPage() {
  const [location] = useLocation();
  const current = SECTIONS.find(({ href }) => location === href || location.startsWith(`${href}/`));
  usePageTitle(current === undefined ? 'Settings' : `${current.label} — Settings`);
  if (current === undefined) return <NotFoundPage />;
  return (
    <>
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <nav className="subnav" aria-label="Settings">
        <ul>
          {SECTIONS.map(({ href, label }) => (
            <li key={href}>
              <Link href={href} className="subnav-link" aria-current={href === current.href ? 'page' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Switch>
        <Route path="/settings/keys" component={KeysSection} />
        <Route path="/settings/members" component={MembersSection} />
        <Route path="/settings/models" component={ModelsSection} />
        <Route path="/settings/webhooks" component={WebhooksSection} />
        <Route path="/settings/webhooks/:id" component={WebhookSection} />
        <Route path="/settings/workspace" component={WorkspaceSection} />
        <Route path="/settings/account" component={AccountSection} />
        <Route component={NotFoundPage} />
      </Switch>
    </>
  );
}
