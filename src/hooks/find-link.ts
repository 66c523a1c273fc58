import { readPath } from './read-path.js';

// Where senders put the page a payload is about, most specific first (GitHub's objects, a push's compare view).
const linkPaths = ['pull_request.html_url', 'issue.html_url', 'workflow_run.html_url', 'check_run.html_url', 'release.html_url', 'discussion.html_url', 'comment.html_url', 'compare', 'html_url', 'repository.html_url'];

/** A link back to what the payload is about, when it has an http(s) one; undefined otherwise. Pure. */
export function findLink(body: unknown): string | undefined {
  for (const path of linkPaths) {
    const value = readPath(body, path);
    if (typeof value !== 'string' || value.length > 2000) continue;
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.toString();
    } catch {
      // Not a URL: try the next place.
    }
  }
  return undefined;
}
