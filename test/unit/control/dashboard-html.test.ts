import { describe, expect, it } from 'vitest';
import { html } from '../../../src/control/dashboard/html.js';

describe('the dashboard’s html template', () => {
  it('escapes markup, and shows control characters and bidirectional overrides as escapes, keeping line breaks', () => {
    const name = 'invoice\u202Efdp.exe';
    const page = html`<p>${name}</p><p>${'a<b>\u001b[31m'}</p><pre>${'line 1\nline 2\tend'}</pre>`.text;
    expect(page).toBe('<p>invoice\\u202efdp.exe</p><p>a&lt;b&gt;\\u001b[31m</p><pre>line 1\nline 2\\tend</pre>');
  });
});
