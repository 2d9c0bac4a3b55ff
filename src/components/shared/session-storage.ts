/** The page's sessionStorage, or undefined where reading it throws (sandboxed frames, privacy modes). */
export function pageSessionStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}
