/**
 * The HTML error page browsers get: from page routers (`pageError`) and from the app-wide
 * limits (body size, sign-in attempts) when the caller asked for HTML.
 * @module
 */
import type { Context } from "hono";
import { AppError } from "../../domain/mod.ts";
import { errorBody, retryHeaders } from "../error_body.ts";
import type { Env } from "../env.ts";
import { Layout } from "./layout.tsx";

const HEADINGS: Record<number, string> = {
  403: "Not allowed",
  413: "Too much data",
  429: "Too many attempts",
  503: "Busy",
};

/** A page showing one error. */
export function ErrorPage(props: { publicUrl: string; status: number; message: string }) {
  return (
    <Layout title="Something went wrong" publicUrl={props.publicUrl} noindex>
      <h1>{HEADINGS[props.status] ?? "Something went wrong"}</h1>
      <p class="notice error" role="alert">{props.message}</p>
      <p>
        <a href="/settings/api-keys">Back to Settings</a>
      </p>
    </Layout>
  );
}

/** A typed error as an HTML page with its status (and `Retry-After` where it has one). */
export function errorPageResponse<E extends Env>(
  c: Context<E>,
  err: AppError,
): Response | Promise<Response> {
  const { status } = errorBody(err);
  c.header("Cache-Control", "no-store");
  return c.html(
    <ErrorPage publicUrl={c.get("app").settings.publicUrl} status={status} message={err.message} />,
    status as 400,
    retryHeaders(err),
  );
}

/** `onError` for page routers: typed errors become an HTML page with their status. */
export function pageError<E extends Env>(err: Error, c: Context<E>): Response | Promise<Response> {
  if (!(err instanceof AppError)) throw err;
  return errorPageResponse(c, err);
}
