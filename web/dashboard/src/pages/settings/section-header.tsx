import type { ReactNode } from 'react';

/** The heading of a settings section, its purpose and its main action. */
export function SectionHeader({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="section-header">
      <div>
        <h2>{title}</h2>
        {description !== undefined && <p className="muted">{description}</p>}
      </div>
      {action}
    </div>
  );
}

/** Shown instead of controls a member's role does not allow. */
export function AdminsOnly({ what }: { what: string }) {
  return (
    <div className="alert alert-info" role="note">
      Only owners and admins can manage {what}. Ask one of them if something needs to change.
    </div>
  );
}
