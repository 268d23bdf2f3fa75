import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const base = { DATABASE_URL: 'memory:' };

describe('observability settings', () => {
  it('leave tracing off unless TRACING=otlp or an OTLP endpoint is given', () => {
    expect(loadConfig(base).tracing).toBeUndefined();
    expect(loadConfig({ ...base, TRACING: 'otlp' }).tracing).toEqual({
      serviceName: 'partner-platform',
      endpoint: 'http://localhost:4318/v1/traces',
    });
    expect(
      loadConfig({
        ...base,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_SERVICE_NAME: 'api',
      }).tracing,
    ).toEqual({ serviceName: 'api', endpoint: 'http://collector:4318/v1/traces' });
    expect(
      loadConfig({ ...base, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/traces' })
        .tracing?.endpoint,
    ).toBe('https://c.example/traces');
    expect(
      loadConfig({ ...base, TRACING: 'off', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })
        .tracing,
    ).toBeUndefined();
  });

  it('refuse a bad TRACING, endpoint, METRICS_PORT or LOG_LEVEL, all on one line', () => {
    expect(() =>
      loadConfig({
        ...base,
        TRACING: 'jaeger',
        PORT: '8080',
        METRICS_PORT: '8080',
        LOG_LEVEL: 'loud',
      }),
    ).toThrow(
      /^invalid configuration: METRICS_PORT must differ from PORT; LOG_LEVEL must be one of .*; TRACING must be one of off, otlp \(got "jaeger"\)$/,
    );
    expect(() => loadConfig({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be http/,
    );
    expect(() => loadConfig({ ...base, METRICS_PORT: '70000' })).toThrow(
      /METRICS_PORT must be a whole number from 1 to 65535/,
    );
    expect(loadConfig({ ...base, METRICS_PORT: '9464' }).metricsPort).toBe(9464);
  });
});

describe('payout fee settings', () => {
  it('refuse to start when a kind bears the transfer fee and no fee is given', () => {
    expect(() => loadConfig({ PAYOUT_FEE_BEARER: 'vendor:payee' })).toThrow(
      /^invalid configuration: PAYOUT_FEE_BEARER makes vendor payees bear the transfer fee: set PAYOUT_PAYEE_FEES/,
    );
    expect(
      loadConfig({
        PAYOUT_FEE_BEARER: 'vendor:payee',
        PAYOUT_PAYEE_FEES: 'mobile_money:100,bank:100',
      }).payouts.fees.bearer,
    ).toEqual({ vendor: 'payee', partner: 'platform', courier: 'platform' });
  });
});

describe('proxy settings', () => {
  it('believe no proxy unless TRUST_PROXY names some, and refuse what is not an address', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe(
      'loopback,10.0.0.0/8',
    );
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
