/** Thrown where a syntax tree holds something hookloop cannot read with confidence: the command is reported as unparsable. */
export class ReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Thrown for what Bash itself rejects though tree-sitter-bash accepts it, like `fi` as a program name. */
export class BashSyntaxError extends ReadError {}
