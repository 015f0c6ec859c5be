/**
 * The studio's server side over real HTTP and WebSocket: who may open it (one-time link, cookie, Host, Origin,
 * CSP), what pages receive (everyone's edits with their actor, the revision), the viewer's frames (the same
 * pixels as a final still), and the UI methods reaching the page focused last.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FrameHeaders, SCRIPT_PATH, type ActivityEntry } from '../../../src/studio/protocol.js';
import { tempDir } from '../../helpers/tmp.js';
import {
  nextEvent,
  openAgent,
  openPage,
  signIn,
  startStudioApp,
  tryLive,
  type StudioApp,
} from './harness.js';

/** GET with a Host header of our choosing (fetch does not allow setting Host). */
function getWithHost(app: StudioApp, path: string, host: string, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: app.host.port, path, headers: { host, ...(cookie && { cookie }) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function withComp(app: StudioApp): Promise<string> {
  const r = await app.session.engine.execute<{ id: string }>('comp.new', {
    name: 'Main',
    width: 320,
    height: 180,
    duration: 1,
    frameRate: 10,
  });
  if (!r.ok) throw new Error(r.error.message);
  await app.session.engine.execute('layer.addSolid', { color: '#e94560', width: 120, height: 80 });
  await app.session.engine.execute('layer.addText', { text: 'Hi', fontSize: 40 });
  return r.result.id;
}

describe('who may open the studio', () => {
  it('answers 401 without the session cookie, and serves the page with it', async () => {
    const app = await startStudioApp();
    for (const path of ['/', '/assets/app.js', '/studio/frame?comp=x&frame=0']) {
      const res = await fetch(app.base + path);
      expect(res.status, path).toBe(401);
    }
    const cookie = await signIn(app);
    const page = await fetch(app.base + '/', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('stub studio');
    expect((await fetch(app.base + '/assets/app.js', { headers: { cookie } })).status).toBe(200);
    expect((await fetch(app.base + '/assets/../index.html', { headers: { cookie } })).status).not.toBe(500);
  });

  it('exchanges a one-time link for an HttpOnly SameSite=Strict cookie and a clean URL, once', async () => {
    const app = await startStudioApp();
    const link = app.studio.link();
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toMatch(/already used/);
    // A made-up token does not sign in either.
    const forged = await fetch(`${app.base}/?token=${'0'.repeat(48)}`, { redirect: 'manual' });
    expect(forged.status).toBe(401);
  });

  it('refuses a Host that is not the address it listens on (DNS rebinding) with 403, cookie or not', async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    expect(await getWithHost(app, '/', `evil.example:${app.host.port}`, cookie)).toBe(403);
    expect(await getWithHost(app, '/', `127.0.0.1:${app.host.port + 1}`, cookie)).toBe(403);
    expect(await getWithHost(app, '/', `localhost:${app.host.port}`, cookie)).toBe(200);
    expect(await getWithHost(app, '/', `127.0.0.1:${app.host.port}`, cookie)).toBe(200);
  });

  it("sends a Content-Security-Policy that allows only the studio's own origin", async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    const csp =
      (await fetch(app.base + '/', { headers: { cookie } })).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('opens the live channel only with the cookie, the right Host and the studio Origin', async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    expect(await tryLive(app, { origin: app.base })).toBe(401);
    expect(await tryLive(app, { cookie, origin: 'http://evil.example' })).toBe(403);
    expect(await tryLive(app, { cookie })).toBe(403);
    expect(await tryLive(app, { cookie, origin: app.base, host: `evil.example:${app.host.port}` })).toBe(403);
    expect(await tryLive(app, { cookie, origin: app.base })).toBe(101);
  });
});

describe('what pages see', () => {
  it('tells every page and agent when anyone saves, so "unsaved changes" clears at once', async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    const pageA = await openPage(app, cookie);
    const pageB = await openPage(app, cookie);
    const agent = await openAgent(app);
    await withComp(app);
    type SavedView = { unsaved: boolean; projectPath: string | null; revision: number };
    expect(((await pageB.request('session.view', {})) as SavedView).unsaved).toBe(true);

    // A save changes no document (no documentChanged), yet every view's "unsaved" and path change.
    const path = join(await tempDir(), 'saved.ecproj');
    const seenByB = nextEvent<{ path: string; revision: number }>(pageB, 'event.projectSaved');
    const seenByAgent = nextEvent<{ path: string }>(agent, 'event.projectSaved');
    await pageA.request('engine.execute', { id: 'project.save', params: { path } });
    const saved = await seenByB;
    expect(saved.path).toBe(path);
    expect((await seenByAgent).path).toBe(path);
    const view = (await pageB.request('session.view', {})) as SavedView;
    expect(view).toMatchObject({ unsaved: false, projectPath: path, revision: saved.revision });

    // An agent's save over the control channel reaches the pages too.
    await withComp(app);
    const again = nextEvent<{ path: string }>(pageA, 'event.projectSaved');
    await agent.request('engine.execute', { id: 'project.save', params: {} });
    expect((await again).path).toBe(path);
  });

  it("shows every page everyone's edits with who made them and a rising revision", async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    const pageA = await openPage(app, cookie);
    const pageB = await openPage(app, cookie);
    const agent = await openAgent(app);

    const seenByB = nextEvent<{ entry: ActivityEntry }>(pageB, 'event.activity');
    const changed = nextEvent<{ revision: number }>(pageB, 'event.documentChanged');
    await agent.request('engine.execute', {
      id: 'comp.new',
      params: { name: 'Agent comp', width: 320, height: 180 },
    });
    expect((await seenByB).entry).toMatchObject({ command: 'comp.new', ok: true, actor: { kind: 'agent' } });
    const rev1 = (await changed).revision;

    const seenByA = nextEvent<{ entry: ActivityEntry }>(pageA, 'event.activity');
    await pageB.request('engine.execute', {
      id: 'layer.addText',
      params: { text: 'From B', name: 'From B' },
    });
    const entry = (await seenByA).entry;
    expect(entry).toMatchObject({ command: 'layer.addText', ok: true, actor: { kind: 'page' } });

    const view = (await pageA.request('session.view', {})) as {
      revision: number;
      doc: { items: Array<{ layers?: Array<{ name: string }> }> };
    };
    expect(view.revision).toBeGreaterThan(rev1);
    expect(view.doc.items[0]?.layers?.map((l) => l.name)).toContain('From B');

    // A refused command is in the log too, with its error.
    const refused = nextEvent<{ entry: ActivityEntry }>(pageA, 'event.activity');
    await expect(
      agent.request('engine.execute', { id: 'layer.rename', params: { layer: 'nope', name: 'x' } }),
    ).rejects.toThrow();
    expect((await refused).entry).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const log = (await pageA.request('studio.activity', {})) as { entries: ActivityEntry[] };
    expect(log.entries.map((e) => e.command)).toEqual(['layer.rename', 'layer.addText', 'comp.new']);
  });

  it('draws viewer frames with the same pixels as a final still', async () => {
    const app = await startStudioApp();
    const comp = await withComp(app);
    const cookie = await signIn(app);
    const res = await fetch(`${app.base}/studio/frame?comp=${comp}&frame=3&scale=1`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get(FrameHeaders.width)).toBe('320');
    expect(res.headers.get(FrameHeaders.revision)).toBe(String(app.session.engine.revision));
    const viewer = Buffer.from(await res.arrayBuffer());

    const dir = await tempDir();
    const still = join(dir, 'still.png');
    const saved = await app.session.engine.execute('frame.save', { comp, time: 0.3, path: still });
    expect(saved.ok).toBe(true);
    const { data } = await sharp(still).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(viewer.length).toBe(320 * 180 * 4);
    expect(viewer.equals(data)).toBe(true);

    const half = await fetch(`${app.base}/studio/frame?comp=${comp}&frame=3&scale=0.5`, {
      headers: { cookie },
    });
    expect(half.headers.get(FrameHeaders.width)).toBe('160');
    expect((await half.arrayBuffer()).byteLength).toBe(160 * 90 * 4);
  });

  it('answers a bad frame request with a JSON error naming the parameter', async () => {
    const app = await startStudioApp();
    const comp = await withComp(app);
    const cookie = await signIn(app);
    const late = await fetch(`${app.base}/studio/frame?comp=${comp}&frame=10`, { headers: { cookie } });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({
      code: 'bad_argument',
      message: expect.stringContaining('frame'),
    });
    const missing = await fetch(`${app.base}/studio/frame?comp=comp_99&frame=0`, { headers: { cookie } });
    expect(missing.status).toBe(404);
    const huge = await fetch(`${app.base}/studio/frame?comp=${comp}&frame=0&scale=40`, {
      headers: { cookie },
    });
    expect(huge.status).toBe(400);
  });
});

