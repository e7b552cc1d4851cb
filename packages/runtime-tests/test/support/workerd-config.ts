/** The workerd sockets, by what they run. */
export const WORKERD_SOCKETS = { edge: "edge", nodejsCompat: "nodejs-compat" } as const;

// A fixed date, not today's: behaviour must not drift between runs. Must not be later than the
// installed workerd's own date (1.20261117.1 supports up to 2026-11-17).
const COMPATIBILITY_DATE = "2026-01-01";

/** The D1 service: workerd's own D1 worker (`/workerd/d1.js`), one SQLite-backed Durable Object per database. */
const D1_SERVICE = "d1";
const D1_DISK = "d1-disk";

/**
 * How a socket's worker reaches its D1 database: the binding itself (`kyselyAdapter(env.DB)`),
 * or kysely-d1's dialect over it through the per-dialect entry. One socket each, so both run.
 */
type D1Access = "binding" | "dialect";

function smokeService(name: string, bundle: string, flags: string[], runtime: string, d1: D1Access): string {
  const flagList = flags.map((f) => JSON.stringify(f)).join(", ");
  // The D1 binding as wrangler writes it: the internal d1-api module over a service binding
  // to the D1 worker, whose props name the database (one per socket, so they never share).
  const props = JSON.stringify(JSON.stringify({ database: name }));
  return `(name = "${name}", worker = (
      modules = [(name = "${bundle}", esModule = embed "${bundle}")],
      compatibilityDate = "${COMPATIBILITY_DATE}",
      compatibilityFlags = [${flagList}],
      bindings = [
        (name = "RUNTIME", text = "${runtime}"),
        (name = "D1_ACCESS", text = "${d1}"),
        (name = "DB", wrapped = (moduleName = "cloudflare-internal:d1-api", innerBindings = [
          (name = "fetcher", service = (name = "${D1_SERVICE}", props = (json = ${props}))),
        ])),
      ],
    ))`;
}

/**
 * The D1 worker's config is the interface documented in its header: a Worker with RPC, the
 * SQLite-backed Durable Object class `D1Database` on a local disk, bound as DATABASE.
 */
function d1Service(diskPath: string): string {
  return `(name = "${D1_SERVICE}", worker = (
      modules = [(name = "d1.js", bundled = "/workerd/d1.js")],
      compatibilityDate = "${COMPATIBILITY_DATE}",
      durableObjectNamespaces = [(className = "D1Database", uniqueKey = "latchkey-runtime-smoke-d1", enableSql = true)],
      durableObjectStorage = (localDisk = "${D1_DISK}"),
      bindings = [(name = "DATABASE", durableObjectNamespace = "D1Database")],
    )),
    (name = "${D1_DISK}", disk = (path = ${JSON.stringify(diskPath)}, writable = true))`;
}

/**
 * A workerd config (Cap'n Proto text) serving `bundle`, which sits next to the config file, on
 * two loopback sockets with port 0: a plain isolate (no Node APIs at all, so core must use its
 * web-standard paths, noble scrypt included) and one with `nodejs_compat`, where
 * `process.getBuiltinModule("node:crypto")` exists and core takes its native scrypt path.
 * Both get a D1 database, stored under `diskPath`: the plain one uses the binding directly, the
 * other through kysely-d1's dialect.
 */
export function workerdConfig(bundle: string, diskPath: string): string {
  const { edge, nodejsCompat } = WORKERD_SOCKETS;
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    ${smokeService(edge, bundle, [], "workerd", "binding")},
    ${smokeService(nodejsCompat, bundle, ["nodejs_compat"], "workerd+nodejs_compat", "dialect")},
    ${d1Service(diskPath)},
  ],
  sockets = [
    (name = "${edge}", address = "127.0.0.1:0", http = (), service = "${edge}"),
    (name = "${nodejsCompat}", address = "127.0.0.1:0", http = (), service = "${nodejsCompat}"),
  ],
);
`;
}
