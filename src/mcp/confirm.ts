// Write confirmation (`writes: confirm`) the way each protocol era asks the person:
//   2026-07-28: the call answers `input_required` with a form; the client asks and calls again.
//   2025-11-25: the same answer, turned by the SDK's legacy shim into an elicitation request on the
//               live session, and the handler run again with the person's answer.
// The tool asks through `ToolContext.confirm(message)` and shows whatever text the tool gives. A first
// round answers "no" (the tool sends nothing and reports a refusal, which is dropped) and remembers the
// question; the call is answered with the question instead. On the next round the tool runs again and
// its question must be the very one the person answered (same digest), else it is asked again.
import { createHash } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, acceptedContent, inputRequired, type CallToolResult, type Server, type ServerContext } from '@modelcontextprotocol/server';

/** Key of the one question in `inputRequests` / `inputResponses`. */
export const CONFIRM_KEY = 'confirm';

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Send this request?' } },
  required: ['confirm'],
};

type ElicitationCapability = { form?: object; url?: object } | undefined;

/** A form elicitation can be shown: declared, and not URL-only (a bare `{}` means form). */
function formElicitation(capability: ElicitationCapability): boolean {
  return capability !== undefined && (capability.form !== undefined || capability.url === undefined);
}

/** Whether this request's client can be asked: 2026-07-28 per request (envelope), 2025 per session. */
export function clientCanConfirm(server: Server, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const modern = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: ElicitationCapability } | undefined;
  if (modern !== undefined) return formElicitation(modern.elicitation);
  return formElicitation(server.getClientCapabilities()?.elicitation as ElicitationCapability);
}

/**
 * The state carried between rounds: the digest of the question asked. Not signed: the client that
 * echoes it is the one that asks the person, so a forged state buys nothing a plain "yes" would not;
 * what it guards against is the request changing between the question and the answer.
 */
const digest = (message: string): string => `q1:${createHash('sha256').update(message).digest('base64url')}`;

export interface ConfirmationRound {
  /** Give to the tool as ToolContext.confirm. */
  readonly confirm: (message: string) => Promise<boolean>;
  /** After the tool ran: the `input_required` answer when the person must be asked (again). */
  pending(): CallToolResult | undefined;
}

export function confirmationRound(ctx: ServerContext): ConfirmationRound {
  const state = ctx.mcpReq.requestState();
  // Stryker disable next-line ConditionalExpression: a state that is not a string never equals a digest below
  const answered = typeof state === 'string' ? state : undefined;
  let question: string | undefined;
  return {
    async confirm(message) {
      if (answered === digest(message)) {
        const content = acceptedContent(ctx.mcpReq.inputResponses, CONFIRM_KEY);
        return content?.[CONFIRM_KEY] === true;
      }
      question = message;
      return false;
    },
    pending() {
      if (question === undefined) return undefined;
      return inputRequired({
        inputRequests: { [CONFIRM_KEY]: inputRequired.elicit({ mode: 'form', message: question, requestedSchema: CONFIRM_SCHEMA }) },
        requestState: digest(question),
      }) as unknown as CallToolResult;
    },
  };
}
