import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'wouter';
import { useLabels, useToggleLabel, type LabelRef } from '../../queries/labels';
import { Icon } from '../../shell/icons';

/** A label's colour dot; the colour is the API's `#rrggbb`. */
export function LabelDot({ color }: { color: string }) {
  return <span className="label-dot" style={{ background: color }} aria-hidden="true" />;
}

/** The labels on a conversation, as chips. */
export function LabelChips({ labels }: { labels: readonly LabelRef[] }) {
  if (labels.length === 0) return null;
  return (
    <ul className="label-chips" aria-label="Labels">
      {labels.map((label) => (
        <li key={label.id} className="label-chip">
          <LabelDot color={label.color} />
          <span className="label-chip-name">{label.name}</span>
        </li>
      ))}
    </ul>
  );
}

/** The thread's labels with a menu that puts the workspace's labels on and takes them off. */
export function ThreadLabels({ conversationId, labels }: { conversationId: string; labels: readonly LabelRef[] }) {
  const all = useLabels();
  const toggle = useToggleLabel(conversationId);
  const on = new Set(labels.map((label) => label.id));
  return (
    <div className="thread-labels">
      <LabelChips labels={labels} />
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="button button-small button-quiet" disabled={toggle.isPending}>
          Labels
          <Icon name="chevron" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
            {(all.data ?? []).map((label) => (
              <DropdownMenu.CheckboxItem
                key={label.id}
                className="menu-item label-menu-item"
                checked={on.has(label.id)}
                onCheckedChange={(checked) => toggle.mutate({ labelId: label.id, on: checked })}
              >
                <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
                <LabelDot color={label.color} />
                {label.name}
              </DropdownMenu.CheckboxItem>
            ))}
            {all.data?.length === 0 && <DropdownMenu.Label className="menu-label">No labels yet</DropdownMenu.Label>}
            <DropdownMenu.Item className="menu-item" asChild>
              <Link href="/settings/labels">Manage labels…</Link>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {toggle.isError && (
        <span className="field-error" role="alert">
          {toggle.error.message}
        </span>
      )}
    </div>
  );
}
