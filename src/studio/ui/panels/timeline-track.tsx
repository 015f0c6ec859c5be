/**
 * A layer's track: its in/out bar (drag to move the layer in time, or drag either end to trim its in or out
 * point: one layer.setTiming on release) and, when
 * the layer is expanded, a row of keyframe diamonds per animated property (drag one to retime it: remove +
 * set in one group, so it is one undo step).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Composition, Keyframe, Layer, Project } from '../../../engine/model.js';
import { sourceSeconds } from '../../../engine/shown-footage.js';
import { DEFAULT_TIME_MAP, hasSourceTime } from '../../../engine/time-map.js';
import { windowDrag } from '../components/window-drag.js';
import { isAnimatable, type PropertyRow } from '../state/layer-properties.js';
import { useStudio, useStudioState } from '../studio.js';
import { shiftByFrames, timeX, type TimeScale } from './timeline-geometry.js';
import { retimeOf } from './timeline-retime.js';

const DRAG_THRESHOLD_PX = 3;

type Edge = 'in' | 'out';

export function LayerBar(props: {
  comp: Composition;
  layer: Layer;
  scale: TimeScale;
  selected: boolean;
}): JSX.Element {
  const { comp, layer, scale } = props;
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const [shiftFrames, setShiftFrames] = useState(0);
  const [trim, setTrim] = useState<{ edge: Edge; time: number } | null>(null);
  const shiftPx = shiftFrames * scale.pxPerFrame;
  const inPoint = trim?.edge === 'in' ? trim.time : layer.inPoint;
  const outPoint = trim?.edge === 'out' ? trim.time : layer.outPoint;
  // The bar is drawn within the composition: a music bed longer than the cut had its end (and its out handle)
  // past the track's right side, where nothing could grab it. An end cut off is drawn open (dashed).
  const shownIn = Math.min(Math.max(inPoint, 0), comp.duration);
  const shownOut = Math.max(Math.min(outPoint, comp.duration), 0);
  const retime = retimeOf(doc, { ...layer, inPoint, outPoint });

  const onTrimDown = (edge: Edge) => (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    studio.select(layer.id);
    const startX = e.clientX;
    const from = edge === 'in' ? layer.inPoint : layer.outPoint;
    // The handle is where the edge is drawn (at the composition's end for one past it): the drag moves from there.
    const grabbed = edge === 'in' ? shownIn : shownOut;
    const [lo, hi] = trimRange(doc, comp, layer, edge);
    let time = from;
    windowDrag({
      move: (ev) => {
        const frames = Math.round((ev.clientX - startX) / scale.pxPerFrame);
        // Whole frames of the composition, within what the layer can show.
        const to = frames === 0 ? from : Math.round(grabbed * comp.frameRate + frames) / comp.frameRate;
        time = Math.min(hi, Math.max(lo, to));
        setTrim({ edge, time });
      },
      up: () => {
        if (time === from) return setTrim(null);
        void studio.commands
          .run('layer.setTiming', {
            comp: comp.id,
            layer: layer.id,
            ...(edge === 'in' ? { inPoint: time } : { outPoint: time }),
          })
          .catch(() => undefined)
          .finally(() => setTrim(null));
      },
    });
  };

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    studio.select(layer.id);
    const startX = e.clientX;
    let frames = 0;
    let dragging = false;
    // A layer moved keeps at least a frame inside the composition: dragged wholly out, its bar was gone from the
    // timeline and only undo brought it back.
    const fps = comp.frameRate;
    const [least, most] = [
      Math.min(0, Math.ceil(-layer.outPoint * fps + 1e-6) + 1),
      Math.max(0, Math.floor((comp.duration - layer.inPoint) * fps - 1e-6)),
    ];
    windowDrag({
      move: (ev) => {
        if (!dragging && Math.abs(ev.clientX - startX) < DRAG_THRESHOLD_PX) return;
        dragging = true;
        frames = Math.min(most, Math.max(least, Math.round((ev.clientX - startX) / scale.pxPerFrame)));
        setShiftFrames(frames);
      },
      up: () => {
        if (!frames) return setShiftFrames(0);
        const shift = (t: number) => shiftByFrames(t, frames, fps);
        void studio.commands
          .run('layer.setTiming', {
            comp: comp.id,
            layer: layer.id,
            startTime: shift(layer.startTime),
            inPoint: shift(layer.inPoint),
            outPoint: shift(layer.outPoint),
          })
          .catch(() => undefined)
          .finally(() => setShiftFrames(0));
      },
    });
  };

  return (
    <div
      class={`layer-bar kind-${layer.source.kind} ${props.selected ? 'is-selected' : ''} ${layer.enabled ? '' : 'is-hidden'} ${inPoint < 0 ? 'runs-before' : ''} ${outPoint > comp.duration ? 'runs-past' : ''}`}
      style={{
        left: `${timeX(scale, shownIn) + shiftPx}px`,
        width: `${Math.max(2, timeX(scale, shownOut - shownIn))}px`,
      }}
      role="slider"
      aria-label={`Timing of ${layer.name}: drag to move it in time`}
      aria-valuenow={Number(inPoint.toFixed(3))}
      aria-valuetext={`${inPoint.toFixed(2)}s to ${outPoint.toFixed(2)}s${retime.words ? `, ${retime.words}` : ''}`}
      onPointerDown={onPointerDown}
    >
      {retime.empty.map(([from, to]) => {
        // Drawn within the part of the bar on screen (the composition).
        const [a, b] = [Math.max(from, shownIn), Math.min(to, shownOut)];
        return b > a ? (
          <span
            key={from}
            class="bar-empty"
            style={{ left: `${timeX(scale, a - shownIn)}px`, width: `${timeX(scale, b - a)}px` }}
            title="The source has run out here: nothing of it is shown"
          />
        ) : null;
      })}
      {(['in', 'out'] as const).map((edge) => (
        <span
          key={edge}
          class={`bar-trim is-${edge}`}
          role="slider"
          aria-label={`${edge === 'in' ? 'In' : 'Out'} point of ${layer.name}: drag to trim`}
          aria-valuenow={Number((edge === 'in' ? inPoint : outPoint).toFixed(3))}
          onPointerDown={onTrimDown(edge)}
        />
      ))}
      <span class="bar-label">{layer.name}</span>
      {retime.mark && (
        <span class="bar-retime" title={retime.words ?? undefined}>
          {retime.mark}
        </span>
      )}
    </div>
  );
}

/**
 * Where an edge may be dragged: at least a frame from the other edge, and, for footage or a precomp that
 * neither loops nor freezes, not past the ends of its source (as After Effects stops a trim there).
 */
