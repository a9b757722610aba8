/** The chime of an alert, synthesised with WebAudio: no audio file to fetch. */
let context: AudioContext | undefined;

/**
 * Browsers let a page make sound only after the person interacted with it: call this from a click (the
 * switch that turns the sound on) so that later chimes, which come from events, may play.
 */
export function unlockChime(): void {
  context ??= new AudioContext();
  void context.resume();
}

/** Two short sine notes, falling a fourth, softly faded in and out. */
export function playChime(): void {
  context ??= new AudioContext();
  void context.resume();
  const start = context.currentTime + 0.02;
  for (const [index, frequency] of [880, 660].entries()) {
    const at = start + index * 0.16;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.32);
  }
}
