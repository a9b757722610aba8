import { useSyncExternalStore } from 'react';

/** Whether this browser tells the member, on their say-so, that a conversation asks for a person. */
export interface AlertSettings {
  /** A desktop notification (the browser's permission is asked when it is turned on). */
  desktop: boolean;
  /** A short chime too. */
  sound: boolean;
}

const KEY = 'parley.alerts';
const OFF: AlertSettings = { desktop: false, sound: false };

function read(): AlertSettings {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (typeof stored !== 'object' || stored === null) return OFF;
    const { desktop, sound } = stored as Partial<Record<keyof AlertSettings, unknown>>;
    return { desktop: desktop === true, sound: sound === true };
  } catch {
    return OFF;
  }
}

let current = read();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the dashboard changed them.
  const fromStorage = (event: StorageEvent) => {
    if (event.key !== KEY) return;
    current = read();
    listener();
  };
  window.addEventListener('storage', fromStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromStorage);
  };
}

/** The settings as remembered in this browser (localStorage). */
export const getAlertSettings = (): AlertSettings => current;

export function setAlertSettings(change: Partial<AlertSettings>): void {
  current = { ...current, ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Storage refused (a private window): the choice lasts as long as the page.
  }
  for (const listener of listeners) listener();
}

export const useAlertSettings = (): AlertSettings => useSyncExternalStore(subscribe, getAlertSettings);
