/**
 * The player: a frame view, a scrub slider (dragging asks for frames; see latest-frames.ts for which replies
 * are shown), play/pause, step back/forward, the frame number and the timecode at the composition's rate.
 * The image shows the last frame that arrived (data-frame); the readout shows where the slider is.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { timecode } from '../../engine/timecode.js';
import type { PlayerInfo } from '../../mcp/player/protocol.js';
import type { PlayerHost, ShownFrame } from './host.js';
import { LatestFrames } from './latest-frames.js';

interface PlayerProps {
  host: PlayerHost;
  info: PlayerInfo;
}

export function Player({ host, info }: PlayerProps) {
  const [target, setTarget] = useState(info.from);
  const [shown, setShown] = useState<ShownFrame | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  // Replies dropped as stale (shown as data-dropped, for tests and for anyone debugging a slow host).
  const [dropped, setDropped] = useState(0);
  const frames = useMemo(
    () =>
      new LatestFrames<ShownFrame>({
        fetch: (frame) => host.frame(info, frame),
        show: (_frame, value) => {
          setShown(value);
          setError(null);
        },
        fail: (_frame, err) => {
          setError(err instanceof Error ? err.message : String(err));
          setPlaying(false);
        },
        dropped: () => setDropped((n) => n + 1),
      }),
    [host, info],
  );

  const goTo = (frame: number) => {
    const clamped = Math.min(info.to, Math.max(info.from, Math.round(frame)));
    setTarget(clamped);
    frames.want(clamped);
  };

  // A new result (another comp or range) starts again at its first frame.
  useEffect(() => {
    setPlaying(false);
    setTarget(info.from);
    frames.refresh(info.from);
    return () => frames.dispose();
  }, [frames, info]);

  usePlayback(playing, info, target, goTo);

  const step = (by: number) => {
    setPlaying(false);
    goTo(target + by);
  };
  const onKey = (e: KeyboardEvent) => {
    // The slider moves itself with the arrow keys (and reports it through onInput): do not step twice.
    if ((e.target as HTMLElement).dataset.role === 'scrub' && e.key !== ' ') return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => step(-1),
      ArrowRight: () => step(1),
      ' ': () => setPlaying((p) => !p),
      Home: () => step(info.from - target),
      End: () => step(info.to - target),
    };
    const run = keys[e.key];
    if (!run) return;
    e.preventDefault();
    run();
  };

  const aspect = `${info.frameSize.width} / ${info.frameSize.height}`;
  return (
    <section
      class="player"
      data-state={error ? 'error' : shown ? 'ready' : 'loading'}
      data-dropped={dropped}
      onKeyDown={onKey}
    >
      <div
        class="frame"
        style={{ aspectRatio: aspect }}
        data-loading={shown?.frame !== target ? '' : undefined}
      >
        {shown && (
          <img
            src={shown.src}
            alt={`Frame ${shown.frame} of ${info.comp.name}`}
            data-frame={shown.frame}
            width={shown.facts.size.width}
            height={shown.facts.size.height}
          />
        )}
      </div>
      <input
        class="scrub"
        type="range"
        aria-label="Frame"
        data-role="scrub"
        min={info.from}
        max={info.to}
        step={1}
        value={target}
        onInput={(e) => {
          setPlaying(false);
          goTo(Number((e.currentTarget as HTMLInputElement).value));
        }}
      />
      <div class="bar">
        <button
          type="button"
          data-role="back"
          title="Previous frame (←)"
          aria-label="Previous frame"
          onClick={() => step(-1)}
        >
          ◀︎|
        </button>
        <button
          type="button"
          data-role="play"
          title="Play/pause (space)"
          aria-label={playing ? 'Pause' : 'Play'}
          aria-pressed={playing}
          onClick={() => setPlaying((p) => !p)}
        >
          {playing ? '❚❚' : '▶︎'}
        </button>
        <button
          type="button"
          data-role="forward"
          title="Next frame (→)"
          aria-label="Next frame"
          onClick={() => step(1)}
        >
          |▶︎
        </button>
        <span class="readout">
          <span data-role="timecode">{timecode(info.frameRate, target)}</span>
          <span class="frame-no">
            frame <span data-role="frame">{target}</span> / {info.to}
          </span>
        </span>
        <span class="comp" title={`${info.width}×${info.height}, ${info.frameRate} fps`}>
          {info.comp.name} · {info.frameRate} fps
        </span>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/**
 * While playing, a real-time clock picks the frame (looping over the range); frames that are not back in time
 * are skipped by LatestFrames rather than queued, so playback keeps time on a slow host.
 */
function usePlayback(playing: boolean, info: PlayerInfo, target: number, goTo: (frame: number) => void) {
  const start = useRef({ at: 0, frame: 0 });
  const goToRef = useRef(goTo);
  goToRef.current = goTo;
  useEffect(() => {
    if (!playing) return;
    const length = info.to - info.from + 1;
    start.current = { at: performance.now(), frame: target >= info.to ? info.from : target };
    let raf = requestAnimationFrame(function tick(now) {
      const elapsed = Math.floor(((now - start.current.at) / 1000) * info.frameRate);
      goToRef.current(info.from + ((start.current.frame - info.from + elapsed) % length));
      raf = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(raf);
    // The clock restarts only when playing starts or the range changes, not on every frame it sets.
  }, [playing, info]);
}
