/** Sends the browser to another site (Visma's authorization page); a module of its own so tests replace it. */
export function goTo(url: string): void {
  window.location.assign(url);
}
