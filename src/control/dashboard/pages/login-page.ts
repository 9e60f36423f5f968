import { html, type SafeHtml } from '../html.js';
import { formErrorBlock } from '../notice.js';

/** The sign-in form: the token is posted in the body, never put in a URL. */
export function loginPage(options: { csrfToken: string; next: string; error?: string }): SafeHtml {
  return html`<section class="narrow">
<h1>Sign in</h1>
<p>Enter the control token of this server (<code>SEATFLOW_CONTROL_TOKEN</code>, or the one <code>seatflow serve</code> printed when it started).</p>
${formErrorBlock(options.error === undefined ? undefined : { message: options.error })}
<form method="post" action="/login">
  <input type="hidden" name="_csrf" value="${options.csrfToken}">
  <input type="hidden" name="next" value="${options.next}">
  <label for="token">Control token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required minlength="32" autofocus>
  <button type="submit">Sign in</button>
</form>
</section>`;
}
