import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState } from 'react';
import { setAlertSettings, useAlertSettings } from '../../live/alert-settings';
import { playChime, unlockChime } from '../../live/chime';
import { Icon } from '../../shell/icons';

const canNotify = () => 'Notification' in window;

/**
 * Whether this browser alerts the member when a conversation asks for a person: a desktop notification
 * (the browser asks for permission the first time) and a chime. Remembered in this browser.
 */
export function AlertMenu() {
  const settings = useAlertSettings();
  const [problem, setProblem] = useState('');
  const on = settings.desktop || settings.sound;

  const toggleDesktop = async (wanted: boolean) => {
    setProblem('');
    if (!wanted) return setAlertSettings({ desktop: false });
    if (!canNotify()) return setProblem('This browser does not show desktop notifications.');
    const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    if (permission !== 'granted') return setProblem('Notifications are blocked for this site: allow them in the browser’s site settings.');
    setAlertSettings({ desktop: true });
  };

  const toggleSound = (wanted: boolean) => {
    setAlertSettings({ sound: wanted });
    if (wanted) {
      // This click is what lets later chimes play; it also lets the member hear it.
      unlockChime();
      playChime();
    }
  };

  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="button button-small button-quiet">
          Alerts {on ? 'on' : 'off'}
          <Icon name="chevron" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
            <DropdownMenu.Label className="menu-label">When a conversation asks for a person</DropdownMenu.Label>
            <DropdownMenu.CheckboxItem className="menu-item" checked={settings.desktop} onCheckedChange={(checked) => void toggleDesktop(checked)}>
              <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
              Desktop notification
            </DropdownMenu.CheckboxItem>
            <DropdownMenu.CheckboxItem className="menu-item" checked={settings.sound} onCheckedChange={toggleSound}>
              <DropdownMenu.ItemIndicator className="menu-check">✓</DropdownMenu.ItemIndicator>
              Sound
            </DropdownMenu.CheckboxItem>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {problem !== '' && (
        <p className="field-error inbox-alert-problem" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
