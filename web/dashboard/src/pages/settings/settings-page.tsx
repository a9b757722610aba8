import { Link, Route, Switch, useLocation } from 'wouter';
import { usePageTitle } from '../../components/page-title';
import { NotFoundPage } from '../not-found-page';
import { AccountSection } from './account-section';
import { KeysSection } from './keys-section';
import { LabelsSection } from './labels-section';
import { SavedRepliesSection } from './saved-replies-section';
import { MembersSection } from './members-section';
import { ModelsSection } from './models-section';
import { WebhookSection } from './webhook-section';
import { WebhooksSection } from './webhooks-section';
import { WorkspaceSection } from './workspace-section';

const SECTIONS = [
  { href: '/settings/keys', label: 'API keys', section: KeysSection },
  { href: '/settings/members', label: 'Members', section: MembersSection },
  { href: '/settings/models', label: 'Models', section: ModelsSection },
  { href: '/settings/saved-replies', label: 'Saved replies', section: SavedRepliesSection },
  { href: '/settings/labels', label: 'Labels', section: LabelsSection },
  { href: '/settings/webhooks', label: 'Webhooks', section: WebhooksSection },
  { href: '/settings/workspace', label: 'Workspace', section: WorkspaceSection },
  { href: '/settings/account', label: 'Account', section: AccountSection },
] as const;

/** The settings sections (`/settings/{keys|members|models|saved-replies|labels|webhooks|workspace|account}`), one link each. */
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
        {SECTIONS.map(({ href, section }) => (
          <Route key={href} path={href} component={section} />
        ))}
        <Route path="/settings/webhooks/:id" component={WebhookSection} />
        <Route component={NotFoundPage} />
      </Switch>
    </>
  );
}
