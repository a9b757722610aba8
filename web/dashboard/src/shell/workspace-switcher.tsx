import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useSession } from '../session/session';
import { Icon } from './icons';

const ROLE_LABELS = { owner: 'Owner', admin: 'Admin', member: 'Member' } as const;

/** The workspace in use; a member of several picks another here (which mints a token for it). */
export function WorkspaceSwitcher() {
  const { me, workspace, switchWorkspace } = useSession();
  const current = (
    <>
      <span className="workspace-name" title={workspace.workspaceName}>
        {workspace.workspaceName}
      </span>
      <span className="workspace-role">{ROLE_LABELS[workspace.role]}</span>
    </>
  );
  if (me.memberships.length < 2) {
    return (
      <div className="workspace-switcher">
        <span className="workspace-label">Workspace</span>
        {current}
      </div>
    );
  }
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="workspace-switcher workspace-switcher-button">
        <span className="workspace-label">Workspace</span>
        {current}
        <Icon name="chevron" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">Switch workspace</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={workspace.workspaceId} onValueChange={switchWorkspace}>
            {me.memberships.map((membership) => (
              <DropdownMenu.RadioItem key={membership.workspaceId} value={membership.workspaceId} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
                {membership.workspaceName}
                <span className="menu-hint">{ROLE_LABELS[membership.role]}</span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
