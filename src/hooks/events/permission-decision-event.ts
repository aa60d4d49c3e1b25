import { z } from 'zod';
import { observerRule } from '../merge/rule.js';
import { defineEvent } from './define-event.js';
import { commonInput, commonOutput, toolInput, withMode } from './fields.js';

/**
 * hookloop extension (observer-only, named in Claude Code's style): how one tool call was settled
 * and by whom, fired once per call when the permission decision is final — a PreToolUse deny, a
 * rejected `updatedInput`, the policy, a PermissionRequest hook or the approver.
 * - `decision`: `allow` or `deny`; `decided_by`: `rule`, `mode`, `boundary`, `read_only`, `sandbox`
 *   (the policy alone), `hook`, `approver` (a person, or the headless refusal), `validation`;
 * - `rule` (text as written, its list and settings file), `boundary`, `hook` (event, type, name,
 *   settings file and place, or `callback`): what decided, when it was one of them;
 * - `reason`: the text the model gets for a denial, or the deciding hook's reason;
 * - `policy_source`: the policy's own label for its step (`rule Bash(rm:*)`, `mode default`);
 * - `tainted_files`: the files this call runs that the session wrote (real paths), when that is
 *   why the policy asked (`boundary: session_taint`);
 * - `hook_tainted_files`: the command hooks that ran for this call (PreToolUse, PermissionRequest)
 *   whose command runs a file the session wrote, each with those files. Reported, never blocked.
 * Nothing a hook answers changes the call: the merge rule is the observers'.
 */
export const PermissionDecision = defineEvent({
  input: z.object({
    ...commonInput,
    ...withMode,
    hook_event_name: z.literal('PermissionDecision'),
    tool_name: z.string(),
    tool_input: toolInput,
    tool_use_id: z.string(),
    decision: z.enum(['allow', 'deny']),
    decided_by: z.enum([
      'rule',
      'mode',
      'boundary',
      'read_only',
      'sandbox',
      'hook',
      'approver',
      'validation',
    ]),
    reason: z.string().optional(),
    rule: z
      .object({ list: z.enum(['allow', 'ask', 'deny']), text: z.string(), file: z.string().optional() })
      .optional(),
    boundary: z
      .enum(['workspace', 'protected_removal', 'configuration', 'read_rules', 'session_taint'])
      .optional(),
    tainted_files: z.array(z.string()).optional(),
    hook_tainted_files: z.array(z.object({ hook: z.string(), files: z.array(z.string()) })).optional(),
    hook: z
      .object({
        event: z.string(),
        type: z.string(),
        name: z.string(),
        source: z.string(),
        location: z.string().optional(),
      })
      .optional(),
    policy_source: z.string().optional(),
  }),
  output: z.strictObject(commonOutput),
  matchField: 'tool_name',
  acceptsIf: true,
  extension: true,
  merge: observerRule,
  example: (context) => ({
    tool_name: context.toolName,
    tool_input: context.toolInput,
    tool_use_id: context.toolUseId,
    decision: 'allow',
    decided_by: 'mode',
    policy_source: 'mode default',
  }),
});
