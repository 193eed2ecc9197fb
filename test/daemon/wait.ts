/**
 * Polls an observable condition until it holds (never a fixed sleep standing in for an event). `what` may be a
 * function: it is read when the wait times out, so a message quoting logs shows the logs at that moment.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string | (() => string),
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
