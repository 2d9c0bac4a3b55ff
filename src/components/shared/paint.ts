/**
 * Settles once the browser has painted the next frame: a task queued from an animation-frame
 * callback runs after that frame is drawn. Where no frame comes (a page in a background tab does
 * not paint), it settles after `limitMs` instead, so nothing waits on it for ever.
 */
export function afterNextPaint(limitMs = 200): Promise<void> {
  return new Promise((resolve) => {
    const limit = setTimeout(resolve, limitMs);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(limit);
        resolve();
      }, 0),
    );
  });
}
