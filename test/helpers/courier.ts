import type { TestPlatform } from './harness.ts';
import { textsTo } from './outbox-read.ts';
import { csrfOf, WebClient } from './web.ts';

let counter = 0;
/** A Ghana mobile number no other test of the run uses. */
export const newPhone = () =>
  `+23324${String(process.pid % 1000).padStart(3, '0')}${String(counter++ % 10000).padStart(4, '0')}`;

/** The newest sign-in code the development outbox holds for `phone` (after the sends have settled). */
export async function smsCode(p: TestPlatform, phone: string): Promise<string | undefined> {
  await p.app.platform.courierSignIn.settled();
  const [newest] = await textsTo(p, phone);
  return newest && /\b(\d{6})\b/.exec(newest.body)?.[1];
}

/** Asks for a code at /courier/sign-in as a browser would. */
export async function requestCode(web: WebClient, phone: string) {
  return web.submit('/courier/sign-in', '/courier/sign-in', { phone });
}

/** Enters a code on the code page (with that page's form token). */
export async function enterCode(web: WebClient, phone: string, code: string) {
  const token = web.cookies.get('pp_form') ?? '';
  return web.post('/courier/sign-in/code', { _csrf: token, phone, code });
}

/** A courier created through the service and signed in to the courier app with their code. */
export async function signedInCourier(
  p: TestPlatform,
  name = 'Kojo Asante',
): Promise<{ web: WebClient; id: string; phone: string; csrf: string }> {
  const phone = newPhone();
  const courier = await p.app.platform.couriers.create({ name, phone, vehicle: 'motorbike' });
  const web = new WebClient(p);
  await requestCode(web, phone);
  const res = await enterCode(web, phone, (await smsCode(p, phone))!);
  if (res.status !== 303)
    throw new Error(`courier sign-in failed: ${res.status} ${res.text.slice(0, 200)}`);
  const home = await web.get('/courier/');
  const csrf = /data-csrf="([^"]+)"/.exec(home.text)?.[1];
  if (!csrf) throw new Error(`no CSRF token on the courier home page: ${csrfOf}`);
  return { web, id: courier.id, phone, csrf };
}
