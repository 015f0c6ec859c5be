/** Starts the studio page: the Studio, its UI tools, the shortcuts and focus reports, then the layout. */
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import './styles/theme.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/panels.css';
import './styles/timeline.css';
import { render } from 'preact';
import { App } from './app.js';
import { installShortcuts } from './keyboard.js';
import { Studio, StudioContext } from './studio.js';
import { installPageTools } from './tools/page-requests.js';

const studio = new Studio();
installPageTools(studio);
installShortcuts(studio);
// The UI tools drive the page that had the person's attention last.
window.addEventListener('focus', () => studio.focus());
document.addEventListener('pointerdown', () => studio.focus(), { capture: true });

const root = document.getElementById('studio');
if (root) {
  render(
    <StudioContext.Provider value={studio}>
      <App />
    </StudioContext.Provider>,
    root,
  );
}
studio.start();
