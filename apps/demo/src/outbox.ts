/** One mail the demo would have sent. */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  /** The link the mail carries (verification, reset, invitation, sign-in), if any. */
  url?: string;
  /** The one-time code the mail carries (email OTP), if any. */
  code?: string;
  sentAt: string;
}

/** Where the demo's mails go instead of a mail server: the newest `limit` kept in memory. */
export interface Outbox {
  send(mail: Omit<OutboxMail, "id" | "sentAt">): void;
  /** Newest first. */
  list(): OutboxMail[];
}

export function createOutbox(limit = 50): Outbox {
  const mails: OutboxMail[] = [];
  let nextId = 1;
  return {
    send(mail) {
      mails.unshift({ ...mail, id: nextId++, sentAt: new Date().toISOString() });
      mails.length = Math.min(mails.length, limit);
    },
    list: () => mails.slice(),
  };
}
