/** A refusal shown as a page (403 and friends), never as a stack trace. */
export class WebRefusal extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
