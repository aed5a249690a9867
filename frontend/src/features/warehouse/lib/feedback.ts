/** A short tone and vibration after a scan: high and short when accepted, low and double when refused. */
let audio: AudioContext | null = null;

function tone(frequency: number, start: number, duration: number) {
  if (!audio) return;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = frequency;
  oscillator.type = 'square';
  gain.gain.value = 0.05;
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(audio.currentTime + start);
  oscillator.stop(audio.currentTime + start + duration);
}

export function scanFeedback(ok: boolean): void {
  try {
    const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (Context) {
      audio ??= new Context();
      if (ok) tone(1200, 0, 0.08);
      else {
        tone(220, 0, 0.15);
        tone(220, 0.22, 0.15);
      }
    }
  } catch {
    // No sound available: the message on screen still tells.
  }
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') {
    navigator.vibrate(ok ? 60 : [120, 80, 120]);
  }
}
