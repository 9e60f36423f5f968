/** An answer of the control API: its status and its body (JSON when it is JSON, else the text). */
export interface ControlAnswer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * `seatflow serve`'s control API as an operator's script calls it: bearer token, JSON or a manifest's bytes. Answers
 * are returned whatever their status (a refusal is something the simulation records, not an error); only a server
 * that cannot be reached, or that takes more than five minutes (a sync waiting out 429s), throws.
 */
export interface ControlApi {
  origin: string;
  get(path: string): Promise<ControlAnswer>;
  post(path: string, body?: { json: unknown } | { bytes: string; type: string }): Promise<ControlAnswer>;
}

export function controlApi(origin: string, token: string): ControlApi {
  const request = async (method: string, path: string, body?: { json: unknown } | { bytes: string; type: string }): Promise<ControlAnswer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let payload: string | undefined;
    if (body !== undefined && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body !== undefined) {
      headers['content-type'] = body.type;
      payload = body.bytes;
    }
    const response = await fetch(`${origin}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }), signal: AbortSignal.timeout(300_000) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a report in CSV or JSON Lines): the text is the body.
    }
    return { status: response.status, body: parsed, text };
  };
  return { origin, get: (path) => request('GET', path), post: (path, body) => request('POST', path, body) };
}
