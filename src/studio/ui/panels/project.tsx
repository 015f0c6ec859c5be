/**
 * The project: its compositions (click one to make it active: comp.setActive) and footage (a file that is not
 * there is marked, with a Relink field: footage.relink; one with a picture has a button for a composition made
 * from it: comp.fromFootage); open a project by path, save (the first save asks for a path), and create a
 * composition.
 */
import type { JSX } from 'preact';
import type { FootageItem } from '../../../engine/model.js';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { TextField } from '../components/fields.js';
import { Icon } from '../components/icons.js';
import { Panel } from '../components/panel.js';
import { onTreeKeyDown, treeTabIndex } from '../components/tree-keys.js';
import { useStudio, useStudioState } from '../studio.js';
import { footageFacts } from './footage-facts.js';
import { RpcError } from '../live/rpc-error.js';

type Form = 'open' | 'save' | 'newComp' | null;

/** The end of a long path, which names the file (the full path is in the tooltip). */
const shortPath = (path: string, max = 52) => (path.length <= max ? path : `…${path.slice(-(max - 1))}`);

export function ProjectPanel(): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const projectPath = useStudioState((s) => s.projectPath);
  const unsaved = useStudioState((s) => s.unsaved);
  // Open with unsaved edits asks first: the path typed, waiting for a second Enter (anyone's edits would go).
  const [dropping, setDropping] = useState<string | null>(null);
  const missing = useStudioState((s) => s.missingFootage);
  const changed = useStudioState((s) => s.changedFootage);
  const [form, setForm] = useState<Form>(null);
  const [relinking, setRelinking] = useState<string | null>(null);
  const run = (id: string, params: Record<string, unknown> = {}) =>
    studio.commands.run(id, params).then(
      () => true,
      () => false,
    );

  // A save refused because someone else saved the file since (file_changed): the path, until saved or left.
  const [overwriting, setOverwriting] = useState<string | null>(null);
  const saveTo = (path: string | null, overwrite = false) =>
    studio.commands
      .run('project.save', { ...(path !== null && { path }), ...(overwrite && { overwrite }) })
      .then(
        () => {
          setOverwriting(null);
          return true;
        },
        (error: unknown) => {
          // Ask in the Save as form: another path keeps both versions, Replace writes over theirs.
          if (error instanceof RpcError && error.code === 'file_changed') {
            setOverwriting(path ?? projectPath);
            setForm('save');
          }
          return false;
        },
      );

  const save = () => (projectPath ? void saveTo(null) : setForm('save'));
  /** Enter (or Space) on an item: a composition becomes active; a missing or changed file opens its Relink. */
  const pick = (li: HTMLElement) => {
    const id = li.dataset.item;
    const item = doc?.items.find((i) => i.id === id);
    if (item?.type === 'composition' && doc?.activeComp !== item.id)
      void run('comp.setActive', { comp: item.id });
    else if (item?.type === 'footage' && (missing.includes(item.id) || changed[item.id]))
      setRelinking(relinking === item.id ? null : item.id);
  };
  const toggle = (f: Form) => setForm(form === f ? null : f);

  const actions = (
    <>
      <button
        class="icon-button"
        aria-label="Open project"
        aria-pressed={form === 'open'}
        onClick={() => toggle('open')}
      >
        <Icon name="folder" />
      </button>
      <button class="icon-button" aria-label="Save project" onClick={save}>
        <Icon name="save" />
      </button>
      <button
        class="icon-button"
        aria-label="New composition"
        aria-pressed={form === 'newComp'}
        onClick={() => toggle('newComp')}
      >
        <Icon name="plus" />
      </button>
    </>
  );

  return (
    <Panel name="Project" actions={actions}>
      <div class="project-meta" title={projectPath ?? 'Not saved yet'}>
        <strong>{doc?.name ?? 'No project'}</strong>
        <span class="muted path">
          {projectPath ? shortPath(projectPath) : 'not saved'}
          {unsaved && projectPath && <span class="unsaved"> · unsaved changes</span>}
        </span>
      </div>
      {(form === 'open' || form === 'save') && (
        <div class="inline-form">
          <TextField
            label={form === 'open' ? 'Project file to open' : 'Save project as'}
            placeholder="/absolute/path/project.ecproj"
            value={form === 'save' ? (projectPath ?? '') : ''}
            autoFocus
            onCommit={async (path) => {
              const target = path.trim();
              if (form === 'open' && unsaved && dropping !== target) return setDropping(target);
              setDropping(null);
              const ok = form === 'open' ? await run('project.open', { path: target }) : await saveTo(target);
              if (ok) setForm(null);
            }}
            onCancel={() => {
              setDropping(null);
              setOverwriting(null);
              setForm(null);
            }}
          />
          {form === 'open' && dropping !== null ? (
            <span class="hint warn" role="alert">
              This project has unsaved changes (yours and any agent's): opening another drops them. Enter
              again to open anyway, or Esc and save first.
            </span>
          ) : form === 'save' && overwriting !== null ? (
            <span class="hint warn" role="alert">
              Someone else saved this file since you opened it. Type another path to keep both, or{' '}
              <button
                type="button"
                class="button small"
                onClick={async () => {
                  if (await saveTo(overwriting, true)) setForm(null);
                }}
              >
                Replace their version
              </button>
            </span>
          ) : (
            <span class="hint">Enter to {form === 'open' ? 'open' : 'save'}, Esc to close</span>
          )}
        </div>
      )}
      {form === 'newComp' && (
        <NewCompForm
          onCreate={async (params) => {
            if (await run('comp.new', params)) setForm(null);
          }}
          onCancel={() => setForm(null)}
        />
      )}
      <ul
        class="item-list"
        role="tree"
        aria-label="Project items"
        data-control="Project/activeComp"
        onKeyDown={(e) => onTreeKeyDown(e, pick, (li) => li.dataset.item === doc?.activeComp)}
      >
        {(doc?.items ?? []).map((item, index) =>
          item.type === 'composition' ? (
            <li
              key={item.id}
              role="treeitem"
              data-item={item.id}
              tabIndex={treeTabIndex(doc?.activeComp === item.id, index, doc?.activeComp != null)}
              aria-label={`Composition ${item.name}`}
              aria-selected={doc?.activeComp === item.id}
              class={`item ${doc?.activeComp === item.id ? 'is-active' : ''}`}
              onClick={() => doc?.activeComp !== item.id && void run('comp.setActive', { comp: item.id })}
            >
              <Icon name="comp" />
              <span class="name-text">{item.name}</span>
              <span class="muted">
                {item.width}×{item.height} · {item.frameRate} fps · {item.duration}s
              </span>
            </li>
          ) : item.type === 'footage' ? (
            <FootageRow
              key={item.id}
              item={item}
              tabIndex={treeTabIndex(false, index, doc?.activeComp != null)}
              missing={missing.includes(item.id)}
              change={changed[item.id] ?? null}
              relinking={relinking === item.id}
              onRelink={(open) => setRelinking(open ? item.id : null)}
              run={run}
            />
          ) : (
            <li
              key={item.id}
              role="treeitem"
              tabIndex={treeTabIndex(false, index, doc?.activeComp != null)}
              aria-label={`Folder ${item.name}`}
              class="item"
            >
              <Icon name="folder" />
              <span class="name-text">{item.name}</span>
            </li>
          ),
        )}
      </ul>
    </Panel>
  );
}

