/**
 * Transport: play/pause in real time from cached frames, with the composition's sound (switchable), step, jump
 * to the work area's (or composition's) start and end, timecode and frame number, and the fps actually reached
 * (also as `data-fps`). `data-sound` is the sound's state, `data-sound-time` the second of the composition it
 * plays while it plays (it follows the frames' clock).
 */
import type { JSX } from 'preact';
import { Icon } from '../components/icons.js';
import { ScrubNumber } from '../components/scrub-number.js';
import { activeComp, frameCount, timecode } from '../state/doc.js';
import type { SoundState } from '../state/studio-state.js';
import type { Studio } from '../studio.js';
import { useStudio, useStudioState } from '../studio.js';

/** Jumps used by the buttons and the Home/End keys: the work area's ends, or the composition's. */
export function jump(studio: Studio, to: 'start' | 'end'): void {
  const s = studio.store.state;
  const comp = activeComp(s.doc);
  if (!comp) return;
  studio.player.pause();
  const area = s.workArea ?? { start: 0, end: frameCount(comp) - 1 };
  studio.seek(to === 'start' ? area.start : area.end);
}

export function step(studio: Studio, by: number): void {
  studio.player.pause();
  studio.seek(studio.store.state.frame + by);
}

const SOUND_TITLES: Record<SoundState, string> = {
  off: 'Sound off: playback is silent',
  stopped: 'Sound on: plays with the frames',
  loading: 'Mixing the sound',
  playing: 'Playing the sound',
  silent: 'Nothing in this composition is heard',
  failed: 'The sound could not be mixed',
};

export function TransportPanel(): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const frame = useStudioState((s) => s.frame);
  const playing = useStudioState((s) => s.playing);
  const fps = useStudioState((s) => s.fpsReached);
  const soundOn = useStudioState((s) => s.soundOn);
  const sound = useStudioState((s) => s.sound);
  const soundTime = studio.player.sound.time;
  const comp = activeComp(doc);
  const last = comp ? frameCount(comp) - 1 : 0;

  return (
    <section
      class="transport"
      data-panel="Transport"
      aria-label="Transport"
      data-fps={fps}
      data-sound={sound}
      data-sound-time={soundTime === null ? undefined : soundTime.toFixed(3)}
    >
      <header class="transport-title">
        <h2 class="panel-title">Transport</h2>
      </header>
      <div class="transport-buttons">
        <button class="icon-button" aria-label="Jump to start" onClick={() => jump(studio, 'start')}>
          <Icon name="toStart" />
        </button>
        <button class="icon-button" aria-label="Step back one frame" onClick={() => step(studio, -1)}>
          <Icon name="stepBack" />
        </button>
        <button
          class={`icon-button play ${playing ? 'is-on' : ''}`}
          aria-label={playing ? 'Pause' : 'Play'}
          aria-pressed={playing}
          data-control="Transport/playing"
          onClick={() => studio.player.toggle()}
        >
          <Icon name={playing ? 'pause' : 'play'} size={16} />
        </button>
        <button class="icon-button" aria-label="Step forward one frame" onClick={() => step(studio, 1)}>
          <Icon name="stepForward" />
        </button>
        <button class="icon-button" aria-label="Jump to end" onClick={() => jump(studio, 'end')}>
          <Icon name="toEnd" />
        </button>
      </div>
      <output class="timecode" aria-label="Current time">
        {comp ? timecode(comp, frame) : '00:00:00:00'}
      </output>
      <span class="frame-field">
        <ScrubNumber
          label="Current frame"
          control="Transport/frame"
          value={frame}
          min={0}
          max={last}
          step={0.25}
          precision={0}
          unit={`/ ${last}`}
          onScrub={(v) => studio.seek(v)}
          onCommit={(v) => studio.seek(v)}
        />
      </span>
      <button
        class={`icon-button sound ${soundOn ? 'is-on' : ''}`}
        aria-label={soundOn ? 'Sound on' : 'Sound off'}
        aria-pressed={soundOn}
        title={SOUND_TITLES[sound]}
        data-control="Transport/sound"
        onClick={() => studio.player.sound.setOn(!soundOn)}
      >
        <Icon name={soundOn ? 'sound' : 'soundOff'} />
      </button>
      <span class="fps" aria-label="Frames per second reached">
        {playing ? `${fps} fps` : comp ? `${comp.frameRate} fps` : ''}
      </span>
    </section>
  );
}
