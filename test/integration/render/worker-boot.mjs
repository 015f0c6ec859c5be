// Worker bootstrap for worker-threads.test.ts: lets the worker load TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./worker-render.ts');
