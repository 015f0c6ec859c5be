/** Starts the preview player view: connect to the host, then show the player once preview_player's result is in. */
import './player.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PlayerInfo } from '../../mcp/player/protocol.js';
import { connectHost, type PlayerHost } from './host.js';
import { Player } from './player.js';

function Shell() {
  const [host, setHost] = useState<PlayerHost | null>(null);
  const [info, setInfo] = useState<PlayerInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    connectHost(setInfo, setError).then(setHost, (err: unknown) =>
      setError(`Could not connect to the host: ${err instanceof Error ? err.message : String(err)}`),
    );
  }, []);
  if (host && info) return <Player host={host} info={info} />;
  return (
    <section class="player" data-state={error ? 'error' : 'waiting'}>
      <p class={error ? 'error' : 'waiting'} role={error ? 'alert' : undefined}>
        {error ?? 'Waiting for the composition…'}
      </p>
    </section>
  );
}

const root = document.getElementById('player');
if (root) render(<Shell />, root);
