import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { usePageTitle } from './page-title';

interface PageHeaderProps {
  title: string;
  /** The window title when it should differ from the heading. */
  windowTitle?: string;
  description?: ReactNode;
  actions?: ReactNode;
  back?: { href: string; label: string };
}

/** The page's one h1, its window title, a short description and its main actions. */
export function PageHeader({ title, windowTitle, description, actions, back }: PageHeaderProps) {
  usePageTitle(windowTitle ?? title);
  return (
    <header className="page-header">
      {back !== undefined && (
        <Link href={back.href} className="back-link">
          <span aria-hidden="true">← </span>
          {back.label}
        </Link>
      )}
      <div className="page-header-row">
        <h1>{title}</h1>
        {actions !== undefined && <div className="page-actions">{actions}</div>}
      </div>
      {description !== undefined && <p className="page-description">{description}</p>}
    </header>
  );
}
