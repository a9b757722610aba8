import type { ReactNode } from 'react';
import { usePageTitle } from '../../components/page-title';

/** The centred card of the pages used without a session. */
export function AuthLayout({ title, intro, children, footer }: { title: string; intro?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  usePageTitle(title);
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <p className="brand auth-brand">Parley</p>
        <h1>{title}</h1>
        {intro !== undefined && <p className="auth-intro">{intro}</p>}
        {children}
      </div>
      {footer !== undefined && <div className="auth-footer">{footer}</div>}
    </main>
  );
}
