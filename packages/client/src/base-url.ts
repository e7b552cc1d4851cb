/**
 * The root every path is appended to. A `baseURL` that already has a path is used as is (the
 * reference client's rule, so `baseURL: "https://app.example/api/auth"` keeps working); an
 * origin gets `basePath` appended; with no `baseURL`, `basePath` alone, relative to the page.
 */
export function resolveBaseURL(baseURL: string | undefined, basePath = "/api/auth"): string {
  const path = basePath === "/" ? "" : `/${basePath.replace(/^\/+|\/+$/g, "")}`;
  if (baseURL === undefined) return path;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new TypeError("createAuthClient: baseURL must be an absolute http:// or https:// URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("createAuthClient: baseURL must be an absolute http:// or https:// URL.");
  }
  const trimmed = baseURL.replace(/\/+$/, "");
  return url.pathname.replace(/\/+$/, "") === "" ? `${trimmed}${path}` : trimmed;
}
