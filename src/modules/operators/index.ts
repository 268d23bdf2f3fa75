/** Operators' public face: accounts, tokens (resolved into actors for the operator API), sign-in with TOTP, their routes. */
export { OperatorsService, OPERATOR_TOKEN_PREFIX } from './service.ts';
export {
  OperatorSignIn,
  SIGN_IN_ACCOUNT_LIMIT,
  SIGN_IN_IP_LIMIT,
  SIGN_IN_WINDOW_MS,
} from './sign-in.ts';
export { operatorRoutes } from './routes/operators.ts';
export { operatorsModule } from './module.ts';
