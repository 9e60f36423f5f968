/**
 * The dashboard as a person's browser uses it, over HTTP: signs in through the form with an operator's token, keeps
 * the session and CSRF cookies, reads pages and posts their forms with the form's CSRF token.
 */
export interface DashboardSession {
  get(path: string): Promise<DashboardAnswer>;
  /** Reads the page at `formPage`, then posts its form to `path` with its CSRF token and `fields`. */
  submitForm(formPage: string, path: string, fields?: Record<string, string>): Promise<DashboardAnswer>;
}

/** A page or a form's answer; `location` where a redirect leads (a form done goes to its result, a lapsed session to /login). */
export interface DashboardAnswer {
  status: number;
  text: string;
  location?: string;
}

export async function signInToDashboard(origin: string, token: string): Promise<DashboardSession> {
  const cookies = new Map<string, string>();
  const take = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  const cookie = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const get = async (path: string) => {
    const response = await fetch(`${origin}${path}`, { headers: { cookie: cookie() }, redirect: 'manual' });
    take(response);
    return answerOf(response);
  };
  const post = async (path: string, fields: Record<string, string>) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    take(response);
    return answerOf(response);
  };
  const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const login = await get('/login');
  const signedIn = await post('/login', { _csrf: csrfOf(login.text), token, next: '/batches' });
  if (signedIn.status !== 303) throw new Error(`dashboard sign-in answered ${signedIn.status}`);
  return {
    get,
    async submitForm(formPage, path, fields = {}) {
      const page = await get(formPage);
      return post(path, { _csrf: csrfOf(page.text), ...fields });
    },
  };
}

async function answerOf(response: Response): Promise<DashboardAnswer> {
  const location = response.headers.get('location');
  return { status: response.status, text: await response.text(), ...(location === null ? {} : { location }) };
}