/**
 * A footage item; one whose file is not there, or is there but no longer the clip it was imported as (written
 * over at another size), is marked, with Relink: a new place for the file, or the same path to read it again.
 */
function FootageRow(props: {
  item: FootageItem;
  missing: boolean;
  /** What changed in the file on disk, or null. */
  change: string | null;
  tabIndex: number;
  relinking: boolean;
  onRelink(open: boolean): void;
  run(id: string, params: Record<string, unknown>): Promise<boolean>;
}): JSX.Element {
  const { item, missing, change } = props;
  const mark = missing ? 'missing' : change ? 'changed' : null;
  const title = missing
    ? `Not found: ${item.path}`
    : change
      ? `${change} Relink reads the file again (Apply with the same path).`
      : item.path;
  return (
    <>
      <li
        role="treeitem"
        aria-label={`Footage ${item.name}${mark ? ` (${mark})` : ''}`}
        class={`item ${mark ? 'is-missing' : ''}`}
        data-footage-state={mark ?? 'ok'}
        data-item={item.id}
        tabIndex={props.tabIndex}
        title={title}
      >
        <Icon name="film" />
        <span class="name-text">{item.name}</span>
        {mark ? (
          <>
            <span class="missing-mark">{mark}</span>
            <button
              class="button small"
              aria-label={`Relink ${item.name}`}
              aria-pressed={props.relinking}
              onClick={() => props.onRelink(!props.relinking)}
            >
              Relink
            </button>
          </>
        ) : (
          <>
            <span class="muted">{footageFacts(item)}</span>
            {item.media?.kind !== 'audio' && (
              <button
                class="icon-button"
                aria-label={`New composition from ${item.name}`}
                title="New composition from this footage: its size, frame rate and length, with it as a layer"
                onClick={() => void props.run('comp.fromFootage', { footage: item.id })}
              >
                <Icon name="plus" />
              </button>
            )}
          </>
        )}
      </li>
      {props.relinking && (
        <RelinkForm
          item={item}
          onRelink={(path) => props.run('footage.relink', { footage: item.id, path })}
          onClose={() => props.onRelink(false)}
        />
      )}
    </>
  );
}

