/** The few icons the studio uses, as inline SVG (nothing is loaded from elsewhere). 16x16, currentColor. */
import type { JSX } from 'preact';

const paths = {
  play: 'M5 3.5v9l7.5-4.5z',
  pause: 'M4.5 3.5h2.5v9H4.5zM9 3.5h2.5v9H9z',
  sound: 'M2 6h2.5L8 3v10L4.5 10H2zm8.2-.9 1-1a5.5 5.5 0 0 1 0 7.8l-1-1a4 4 0 0 0 0-5.8z',
  soundOff:
    'M2 6h2.5L8 3v10L4.5 10H2zm8 0 1-1 1.5 1.5L14 5l1 1-1.5 1.5L15 9l-1 1-1.5-1.5L11 10l-1-1 1.5-1.5z',
  stepBack: 'M4 3.5h1.6v9H4zM12.5 3.5v9L6.5 8z',
  stepForward: 'M10.4 3.5H12v9h-1.6zM3.5 3.5v9L9.5 8z',
  toStart: 'M3 3.5h1.5v9H3zM8.5 3.5v9L4.8 8zM13 3.5v9L9.3 8z',
  toEnd: 'M11.5 3.5H13v9h-1.5zM7.5 3.5v9L11.2 8zM3 3.5v9L6.7 8z',
  eye: 'M8 4C4.5 4 2 8 2 8s2.5 4 6 4 6-4 6-4-2.5-4-6-4zm0 6.3A2.3 2.3 0 1 1 8 5.7a2.3 2.3 0 0 1 0 4.6z',
  eyeOff:
    'M2.7 2 2 2.7l2 2C2.8 5.8 2 8 2 8s2.5 4 6 4c1 0 1.9-.3 2.7-.8l2.6 2.6.7-.7zM8 10.3A2.3 2.3 0 0 1 5.8 7.5l3 3c-.3 0-.5.1-.8.1zM8 4c-.7 0-1.4.1-2 .4l1.3 1.3h.7a2.3 2.3 0 0 1 2.3 2.3v.7l2 2C13.3 9.6 14 8 14 8s-2.5-4-6-4z',
  diamond: 'M8 2.5 13.5 8 8 13.5 2.5 8z',
  diamondOutline: 'M8 2.5 13.5 8 8 13.5 2.5 8zm0 2.1L4.6 8 8 11.4 11.4 8z',
  chevronRight: 'M6 4l4 4-4 4z',
  chevronDown: 'M4 6h8l-4 4z',
  undo: 'M6 3 2 6.5 6 10V7.5h3.5a2.5 2.5 0 0 1 0 5H7V14h2.5a4 4 0 0 0 0-8H6z',
  redo: 'M10 3l4 3.5-4 3.5V7.5H6.5a2.5 2.5 0 0 0 0 5H9V14H6.5a4 4 0 0 1 0-8H10z',
  folder: 'M2 4h4.5l1.5 1.5h6v7H2z',
  save: 'M3 2.5h8.5l2 2V13.5H3zM5 3.5v3h5v-3zM5 9h6v3.5H5z',
  plus: 'M7.25 3h1.5v4.25H13v1.5H8.75V13h-1.5V8.75H3v-1.5h4.25z',
  comp: 'M2 3.5h12v9H2zm1.5 1.5v6h9V5z',
  film: 'M2 3h12v10H2zm1.5 1.5V6H5V4.5zm0 3.25v1.5H5v-1.5zm0 3.25v1.5H5V11zm7.5-6.5V6h1.5V4.5zm0 3.25v1.5h1.5v-1.5zm0 3.25v1.5h1.5V11z',
  render: 'M3 2.5v11L13.5 8z',
  stop: 'M4 4h8v8H4z',
  close: 'M4.2 3.1 8 6.9l3.8-3.8 1.1 1.1L9.1 8l3.8 3.8-1.1 1.1L8 9.1l-3.8 3.8-1.1-1.1L6.9 8 3.1 4.2z',
  fx: 'M3 3h5v1.5H4.5v2.2H7.5v1.5H4.5V13H3zM9 6.5h1.8l1.2 1.8 1.2-1.8H15l-2 2.9 2.1 3.1h-1.8L12 10.5l-1.3 2H8.9l2.1-3.1z',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 14 }: { name: IconName; size?: number }): JSX.Element {
  return (
    <svg class="icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill="currentColor" fill-rule="evenodd" />
    </svg>
  );
}
