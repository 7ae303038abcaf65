/**
 * Holds requests a test site receives until the test lets them go, and tells the test when
 * enough are held, without polling.
 */
export class Gate {
  private open = false;
  private held: Array<() => void> = [];
  private watchers: Array<{ count: number; resolve: () => void }> = [];

  /** Requests held right now. */
  get pending(): number {
    return this.held.length;
  }

  /** Holds the caller until `release` or `releaseHeld` (passes at once while the gate is open). */
  async pass(): Promise<void> {
    if (this.open) return;
    const held = new Promise<void>((resolve) => this.held.push(resolve));
    const met = this.watchers.filter((w) => this.held.length >= w.count);
    this.watchers = this.watchers.filter((w) => !met.includes(w));
    for (const w of met) w.resolve();
    await held;
  }

  /** Resolves once `count` requests are held at the same time. */
  waitFor(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  /** Lets every held request go; later ones pass straight through until `close`. */
  release(): void {
    this.open = true;
    this.releaseHeld();
  }

  /** Lets every held request go; later ones are held again. */
  releaseHeld(): void {
    for (const go of this.held.splice(0)) go();
  }

  close(): void {
    this.open = false;
  }
}
