/**
 * The error the OAuth endpoints answer with an RFC 6749 body.
 * @module
 */
import { AppError } from "../../domain/mod.ts";

/** RFC 6749 / 7591 / 8707 error codes this server answers with. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "server_error";

/** A failure the OAuth endpoints report with an RFC 6749 body (`error`, `error_description`). */
export class OAuthError extends AppError {
  constructor(override readonly code: OAuthErrorCode, readonly description: string) {
    super(code, description);
  }
}
