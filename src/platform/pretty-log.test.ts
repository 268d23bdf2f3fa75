import { describe, expect, it } from 'vitest';
import { humanLogs } from './logger.ts';
import { prettyLine } from './pretty-log.ts';

const at = new Date(2026, 0, 5, 14, 3, 22).getTime();

describe('log lines for a person', () => {
  it('shows the time, the level and the message, then the other fields as key=value', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      pid: 42,
      hostname: 'h',
      reqId: 'req_1',
      msg: 'request',
      method: 'GET',
      route: '/readyz',
      status: 200,
      ms: 0.6,
    });
    expect(prettyLine(`${line}\n`, false)).toBe(
      '14:03:22 INFO  request  reqId=req_1 method=GET route=/readyz status=200 ms=0.6\n',
    );
  });

  it('quotes text with spaces, writes objects as JSON, and puts an error stack with its causes below', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      msg: 'job failed',
      job: 'payouts',
      note: 'two words',
      services: ['delivery'],
      err: {
        type: 'Error',
        message: 'boom',
        stack: 'Error: boom\n    at x',
        cause: { message: 'socket hang up', stack: '' },
      },
    });
    expect(prettyLine(line, false)).toBe(
      '14:03:22 ERROR job failed  job=payouts note="two words" services=["delivery"]\n    Error: boom\n        at x\n    caused by: socket hang up\n',
    );
  });

  it('colours the level on a terminal, and passes on what is not a JSON object', () => {
    expect(prettyLine(JSON.stringify({ level: 40, time: at, msg: 'careful' }), true)).toBe(
      '\x1b[2m14:03:22\x1b[0m \x1b[33mWARN \x1b[0m careful\n',
    );
    expect(prettyLine('plain text\n', false)).toBe('plain text\n');
    expect(prettyLine('[1,2]\n', false)).toBe('[1,2]\n');
  });

  it('is for people when LOG_FORMAT=pretty, or unset on a terminal; JSON otherwise', () => {
    expect(humanLogs('auto', { isTTY: true })).toBe(true);
    expect(humanLogs('auto', {})).toBe(false);
    expect(humanLogs('pretty', {})).toBe(true);
    expect(humanLogs('json', { isTTY: true })).toBe(false);
  });
});
