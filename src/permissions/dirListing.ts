// A directory's entry names, listed again only when the directory changed (issue 32: the credential
// list looks for Kerberos caches in /tmp on every sandboxed call and every file-tool check, and a
// shared /tmp holds hundreds of entries). The answer is kept with the directory's (dev, ino, size,
// mtime, ctime): an entry added, removed or renamed there sets its mtime and ctime to now, and
// nothing sets ctime back. A listing is kept only once the directory has been still for a while:
// two changes within one tick of the file system's clock can leave the same times, so a directory
// that changed just now is listed again on every call until it settles.
import { readdirSync, statSync } from 'node:fs';

/** How long a directory must have been unchanged before its listing is kept. */
const SETTLED_MS = 2_000;

const listings = new Map<string, { stamp: string; names: readonly string[] }>();

/** readdirSync(dir)'s names (throws as it does), from the kept listing while the directory is unchanged. */
export function directoryNames(dir: string): readonly string[] {
  const st = statSync(dir);
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const kept = listings.get(dir);
  if (kept?.stamp === stamp) return kept.names;
  const names = readdirSync(dir);
  if (Date.now() - Math.max(st.mtimeMs, st.ctimeMs) > SETTLED_MS) listings.set(dir, { stamp, names });
  else listings.delete(dir);
  return names;
}
