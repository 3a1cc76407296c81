/**
 * Splits a text stream into lines (the std TextLineStream, which JSR would provide).
 * @module
 */

/** A TransformStream of text chunks into lines, without the line breaks. */
export class TextLineStream extends TransformStream<string, string> {
  constructor() {
    let rest = "";
    super({
      transform(chunk, controller) {
        const parts = (rest + chunk).split(/\r?\n/);
        rest = parts.pop()!;
        for (const line of parts) controller.enqueue(line);
      },
      flush(controller) {
        if (rest) controller.enqueue(rest);
      },
    });
  }
}
