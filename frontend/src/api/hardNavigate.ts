/** A full page load (not a client-side navigation): used after sign-out and a failed refresh. */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};
