/**
 * Custom-scheme redirect targets (mobile deep links such as `myapp://host/cb`), split with
 * string operations as the reference does: `new URL()` parses non-special schemes differently
 * across runtimes, and an origin check must not depend on the engine.
 */

/** Scheme and authority lower-cased; path percent-decoded with dot segments resolved. */
interface CustomSchemeURL {
  scheme: string;
  authority: string;
  path: string;
}

/** C0 and C1 controls and DEL (the reference's rule for custom schemes). */
const hasControl = (value: string): boolean => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
};

/**
 * Decodes, then resolves `.` and `..` and drops empty segments, so `myapp://host/cb/../evil`
 * cannot pass an entry pinned to `/cb`; "" for an empty or root path.
 */
function normalizePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape stays as written: it then only matches an entry spelled the same.
  }
  const segments: string[] = [];
  for (const segment of decoded.split("/")) {
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return segments.length ? `/${segments.join("/")}` : "";
}

function parse(value: string): CustomSchemeURL | null {
  if (hasControl(value)) return null;
  const colon = value.indexOf(":");
  if (colon <= 0) return null;
  let rest = value.slice(colon + 1);
  let authority = "";
  if (rest.startsWith("//")) {
    rest = rest.slice(2);
    const end = rest.search(/[/?#]/);
    authority = end < 0 ? rest : rest.slice(0, end);
    rest = end < 0 ? "" : rest.slice(end);
  }
  const pathEnd = rest.search(/[?#]/);
  return {
    scheme: value.slice(0, colon).toLowerCase(),
    authority: authority.toLowerCase(),
    path: normalizePath(pathEnd < 0 ? rest : rest.slice(0, pathEnd)),
  };
}

/**
 * Whether `url` is within the custom-scheme entry `pattern`: same scheme, same authority when
 * the entry names one, and a path equal to the entry's or below it on a segment boundary
 * (`myapp://host/cb` covers `/cb` and `/cb/x`, never `/cbevil`), the reference's rule.
 */
export function matchesCustomScheme(url: string, pattern: string): boolean {
  const target = parse(url);
  const entry = parse(pattern);
  if (!target || !entry || target.scheme !== entry.scheme) return false;
  if (entry.authority && target.authority !== entry.authority) return false;
  if (!entry.path) return true;
  return target.path === entry.path || target.path.startsWith(`${entry.path}/`);
}
