import { createInterface } from 'node:readline';

/** The end of input (Ctrl-D on an empty line, or a closed pipe). */
export const END_OF_INPUT = Symbol('end of input');
/** Ctrl-C at the prompt. */
export const INTERRUPTED = Symbol('interrupted');

/** What one read returns: a line, the end of input, or Ctrl-C at the prompt. */
export type PromptAnswer = string | typeof END_OF_INPUT | typeof INTERRUPTED;

/**
 * Reads the prompts of an interactive session with node:readline (line editing and history on a
 * terminal). The terminal belongs to the reader only while it waits for a line: between reads no
 * readline is attached, so a running turn gets Ctrl-C as a real SIGINT and the approval prompt
 * can read the terminal itself. Lines that arrive together (pasted, piped) are kept for the next reads.
 */
export class PromptReader {
  private readonly carried: string[] = [];
  private readonly history: string[] = [];
  private ended = false;

  constructor(
    private readonly input: NodeJS.ReadableStream & { isTTY?: boolean },
    private readonly output: NodeJS.WritableStream,
  ) {}

  /**
   * Shows `prompt` and resolves with the next line (without its newline). Never rejects.
   * `signal` aborted (the session is ending: SIGTERM, SIGHUP) resolves END_OF_INPUT at once.
   */
  read(prompt: string, signal?: AbortSignal): Promise<PromptAnswer> {
    const carried = this.carried.shift();
    if (carried !== undefined) {
      if (this.input.isTTY === true) this.output.write(`${prompt}${carried}\n`);
      return Promise.resolve(carried);
    }
    if (this.ended || signal?.aborted === true || (this.input as { readableEnded?: boolean }).readableEnded)
      return Promise.resolve(END_OF_INPUT);
    return new Promise((resolve) => {
      const terminal = this.input.isTTY === true;
      const lines = createInterface({
        input: this.input,
        output: this.output,
        terminal,
        history: [...this.history],
        historySize: 1000,
      });
      let answered = false;
      const onAbort = () => finish(END_OF_INPUT);
      const finish = (answer: PromptAnswer) => {
        if (answered) return;
        answered = true;
        signal?.removeEventListener('abort', onAbort);
        if (typeof answer === 'string' && answer.trim() !== '') this.history.unshift(answer);
        lines.close();
        resolve(answer);
      };
      lines.on('line', (line) => (answered ? this.carried.push(line) : finish(line)));
      lines.on('SIGINT', () => {
        this.output.write('\n');
        finish(INTERRUPTED);
      });
      lines.on('close', () => {
        if (answered) return;
        this.ended = true;
        finish(END_OF_INPUT);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      lines.setPrompt(prompt);
      lines.prompt();
    });
  }
}
