/** `#rrggbb` only: the colour goes into the stylesheet, so nothing else may. */
export function accentOf(color: string | undefined, fallback = '#2563eb'): string {
  return color && /^#[0-9a-f]{6}$/i.test(color) ? color : fallback;
}

function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White on the accent when that reads at AA (4.5:1), near-black otherwise. */
export function onAccent(accent: string): string {
  return 1.05 / (luminance(accent) + 0.05) >= 4.5 ? '#ffffff' : '#111111';
}
