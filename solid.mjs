import { createSession } from '/work/main/dist/session.js';
const session = createSession();
const ok = async (id, p) => { const r = await session.engine.execute(id, p); if (!r.ok) throw new Error(id+JSON.stringify(r.error)); return r.result; };
const { id: comp } = await ok('comp.new', { name: 'F', width: 1920, height: 1080, frameRate: 30, duration: 8 });
await ok('layer.addSolid', { comp, color: '#10204a' });
await ok('renderQueue.add', { comp, output: '/tmp/prof/solid.mp4', format: 'mp4' });
const t = performance.now(); await ok('renderQueue.render', {}); console.log('fps', (240/((performance.now()-t)/1000)).toFixed(1));
