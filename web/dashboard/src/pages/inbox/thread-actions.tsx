import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { FormAlert } from '../../components/form-alert';
import { saveFile } from '../../components/save-file';
import { Icon } from '../../shell/icons';
import { exportConversation, type ConversationDetail, type ConversationPatch, type ConversationUpdate } from '../../queries/conversations';
import type { Member } from '../../queries/members';

interface ThreadActionsProps {
  conversation: ConversationDetail;
  /** The signed-in member's id. */
  myId: string;
  members: readonly Member[];
  /** Runs a change; the thread's keyboard shortcuts go through it too. */
  update: ConversationUpdate;
}

const memberName = (member: Pick<Member, 'name' | 'email'>) => member.name || member.email;

/** What a member does with a conversation: take it over or hand it back, resolve it, assign it, export it. */
export function ThreadActions({ conversation, myId, members, update }: ThreadActionsProps) {
  const [exportError, setExportError] = useState<unknown>(null);
  const change = (patch: ConversationPatch) => update.mutate(patch);
  const busy = update.isPending;
  const assignee = conversation.assignee;
  const assigneeName = assignee === null ? null : members.find((member) => member.id === assignee.id)?.name || assignee.name || 'a former member';

  const download = (format: 'json' | 'html') => {
    setExportError(null);
    exportConversation(conversation.id, format).then(
      (file) => saveFile(file, `conversation-${conversation.id}.${format}`),
      (error: unknown) => setExportError(error),
    );
  };

  return (
    <div className="thread-actions-wrap">
      <div className="thread-actions" role="toolbar" aria-label="Conversation actions">
        {conversation.isAiEnabled ? (
          <button type="button" className="button button-small" onClick={() => change({ isAiEnabled: false })} disabled={busy}>
            Take over
          </button>
        ) : (
          conversation.agent !== null && (
            <button type="button" className="button button-small" onClick={() => change({ isAiEnabled: true })} disabled={busy}>
              Hand back to the agent
            </button>
          )
        )}
        {conversation.status === 'RESOLVED' ? (
          <button type="button" className="button button-small" onClick={() => change({ status: 'UNRESOLVED' })} disabled={busy}>
            Reopen
          </button>
        ) : (
          <button type="button" className="button button-small button-primary" onClick={() => change({ status: 'RESOLVED' })} disabled={busy}>
            Resolve
          </button>
        )}
        {conversation.status !== 'HUMAN_REQUESTED' && (
          <button type="button" className="button button-small" onClick={() => change({ status: 'HUMAN_REQUESTED' })} disabled={busy}>
            Mark human-requested
          </button>
        )}
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="button button-small" disabled={busy}>
            {assigneeName === null ? 'Assign' : `Assigned to ${assigneeName}`}
            <Icon name="chevron" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
              {assignee?.id !== myId && (
                <DropdownMenu.Item className="menu-item" onSelect={() => change({ assigneeId: myId })}>
                  Assign to me
                </DropdownMenu.Item>
              )}
              <DropdownMenu.Label className="menu-label">Assign to</DropdownMenu.Label>
              <DropdownMenu.RadioGroup value={assignee?.id ?? ''} onValueChange={(id) => change({ assigneeId: id })}>
                {members
                  .filter((member) => member.status === 'active')
                  .map((member) => (
                    <DropdownMenu.RadioItem key={member.id} value={member.id} className="menu-item">
                      <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
                      {memberName(member)}
                      {member.id === myId && <span className="menu-hint">you</span>}
                    </DropdownMenu.RadioItem>
                  ))}
              </DropdownMenu.RadioGroup>
              {assignee !== null && (
                <>
                  <DropdownMenu.Separator className="menu-separator" />
                  <DropdownMenu.Item className="menu-item" onSelect={() => change({ assigneeId: null })}>
                    Unassign
                  </DropdownMenu.Item>
                </>
              )}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="button button-small button-quiet">
            Export
            <Icon name="chevron" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
              <DropdownMenu.Item className="menu-item" onSelect={() => download('json')}>
                Export as JSON
              </DropdownMenu.Item>
              <DropdownMenu.Item className="menu-item" onSelect={() => download('html')}>
                Export as HTML
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
      <FormAlert error={update.error ?? exportError} />
    </div>
  );
}