/**
 * The new path for a footage item: Enter or the Apply button relinks (and closes on success); Escape or Cancel
 * closes. What was typed stays while the focus is elsewhere (a path copied from another window).
 */
function RelinkForm(props: {
  item: FootageItem;
  onRelink(path: string): Promise<boolean>;
  onClose(): void;
}): JSX.Element {
  const { item } = props;
  const [path, setPath] = useState(item.path);
  const input = useRef<HTMLInputElement>(null);
  // Focused once, as it opens (the autofocus attribute only acts at page load).
  useLayoutEffect(() => input.current?.select(), []);
  const apply = async () => {
    if (await props.onRelink(path.trim())) props.onClose();
  };
  return (
    <li class="inline-form" aria-label={`Relink ${item.name}`}>
      <form
        class="relink-form"
        onSubmit={(e) => {
          e.preventDefault();
          void apply();
        }}
      >
        <input
          class="field wide"
          aria-label={`New file for ${item.name}`}
          placeholder="/absolute/path/to/the/file"
          value={path}
          ref={input}
          onInput={(e) => setPath(e.currentTarget.value)}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Escape') props.onClose();
          }}
        />
        <button type="submit" class="button small primary" aria-label={`Apply relink of ${item.name}`}>
          Apply
        </button>
        <button type="button" class="button small" onClick={props.onClose}>
          Cancel
        </button>
      </form>
    </li>
  );
}

function NewCompForm(props: {
  onCreate(params: Record<string, unknown>): void;
  onCancel(): void;
}): JSX.Element {
  const [values, setValues] = useState({
    name: 'Comp 1',
    width: '1920',
    height: '1080',
    frameRate: '30',
    duration: '10',
  });
  const field = (key: keyof typeof values, label: string) => (
    <label class="form-field">
      <span>{label}</span>
      <input
        class="field"
        aria-label={`New composition ${label.toLowerCase()}`}
        value={values[key]}
        onInput={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
        onKeyDown={(e) => e.stopPropagation()}
      />
    </label>
  );
  return (
    <form
      class="inline-form comp-form"
      aria-label="New composition"
      onSubmit={(e) => {
        e.preventDefault();
        props.onCreate({
          name: values.name,
          width: Number(values.width),
          height: Number(values.height),
          frameRate: Number(values.frameRate),
          duration: Number(values.duration),
        });
      }}
    >
      {field('name', 'Name')}
      {field('width', 'Width')}
      {field('height', 'Height')}
      {field('frameRate', 'FPS')}
      {field('duration', 'Seconds')}
      <div class="form-buttons">
        <button type="button" class="button" aria-label="Cancel new composition" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" aria-label="Create composition">
          Create
        </button>
      </div>
    </form>
  );
}
