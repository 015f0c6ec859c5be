/** A failed request on the live channel, with the app's `{code, message, remediation}` (ErrorBody). */
import type { ErrorBody } from '../../protocol.js';

export class RpcError extends Error implements ErrorBody {
  readonly code: string;
  readonly remediation: string;

  constructor(body: ErrorBody) {
    super(body.message);
    this.code = body.code;
    this.remediation = body.remediation;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, remediation: this.remediation };
  }
}

/** Any thrown value as an ErrorBody (a bug in the page becomes tool_failed rather than a silent rejection). */
export function toErrorBody(error: unknown, fallbackCode = 'tool_failed'): ErrorBody {
  if (error instanceof RpcError) return error.toBody();
  const message = error instanceof Error ? error.message : String(error);
  return { code: fallbackCode, message, remediation: 'See the page console for details.' };
}
