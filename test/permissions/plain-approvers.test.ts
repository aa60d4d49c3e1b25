import { describe, expect, it } from 'vitest';
import { callbackApprover, headlessApprover } from '../../src/permissions/plain-approvers.js';
import type { ApprovalRequest } from '../../src/permissions/types.js';

const request = (input: unknown, signal = new AbortController().signal): ApprovalRequest => ({
  toolName: 'Bash',
  input,
  message: "Claude requested permissions to use Bash, but you haven't granted it yet.",
  signal,
});

describe('headlessApprover', () => {
  it('denies', async () => {
    expect(await headlessApprover.approve(request({ command: 'ls' }))).toBe('deny');
  });
});

describe('callbackApprover', () => {
  it('returns the callback answer; a throw or a bad answer denies', async () => {
    expect(await callbackApprover(() => 'always').approve(request({}))).toBe('always');
    expect(await callbackApprover(async () => 'allow' as const).approve(request({}))).toBe('allow');
    expect(
      await callbackApprover(() => {
        throw new Error('x');
      }).approve(request({})),
    ).toBe('deny');
    expect(await callbackApprover(() => 'maybe' as never).approve(request({}))).toBe('deny');
  });
});