function trimRange(doc: Project | null, comp: Composition, layer: Layer, edge: Edge): [number, number] {
  const fps = comp.frameRate;
  // Within the composition (a layer that loops, freezes or is a still could otherwise be dragged off-screen)...
  let [lo, hi] =
    edge === 'in'
      ? [0, shiftByFrames(layer.outPoint, -1, fps)]
      : [shiftByFrames(layer.inPoint, 1, fps), comp.duration];
  const map = layer.time ?? DEFAULT_TIME_MAP;
  const length = doc && hasSourceTime(layer) ? sourceSeconds(doc, layer) : null;
  if (length !== null && !map.loop && map.freezeAt === null) {
    lo = Math.max(lo, layer.startTime);
    hi = Math.min(hi, layer.startTime + length / Math.abs(map.speed));
  }
  // ...but never so that the edge jumps the other way: an edge already past these (a layer retimed, a precomp
  // longer than its source) may stay where it is and be dragged back in.
  const at = edge === 'in' ? layer.inPoint : layer.outPoint;
  return edge === 'in'
    ? [Math.min(lo, at), Math.max(Math.min(lo, at), hi)]
    : [Math.min(lo, Math.max(hi, at)), Math.max(hi, at)];
}

export function KeyframeTrack(props: {
  comp: Composition;
  layer: Layer;
  row: PropertyRow;
  scale: TimeScale;
}): JSX.Element {
  const { comp, layer, row, scale } = props;
  if (!isAnimatable(row)) return <div />;
  return (
    <>
      {(row.source.keyframes as readonly Keyframe[]).map((k) => (
        <KeyframeDiamond key={k.time} comp={comp} layer={layer} row={row} keyframe={k} scale={scale} />
      ))}
    </>
  );
}

function KeyframeDiamond(props: {
  comp: Composition;
  layer: Layer;
  row: PropertyRow;
  keyframe: Keyframe;
  scale: TimeScale;
}): JSX.Element {
  const { comp, layer, row, keyframe: k, scale } = props;
  const studio = useStudio();
  const [shiftFrames, setShiftFrames] = useState(0);
  const compTime = k.time + layer.startTime;

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    const startX = e.clientX;
    let frames = 0;
    windowDrag({
      move: (ev) => {
        frames = Math.round((ev.clientX - startX) / scale.pxPerFrame);
        setShiftFrames(frames);
      },
      up: () => {
        if (!frames) {
          studio.seek(Math.round(compTime * comp.frameRate));
          return setShiftFrames(0);
        }
        // Snap the new time to a frame of the composition, in layer time.
        const newTime =
          Math.round((compTime + frames / comp.frameRate) * comp.frameRate) / comp.frameRate -
          layer.startTime;
        const target = { comp: comp.id, layer: layer.id, property: row.path };
        void studio.commands
          .group(`Move ${row.name} keyframe`, [
            { id: 'property.removeKeyframe', params: { ...target, time: k.time } },
            {
              id: 'property.setKeyframe',
              params: {
                ...target,
                time: newTime,
                value: k.value,
                interpolation: k.interpolation,
                ...(k.easeIn && { easeIn: k.easeIn }),
                ...(k.easeOut && { easeOut: k.easeOut }),
              },
            },
          ])
          .catch(() => undefined)
          .finally(() => setShiftFrames(0));
      },
    });
  };

  return (
    <button
      class={`kf-diamond interp-${k.interpolation}`}
      style={{ left: `${timeX(scale, compTime) + shiftFrames * scale.pxPerFrame}px` }}
      aria-label={`${layer.name} ${row.name} keyframe at ${compTime.toFixed(2)}s`}
      onPointerDown={onPointerDown}
    />
  );
}
