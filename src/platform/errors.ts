export interface ErrorDetail {
  field: string;
  issue: string;
}

/** Every error the platform answers with: HTTP status, machine-readable code, one plain sentence. */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

const make = (status: number, code: string) => (message: string, details?: ErrorDetail[]) =>
  new AppError(status, code, message, details);

/** One named factory per code, so a code and its status are decided in one place. */
export const errors = {
  badRequest: make(400, 'BAD_REQUEST'),
  invalidJson: make(400, 'INVALID_JSON'),
  validation: make(400, 'VALIDATION_ERROR'),
  missingRequiredField: make(400, 'MISSING_REQUIRED_FIELD'),
  invalidOrderPayload: make(400, 'INVALID_ORDER_PAYLOAD'),
  invalidOrderStatus: make(400, 'INVALID_ORDER_STATUS'),
  batchEmpty: make(400, 'BATCH_EMPTY'),
  batchTooLarge: make(400, 'BATCH_TOO_LARGE'),
  outOfStock: make(400, 'OUT_OF_STOCK'),
  markupNotSupportedForCod: make(400, 'MARKUP_NOT_SUPPORTED_FOR_COD'),
  /** An order sent its point twice (coordinates and lat/lng) with different values. */
  conflictingCoordinates: make(400, 'CONFLICTING_COORDINATES'),
  /** orders.create: the quote_id is unknown, or was issued to another app or environment. */
  quoteNotFound: make(400, 'QUOTE_NOT_FOUND'),
  quoteExpired: make(400, 'QUOTE_EXPIRED'),
  /** orders.create: another order already redeemed this quote (a quote prices one order). */
  quoteAlreadyUsed: make(400, 'QUOTE_ALREADY_USED'),
  /** orders.create: the order's pickup or drop-off is not the point the quote priced. */
  quoteMismatch: make(400, 'QUOTE_MISMATCH'),
  /** Test clocks: unknown, deleted, or another app's clock (also when an order names it). */
  testClockNotFound: make(404, 'TEST_CLOCK_NOT_FOUND'),
  /** test_clocks.advance: the new time is not after the clock's time. */
  testClockBackwards: make(400, 'TEST_CLOCK_BACKWARDS'),
  /** test_clocks.advance: the new time is more than the longest step ahead (60 days). */
  testClockAdvanceTooFar: make(400, 'TEST_CLOCK_ADVANCE_TOO_FAR'),
  /** test_clocks.create: frozen_time outside the years a clock may start in. */
  testClockTimeOutOfRange: make(400, 'TEST_CLOCK_TIME_OUT_OF_RANGE'),
  /** test_clocks.create: the app has as many clocks as it may keep. */
  testClockLimit: make(400, 'TEST_CLOCK_LIMIT_REACHED'),
  /** A production order (or estimate) naming a test clock: production objects never have one. */
  testClockNotAllowed: make(400, 'TEST_CLOCK_NOT_ALLOWED'),
  /** The clock is advancing: another advance or delete waits for it to be ready. */
  testClockAdvancing: make(409, 'TEST_CLOCK_ADVANCING'),
  /** orders.create: a window field is not a date-time with its offset (or carries a control character). */
  deliveryWindowInvalid: make(400, 'DELIVERY_WINDOW_INVALID'),
  deliveryWindowInPast: make(400, 'DELIVERY_WINDOW_IN_PAST'),
  /** orders.create: a window ends more than 14 days ahead. */
  deliveryWindowTooFar: make(400, 'DELIVERY_WINDOW_TOO_FAR'),
  /** orders.create: dropoff_deadline is not after pickup_ready_at. */
  deliveryWindowReversed: make(400, 'DELIVERY_WINDOW_REVERSED'),
  /** orders.create: less time between ready (or now) and the deadline than a delivery needs. */
  deliveryWindowTooShort: make(400, 'DELIVERY_WINDOW_TOO_SHORT'),
  deliveryWindowOnHoliday: make(400, 'DELIVERY_WINDOW_ON_HOLIDAY'),
  /** orders.create: a window end on a Sunday or outside the service hours (Accra time). */
  deliveryWindowOutsideServiceHours: make(400, 'DELIVERY_WINDOW_OUTSIDE_SERVICE_HOURS'),
  missingApiKey: make(401, 'MISSING_API_KEY'),
  invalidApiKey: make(401, 'INVALID_API_KEY'),
  missingSignature: make(401, 'MISSING_SIGNATURE'),
  invalidTimestamp: make(401, 'INVALID_TIMESTAMP'),
  staleRequest: make(401, 'STALE_REQUEST'),
  invalidNonce: make(401, 'INVALID_NONCE'),
  invalidSignature: make(401, 'INVALID_SIGNATURE'),
  signingNotConfigured: make(401, 'SIGNING_NOT_CONFIGURED'),
  invalidAdminToken: make(401, 'INVALID_ADMIN_TOKEN'),
  insufficientWalletBalance: make(402, 'INSUFFICIENT_WALLET_BALANCE'),
  insufficientScope: make(403, 'INSUFFICIENT_SCOPE'),
  /** Operator API: the operator's roles do not allow this route. */
  forbidden: make(403, 'FORBIDDEN'),
  notYourJob: make(403, 'NOT_YOUR_JOB'),
  /** Operator sign-in: one answer whichever factor (email, password, code) was wrong. */
  invalidCredentials: make(401, 'INVALID_CREDENTIALS'),
  productionKeyRequired: make(403, 'PRODUCTION_KEY_REQUIRED'),
  /** A production key on a sandbox-only operation (test clocks). */
  stagingKeyRequired: make(403, 'STAGING_KEY_REQUIRED'),
  partnerInactive: make(403, 'PARTNER_INACTIVE'),
  environmentNotActive: make(403, 'ENVIRONMENT_NOT_ACTIVE'),
  notFound: make(404, 'NOT_FOUND'),
  orderNotFound: make(404, 'ORDER_NOT_FOUND'),
  productNotFound: make(404, 'PRODUCT_NOT_FOUND'),
  saleNotFound: make(404, 'SALE_NOT_FOUND'),
  topupNotFound: make(404, 'TOPUP_NOT_FOUND'),
  partnerNotFound: make(404, 'PARTNER_NOT_FOUND'),
  appNotFound: make(404, 'APP_NOT_FOUND'),
  keyNotFound: make(404, 'KEY_NOT_FOUND'),
  operatorNotFound: make(404, 'OPERATOR_NOT_FOUND'),
  operatorTokenNotFound: make(404, 'OPERATOR_TOKEN_NOT_FOUND'),
  activationRequestNotFound: make(404, 'ACTIVATION_REQUEST_NOT_FOUND'),
  courierNotFound: make(404, 'COURIER_NOT_FOUND'),
  payeeNotFound: make(404, 'PAYEE_NOT_FOUND'),
  payoutNotFound: make(404, 'PAYOUT_NOT_FOUND'),
  /** Payouts: no payout run with this id. */
  payoutRunNotFound: make(404, 'PAYOUT_RUN_NOT_FOUND'),
  /** Proof of delivery: no delivery code was issued for the order. */
  deliveryCodeNotFound: make(404, 'DELIVERY_CODE_NOT_FOUND'),
  requestTimeout: make(408, 'REQUEST_TIMEOUT'),
  nonceReplayed: make(409, 'NONCE_REPLAYED'),
  duplicateOrderReference: make(409, 'DUPLICATE_ORDER_REFERENCE'),
  duplicateReference: make(409, 'DUPLICATE_REFERENCE'),
  invalidTransition: make(409, 'INVALID_TRANSITION'),
  handoverExceedsBalance: make(409, 'HANDOVER_EXCEEDS_BALANCE'),
  jobTaken: make(409, 'JOB_TAKEN'),
  /** Hand assignment: the job's courier is not the one the operator saw (another took or left it meanwhile). */
  assignmentChanged: make(409, 'ASSIGNMENT_CHANGED'),
  /** Maker-checker: the operator who created a payout cannot approve it. */
  sameOperator: make(409, 'SAME_OPERATOR'),
  /** A payee's destination cannot change while a payout to it is being handed to the transfer provider. */
  payoutSending: make(409, 'PAYOUT_SENDING'),
  offerNotOpen: make(409, 'OFFER_NOT_OPEN'),
  productionNotActive: make(409, 'PRODUCTION_NOT_ACTIVE'),
  operatorEmailTaken: make(409, 'OPERATOR_EMAIL_TAKEN'),
  courierPhoneTaken: make(409, 'COURIER_PHONE_TAKEN'),
  /** A Web Push endpoint another courier's session holds (the courier app's notifications). */
  pushEndpointTaken: make(409, 'PUSH_ENDPOINT_TAKEN'),
  /** Proof of delivery: the code entered is not the recipient's (details say how many tries are left). */
  invalidDeliveryCode: make(422, 'INVALID_DELIVERY_CODE'),
  cashAmountMismatch: make(422, 'CASH_AMOUNT_MISMATCH'),
  /** Proof of delivery: too many wrong codes; only a photo can prove this delivery now. */
  deliveryCodeLocked: make(409, 'DELIVERY_CODE_LOCKED'),
  /** An order already holds the most photos and signatures one delivery may have. */
  proofLimitReached: make(409, 'PROOF_LIMIT_REACHED'),
  /** A photo or signature stands in for the code only near the drop-off (the courier's last reported position). */
  tooFarFromDropoff: make(409, 'TOO_FAR_FROM_DROPOFF'),
  /** A photo or signature needs a recent position report to measure from. */
  positionNotFresh: make(409, 'POSITION_NOT_FRESH'),
  /** The delivery's confirmation was already decided otherwise (the recipient's link, an operator). */
  confirmationDecided: make(409, 'CONFIRMATION_DECIDED'),
  /** No delivery confirmation behind this token or order. */
  confirmationNotFound: make(404, 'CONFIRMATION_NOT_FOUND'),
  /** A delivery report names a message the SMS provider was never given by us. */
  messageNotFound: make(404, 'MESSAGE_NOT_FOUND'),
  /** A recipient messages sender name that is no SMS sender id (1 to 11 letters, digits or spaces). */
  invalidSenderName: make(400, 'INVALID_SENDER_NAME'),
  /** The change would leave no active operator with the admin role. */
  lastAdmin: make(409, 'LAST_ADMIN'),
  /** TOTP: no enrolment pending to confirm, or already confirmed. */
  totpState: make(409, 'TOTP_STATE'),
  payloadTooLarge: make(413, 'PAYLOAD_TOO_LARGE'),
  unsupportedMediaType: make(415, 'UNSUPPORTED_MEDIA_TYPE'),
  headersTooLarge: make(431, 'HEADERS_TOO_LARGE'),
  rateLimited: (message: string, headers: Record<string, string>) =>
    new AppError(429, 'RATE_LIMITED', message, undefined, headers),
  /** Operator sign-in: too many failures for the account or the address; Retry-After says when to try again. */
  tooManyAttempts: (message: string, retryAfterSeconds: number) =>
    new AppError(429, 'TOO_MANY_ATTEMPTS', message, undefined, {
      'retry-after': String(retryAfterSeconds),
    }),
  internal: make(500, 'INTERNAL_ERROR'),
  gateway: make(502, 'GATEWAY_ERROR'),
  serviceUnavailable: make(503, 'SERVICE_UNAVAILABLE'),
  /** Not a passing outage: the deployment has no gateway for this environment, so retrying cannot help. */
  paymentsNotConfigured: make(503, 'PAYMENTS_NOT_CONFIGURED'),
} as const;

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