describe('UI methods reach the page focused last', () => {
  it('answers not_configured with the remedy when no page is open', async () => {
    const app = await startStudioApp();
    const agent = await openAgent(app);
    await expect(agent.request('ui.click', { x: 1, y: 2 })).rejects.toMatchObject({
      code: 'not_configured',
      remediation: expect.stringContaining('--studio-headless'),
    });
    const status = (await agent.request('studio.status', {})) as Record<string, unknown>;
    expect(status).toMatchObject({ served: true, pages: 0, driving: null });
  });

  it('forwards to the page focused last and passes its answer back', async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    const clicks: string[] = [];
    const answer = (name: string) => async (method: string, params: unknown) => {
      clicks.push(`${name}:${method}`);
      return { hit: { role: 'button', label: `${name} ${JSON.stringify(params)}`, tag: 'button' } };
    };
    const pageA = await openPage(app, cookie, answer('A'));
    await openPage(app, cookie, answer('B'));
    const agent = await openAgent(app);
    // No page focused yet: the one opened last (B).
    expect(await agent.request('ui.click', { x: 5, y: 6 })).toMatchObject({
      hit: { label: 'B {"x":5,"y":6}' },
    });
    await pageA.request('studio.focus', {});
    expect(await agent.request('ui.click', { x: 7, y: 8 })).toMatchObject({
      hit: { label: expect.stringMatching(/^A /) },
    });
    expect(clicks).toEqual(['B:page.click', 'A:page.click']);
    const status = (await agent.request('studio.status', {})) as {
      pages: number;
      driving: { pageId: string };
    };
    expect(status.pages).toBe(2);
    expect(status.driving.pageId).toBe('page_1');
  });

  it('stages script_ui code as a one-shot same-origin script, and refuses code that does not parse', async () => {
    const app = await startStudioApp();
    const cookie = await signIn(app);
    let fetched: { first: number; body: string; second: number } | undefined;
    await openPage(app, cookie, async (method, params) => {
      const { url } = params as { url: string };
      expect(method).toBe('page.script');
      expect(url.startsWith(SCRIPT_PATH + '/')).toBe(true);
      const first = await fetch(app.base + url, { headers: { cookie } });
      const body = await first.text();
      const second = (await fetch(app.base + url, { headers: { cookie } })).status;
      fetched = { first: first.status, body, second };
      return { value: 42 };
    });
    const agent = await openAgent(app);
    await expect(agent.request('ui.script', { code: 'return (' })).rejects.toMatchObject({
      code: 'bad_argument',
    });
    expect(fetched).toBeUndefined();
    expect(await agent.request('ui.script', { code: 'return studio.state.revision;' })).toMatchObject({
      value: 42,
    });
    expect(fetched?.first).toBe(200);
    expect(fetched?.body).toContain('return studio.state.revision;');
    expect(fetched?.second).toBe(404);
  });

  it('refuses an unknown control action with every action listed, page or not', async () => {
    const app = await startStudioApp();
    const agent = await openAgent(app);
    // With no page open it was not_configured ("open the studio"), with one the page listed only its own actions.
    const unknown = agent.request('ui.control', { action: 'Screenshot' });
    await expect(unknown).rejects.toMatchObject({ code: 'bad_argument' });
    const remedy = ((await unknown.catch((e: unknown) => e)) as { remediation: string }).remediation;
    for (const action of ['screenshot', 'layout', 'link', 'status', 'setViewport'])
      expect(remedy).toContain(action);
  });

  it('gives a fresh one-time link through control {action: "link"} without a page', async () => {
    const app = await startStudioApp();
    const agent = await openAgent(app);
    const { url } = (await agent.request('ui.control', { action: 'link' })) as { url: string };
    expect(url).toMatch(new RegExp(`^${app.base}/\\?token=[0-9a-f]{48}$`));
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
  });
});
