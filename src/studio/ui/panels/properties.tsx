/**
 * The selected layer's properties: transform, source, time mapping and sound (footage and precomp layers),
 * effects; each editable with its unit, and the keyframed ones with their keyframe toggle; Fit to comp (layer.fit)
 * for a layer with a picture size.
 */
import type { JSX } from 'preact';
import { EFFECT_TYPE_NAMES, effectType } from '../../../engine/effect-types.js';
import { Panel } from '../components/panel.js';
import { activeComp, layerById } from '../state/doc.js';
import { effectNames, layerProperties, type PropertyRow } from '../state/layer-properties.js';
import { layerSwitches, type SwitchRow } from '../state/layer-switches.js';
import { playsSoundOnly } from '../../../engine/shown-footage.js';
import { useStudio, useStudioState } from '../studio.js';
import { PropertyRowView } from './property-row.js';
import { SwitchRowView } from './switch-row.js';

/** The layers with a picture size layer.fit can scale, and its modes in a person's words. */
const FITTABLE = new Set(['footage', 'solid', 'precomp']);
const FIT_CHOICES = [
  ['contain', 'Contain: all of it shows'],
  ['cover', 'Cover: fill the frame, crop'],
  ['stretch', 'Stretch to the frame'],
  ['width', 'Fit width'],
  ['height', 'Fit height'],
] as const;

export function PropertiesPanel(): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const selection = useStudioState((s) => s.selection);
  const frame = useStudioState((s) => s.frame);
  const comp = activeComp(doc);
  const layer = layerById(comp, selection);

  if (!comp || !layer) {
    return (
      <Panel name="Properties">
        <p class="empty">Select a layer to see its properties.</p>
      </Panel>
    );
  }
  const rows = layerProperties(layer, doc);
  // A sound file's layer has no picture for an effect to change (effect.add refuses it).
  const soundOnly = doc !== null && playsSoundOnly(doc, layer);
  const switches = doc ? layerSwitches(doc, comp, layer, frame) : [];
  // Groups in order: transform and source, then Time and Audio, then the effects.
  const groups = new Map<string, { rows: PropertyRow[]; switches: SwitchRow[] }>();
  const groupOf = (name: string) => {
    if (!groups.has(name)) groups.set(name, { rows: [], switches: [] });
    return groups.get(name)!;
  };
  for (const r of rows) if (!r.group.startsWith('Effects/') && r.group !== 'Audio') groupOf(r.group);
  for (const sw of switches) groupOf(sw.group).switches.push(sw);
  for (const r of rows) groupOf(r.group).rows.push(r);
  const effects = new Map(effectNames(layer).map((e) => [`Effects/${e.name}`, e.effect]));

  return (
    <Panel
      name="Properties"
      actions={
        <span class="panel-subtitle" title={layer.id}>
          {layer.name}
        </span>
      }
    >
      <div role="treegrid" aria-label={`Properties of ${layer.name}`}>
        {[...groups].map(([group, { rows: groupRows, switches: groupSwitches }]) => {
          const effect = effects.get(group);
          return (
            <section class="prop-group" key={group} aria-label={group}>
              <h3 class="prop-group-title">
                {effect ? group.slice('Effects/'.length) : group}
                {effect && (
                  <span class="group-tools">
                    <label class="check">
                      <input
                        type="checkbox"
                        aria-label={`Enable ${group.slice('Effects/'.length)}`}
                        checked={effect.enabled}
                        onChange={(e) =>
                          void studio.commands
                            .run('effect.set', {
                              comp: comp.id,
                              layer: layer.id,
                              effect: effect.id,
                              enabled: e.currentTarget.checked,
                            })
                            .catch(() => undefined)
                        }
                      />
                      fx
                    </label>
                    <button
                      class="icon-button"
                      aria-label={`Remove ${group.slice('Effects/'.length)}`}
                      onClick={() =>
                        void studio.commands
                          .run('effect.remove', { comp: comp.id, layer: layer.id, effect: effect.id })
                          .catch(() => undefined)
                      }
                    >
                      ×
                    </button>
                  </span>
                )}
              </h3>
              {groupRows.map((row) => (
                <PropertyRowView key={row.path} row={row} comp={comp} layer={layer} frame={frame} />
              ))}
              {groupSwitches.map((sw) => (
                <SwitchRowView key={sw.name} row={sw} />
              ))}
            </section>
          );
        })}
      </div>
      {!soundOnly && FITTABLE.has(layer.source.kind) && (
        <div class="add-effect">
          <select
            aria-label="Fit to composition"
            title="Scale and centre the layer to the composition (layer.fit)"
            value=""
            onChange={(e) => {
              const mode = e.currentTarget.value;
              e.currentTarget.value = '';
              if (mode)
                void studio.commands
                  .run('layer.fit', { comp: comp.id, layer: layer.id, mode })
                  .catch(() => undefined);
            }}
          >
            <option value="">Fit to comp…</option>
            {FIT_CHOICES.map(([mode, words]) => (
              <option key={mode} value={mode}>
                {words}
              </option>
            ))}
          </select>
        </div>
      )}
      {!soundOnly && (
        <div class="add-effect">
          <select
            aria-label="Add effect"
            value=""
            onChange={(e) => {
              const effect = e.currentTarget.value;
              e.currentTarget.value = '';
              if (effect) {
                void studio.commands
                  .run('effect.add', { comp: comp.id, layer: layer.id, effect })
                  .catch(() => undefined);
              }
            }}
          >
            <option value="">Add effect…</option>
            {EFFECT_TYPE_NAMES.map((name) => (
              <option key={name} value={name}>
                {effectType(name)?.title ?? name}
              </option>
            ))}
          </select>
        </div>
      )}
    </Panel>
  );
}
