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
  close(): Promise<void>;
}

/** Starts the server on a free port. */
export async function startSmtp(): Promise<SmtpRig> {
  const messages: ParsedMail[] = [];
  let rejecting = { n: 0, code: 550 };
  const server = new SMTPServer({
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
