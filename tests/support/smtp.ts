/**
 * A real SMTP server on loopback (the npm `smtp-server` package) that parses every message it
 * receives with `mailparser`, for tests of email alerts (issue #13).
 */
import { SMTPServer } from "smtp-server";
import { type ParsedMail, simpleParser } from "mailparser";

/** A running SMTP server and what it received. */
export interface SmtpRig {
  /** `smtp://127.0.0.1:<port>` (no TLS, no authentication). */
  readonly url: string;
  readonly messages: ParsedMail[];
  /** Rejects the next `n` messages with `code` (e.g. 550, 451). */
  reject(n: number, code: number): void;
  /** Refuses `address` at RCPT TO with 550 from now on (a mailbox that does not exist). */
  refuseRecipient(address: string): void;
  close(): Promise<void>;
}

/** Starts the server on a free port. */
export async function startSmtp(): Promise<SmtpRig> {
  const messages: ParsedMail[] = [];
  let rejecting = { n: 0, code: 550 };
  const refused = new Set<string>();
  const server = new SMTPServer({
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address.toLowerCase())) return callback();
      const err = new Error("5.1.1 no such mailbox") as Error & { responseCode: number };
      err.responseCode = 550;
      callback(err);
    },
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        if (rejecting.n > 0) {
          rejecting.n--;
          const err = new Error(`rejected for the test`) as Error & { responseCode: number };
          err.responseCode = rejecting.code;
          callback(err);
          return;
        }
        messages.push(mail);
        callback();
      }, callback);
    },
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve((server.server.address() as { port: number }).port);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    reject(n, code) {
      rejecting = { n, code };
    },
    refuseRecipient(address) {
      refused.add(address.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
