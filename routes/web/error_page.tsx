/**
 * The HTML error pages browsers get (404, 429, 500 …): from page routers (`pageError`), and
 * from the app-wide handlers (`routes/errors.ts`, `notFound`) when the caller asked for HTML.
 * API clients (`/api/*`, or an `Accept` without `text/html`) keep the JSON bodies.
 * @module
 */
import type { Context } from "hono";
import { AppError, NotFound, RateLimited } from "../../domain/mod.ts";
import { errorBody, retryHeaders } from "../error_body.ts";
import type { Env } from "../env.ts";
import { Layout } from "./layout.tsx";

const HEADINGS: Record<number, string> = {
  400: "That request was not valid",
  401: "Sign-in needed",
  403: "Not allowed",
  404: "Page not found",
  413: "Too much data",
  429: "Too many attempts",
  500: "Something went wrong on our side",
  503: "Busy",
};

/** What an error page shows. */
export interface ErrorPageProps {
  readonly publicUrl: string;
  readonly status: number;
  readonly message: string;
  /** Close matches to offer (an unknown service). */
  readonly suggestions?: readonly string[];
  /** Seconds to wait before trying again (429, 503). */
  readonly retryAfterSeconds?: number;
  /** The id under which a 500 was logged. */
  readonly requestId?: string;
}

/** A page showing one error, with ways back. */
export function ErrorPage(props: ErrorPageProps) {
  return (
    <Layout
      title={HEADINGS[props.status] ?? "Something went wrong"}
      publicUrl={props.publicUrl}
      noindex
    >
      <h1>{HEADINGS[props.status] ?? "Something went wrong"}</h1>
      <p class="notice error" role="alert">{props.message}</p>
      {props.suggestions && props.suggestions.length > 0 && (
        <p>
          Did you mean {props.suggestions.map((x, i) => (
            <>
              {i > 0 && ", "}
              <a href={`/services/${encodeURIComponent(x)}`}>{x}</a>
            </>
          ))}?
        </p>
      )}
      {props.retryAfterSeconds !== undefined && (
        <p>Try again in {props.retryAfterSeconds} seconds.</p>
      )}
      {props.requestId && (
        <p class="muted">
          The error was logged with request id{" "}
          <code>{props.requestId}</code>; quote it to the person running this statusd.
        </p>
      )}
      <p>
        <a href="/">Home</a> · <a href="/services">All services</a> ·{" "}
        <a href="/settings/api-keys">Settings</a>
      </p>
    </Layout>
  );
}

/** What a 404 page says; its guesses are links below it, so the sentence does not repeat them. */
function notFoundWords(err: NotFound): string {
  if (err.kind === "page") return `There is no page at ${err.id}.`;
  return err.suggestions.length > 0 ? `No ${err.kind} "${err.id}".` : err.message;
}

/** A typed error as an HTML page with its status (and `Retry-After` where it has one). */
export function errorPageResponse<E extends Env>(
  c: Context<E>,
  err: AppError,
): Response | Promise<Response> {
  const { status } = errorBody(err);
  c.header("Cache-Control", "no-store");
  const notFound = err instanceof NotFound;
  return c.html(
    <ErrorPage
      publicUrl={c.get("app").settings.publicUrl}
      status={status}
      message={notFound ? notFoundWords(err) : err.message}
      suggestions={notFound ? err.suggestions : undefined}
      retryAfterSeconds={err instanceof RateLimited ? err.retryAfterSeconds : undefined}
    />,
    status as 400,
    retryHeaders(err),
  );
}

/** The 500 page: no detail of what failed, only the id it was logged under. */
export function internalErrorPage<E extends Env>(
  c: Context<E>,
  requestId: string,
): Response | Promise<Response> {
  c.header("Cache-Control", "no-store");
  return c.html(
    <ErrorPage
      publicUrl={c.get("app").settings.publicUrl}
      status={500}
      message="statusd could not answer this request."
      requestId={requestId}
    />,
    500,
  );
}

/** `onError` for page routers: typed errors become an HTML page with their status. */
export function pageError<E extends Env>(err: Error, c: Context<E>): Response | Promise<Response> {
  if (!(err instanceof AppError)) throw err;
  return errorPageResponse(c, err);
}
