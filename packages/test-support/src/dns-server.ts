import { createSocket, type RemoteInfo } from "node:dgram";

/** A DNS server on 127.0.0.1 (UDP) answering the TXT records a test sets; every other name is NXDOMAIN. */
export interface TestDNSServer {
  /** `127.0.0.1:<port>`, the form `Resolver#setServers` takes. */
  address: string;
  port: number;
  /** TXT records by lower-case name (each record one string; longer ones are split into 255-byte parts). */
  txt: Map<string, string[]>;
  /** The names asked for, in order (lower case), and the query types. */
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE_FORMERR = 1;
const RCODE_NXDOMAIN = 3;
const RCODE_NOTIMP = 4;

/** RFC 1035 §4.1.2: the question's name (labels, no compression in a query), its end offset. */
function readQuestion(packet: Buffer): { name: string; type: number; end: number } | null {
  let offset = 12;
  const labels: string[] = [];
  for (;;) {
    if (offset >= packet.length) return null;
    const length = packet[offset]!;
    offset += 1;
    if (length === 0) break;
    if (length > 63 || offset + length > packet.length) return null;
    labels.push(packet.subarray(offset, offset + length).toString("latin1"));
    offset += length;
  }
  if (offset + 4 > packet.length) return null;
  return { name: labels.join(".").toLowerCase(), type: packet.readUInt16BE(offset), end: offset + 4 };
}

/** One TXT RDATA: the record as <character-string>s of at most 255 bytes (RFC 1035 §3.3.14). */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  const parts: Buffer[] = [];
  let offset = 0;
  do {
    const chunk = bytes.subarray(offset, offset + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    offset += 255;
  } while (offset < bytes.length);
  return Buffer.concat(parts);
}

/** The response to `query`: header, the question echoed, and the TXT answers. */
function answer(query: Buffer, txt: Map<string, string[]>, seen: TestDNSServer["queries"]): Buffer {
  const id = query.readUInt16BE(0);
  const recursionDesired = query[2]! & 0x01;
  const header = (rcode: number, answers: number, questionCount: number) => {
    const h = Buffer.alloc(12);
    h.writeUInt16BE(id, 0);
    h[2] = 0x84 | recursionDesired; // QR, authoritative
    h[3] = 0x80 | rcode; // recursion available
    h.writeUInt16BE(questionCount, 4);
    h.writeUInt16BE(answers, 6);
    return h;
  };
  const question = query.length >= 12 && query.readUInt16BE(4) === 1 ? readQuestion(query) : null;
  if (!question) return header(RCODE_FORMERR, 0, 0);
  seen.push({ name: question.name, type: question.type });
  const echoed = query.subarray(12, question.end);
  const records = txt.get(question.name);
  if (!records) return Buffer.concat([header(RCODE_NXDOMAIN, 0, 1), echoed]);
  if (question.type !== TYPE_TXT)
    return Buffer.concat([header(question.type === 255 ? RCODE_NOTIMP : 0, 0, 1), echoed]);
  const answers = records.map((value) => {
    const data = txtData(value);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(CLASS_IN, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header(0, answers.length, 1), echoed, ...answers]);
}

/**
 * Starts a DNS server on a free UDP port of 127.0.0.1 that answers TXT queries from `txt`
 * (set records on the returned map at any time). Real packets: point a `node:dns` `Resolver`
 * at `address` to query it.
 */
export async function startDNSServer(): Promise<TestDNSServer> {
  const socket = createSocket("udp4");
  const txt = new Map<string, string[]>();
  const queries: TestDNSServer["queries"] = [];
  socket.on("message", (message: Buffer, remote: RemoteInfo) => {
    if (message.length < 12) return;
    socket.send(answer(message, txt, queries), remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => resolve());
  });
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    port,
    txt,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
