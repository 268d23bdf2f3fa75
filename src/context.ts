import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { MailIntegration, MailQueue } from './integrations/mail/index.ts';
import type { OtherGatewayEvents } from './integrations/payments/callbacks.ts';
import type { PaymentGateways } from './integrations/payments/index.ts';
import type { PushSender } from './integrations/push/index.ts';
import type { SmsIntegration } from './integrations/sms/index.ts';
import type { StorageIntegration } from './integrations/storage/index.ts';
import type { TransferProvider } from './integrations/transfers/index.ts';
import type { WhatsAppSender } from './integrations/whatsapp/index.ts';
import type { AccountsService, KeyDirectory } from './modules/accounts/index.ts';
import type { ActivationNotifier, ActivationService } from './modules/activation/index.ts';
import type { AuditLog } from './modules/audit/index.ts';
import type { CashService, DueOnDelivery } from './modules/cash/index.ts';
import type { EarningsService } from './modules/earnings/index.ts';
import type { CatalogModule } from './modules/catalog/index.ts';
import type {
  CourierActions,
  CouriersService,
  CourierSignIn,
  PushSubscriptions,
} from './modules/couriers/index.ts';
import type { CourierTracker, DeliveryModule, OrderClocks } from './modules/delivery/index.ts';
import type { DispatchModule } from './modules/dispatch/index.ts';
import type { LedgerReads } from './modules/ledger/index.ts';
import type { MembersService } from './modules/members/index.ts';
import type { MessagesModule } from './modules/messages/index.ts';
import type { OperatorSignIn, OperatorsService } from './modules/operators/index.ts';
import type {
  CodVendorsOf,
  HeldSubjects,
  DestinationNotices,
  OtherTransferHints,
  PayeeDirectory,
  PayoutsModule,
} from './modules/payouts/index.ts';
import type { ConfirmationService, ProofService } from './modules/proof/index.ts';
import type {
  GatewayReferences,
  ReconciliationService,
  TransferBooks,
} from './modules/reconciliation/index.ts';
import type { SessionStore } from './modules/sessions/index.ts';
import type { TestClocksService } from './modules/testclocks/index.ts';
import type { TopupReads, WalletModule } from './modules/wallet/index.ts';
import type {
  ClockRetries,
  WebhookAdminService,
  WebhookDispatcher,
} from './modules/webhooks/index.ts';
import type { Db, PgliteEngine } from './platform/db/index.ts';
import type { GuardStore } from './platform/guard/types.ts';
import type { Destinations, Resolver } from './platform/outbound/destinations.ts';
import type { SecretBox } from './platform/secrets.ts';
import type { TracingHandle } from './platform/tracing-sdk.ts';

export interface AppOptions {
  /** Milliseconds since the epoch; tests move time. */
  clock?: () => number;
  /** Migrated PGlite dump for in-memory databases (tests start faster from it). */
  dbTemplate?: Blob;
  /**
   * A started embedded engine for the in-memory database (tests lend one app's engine, emptied, to
   * the next); closing the app gives it back instead of stopping it.
   */
  dbEngine?: PgliteEngine;
  /** Pino destination override (tests silence logs). */
  logStream?: NodeJS.WritableStream;
  /** DNS for webhook destinations, when set and when sent (tests answer from a table). */
  resolveHost?: Resolver;
  /** Told of activation decisions after they commit (default: the partner's owners are emailed). */
  activationNotifier?: ActivationNotifier;
  /** The transfer provider payouts are sent through (tests); by default the configured one (PAYOUT_PROVIDER). */
  transfers?: TransferProvider;
}

/** What every module may be given: the settings, the database, the stores and the integrations. */
export interface Kernel {
  config: Config;
  options: AppOptions;
  clock: () => number;
  log: FastifyBaseLogger;
  secretsKey: Buffer;
  db: Db;
  box: SecretBox;
  guard: GuardStore;
  /** Which addresses webhooks and partners' URLs may name. */
  destinations: Destinations;
  publicBaseUrl: string;
  /** Which payment gateway serves which environment. */
  gateways: PaymentGateways;
  storage: StorageIntegration;
  mail: MailIntegration;
  /** Mail waiting to leave, and the worker that sends it. */
  mailQueue: MailQueue;
  sms: SmsIntegration;
  whatsapp: WhatsAppSender | undefined;
  /** The courier app's Web Push sender; absent with WEB_PUSH=off. */
  push: PushSender | undefined;
  /** The transfer provider payouts and mobile money refunds are sent through. */
  transfers: TransferProvider;
  tracing: TracingHandle | undefined;
}

/** The modules' faces, by the name the app knows them (a module not served here is undefined). */
export interface Faces {
  accounts: AccountsService;
  keys: KeyDirectory;
  audit: AuditLog;
  operators: OperatorsService;
  operatorSignIn: OperatorSignIn;
  members: MembersService;
  activation: ActivationService;
  sessions: SessionStore;
  couriers: CouriersService;
  courierSignIn: CourierSignIn;
  /** The courier app's action kinds: the flows register dispatch's there. */
  courierActions: CourierActions;
  /** The courier app's Web Push subscriptions, one per courier session. */
  pushSubscriptions: PushSubscriptions;
  journals: LedgerReads;
  wallet: WalletModule;
  topups: TopupReads;
  /** Proof of delivery: delivery codes, photos and signatures. */
  proofs: ProofService;
  /** Deliveries finished with a photo or signature, waiting for the recipient (or an operator). */
  proofConfirmations: ConfirmationService;
  /** Sandbox test clocks (with the delivery service). */
  testClocks: TestClocksService | undefined;
  /** Present when the delivery service is served by this instance. */
  delivery: DeliveryModule | undefined;
  dispatch: DispatchModule | undefined;
  /** Texts to recipients (with delivery). */
  messages: MessagesModule | undefined;
  /** Present when the safe-catalog service is served by this instance. */
  catalog: CatalogModule | undefined;
  /** Couriers' cash on delivery and handovers (with dispatch). */
  cash: CashService | undefined;
  /** Couriers' pay: rules, policy, earnings. */
  earnings: EarningsService;
  reconciliation: ReconciliationService;
  payouts: PayoutsModule;
  webhookAdmin: WebhookAdminService;
  /** Present unless WEBHOOK_DISPATCHER=off. */
  dispatcher: WebhookDispatcher | undefined;
  /** Retries of sandbox test clocks' events, in their clocks' time. */
  webhookClockRetries: ClockRetries;
}

/** Ports: what one module asks of others, filled by `src/flows/` from their faces. */
export interface Ports {
  tracker: CourierTracker;
  orderClocks: OrderClocks;
  cashDue: DueOnDelivery;
  payeeDirectory: PayeeDirectory;
  payoutNotices: DestinationNotices;
  codVendorsOf: CodVendorsOf;
  heldSubjects: HeldSubjects;
  gatewayReferences: GatewayReferences;
  transferBooks: readonly TransferBooks[];
  activationNotifier: ActivationNotifier;
  endCourierSessions: (courierId: string) => Promise<void>;
  refundHints: OtherTransferHints;
  transferEvents: OtherGatewayEvents;
}

export type Context = Kernel & Faces & Ports;

/** Each port made from the context; a port reads the faces it bridges when called, not when made. */
export type PortMakers = { [K in keyof Ports]: (ctx: Context) => Ports[K] };
