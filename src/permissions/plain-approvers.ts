import type { ApprovalAnswer, ApprovalRequest, Approver } from './types.js';

// The approvers that need no terminal; the one that asks on a terminal is the CLI's (cli/tty-approver.ts).

/** Denies every request: the approver of headless runs (`-p`), where nobody can answer. */
export const headlessApprover: Approver = {
  approve: () => Promise.resolve('deny'),
};

/**
 * An approver backed by a function (an embedding application's own prompt, a test). The function's
 * answer is used as is; a throw, a rejection or an answer other than `allow`/`deny`/`always` counts as deny.
 * `awaitsHuman: true` when the function asks a person (the loop then fires a Notification first).
 */
export function callbackApprover(
  decide: (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>,
  options: { readonly awaitsHuman?: boolean } = {},
): Approver {
  return {
    awaitsHuman: options.awaitsHuman === true,
    async approve(request) {
      try {
        const answer = await decide(request);
        return answer === 'allow' || answer === 'always' || answer === 'later' ? answer : 'deny';
      } catch {
        return 'deny'; // the Approver contract: a failing approver denies
      }
    },
  };
}
