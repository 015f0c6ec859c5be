/**
 * Golden scenes, built through engine commands (so they are valid projects by construction). Used by
 * build-golden-fixtures.ts to write fixtures/golden/*.ecproj; the golden test renders those files.
 */
import { BLEND_MODES, Engine, engineCommands, type Project } from '../../../src/engine/index.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';

export class Scene {
  readonly engine = new Engine({ commands: engineCommands(), ports: createNodePorts() });

  async cmd<R = { id: string }>(id: string, params: unknown = {}): Promise<R> {
    const r = await this.engine.execute<R>(id, params);
    if (!r.ok) throw new Error(`${id}: ${r.error.code}: ${r.error.message}`);
    return r.result;
  }

  async key(
    layer: string,
    property: string,
    time: number,
    value: unknown,
    extra: object = {},
  ): Promise<void> {
    await this.cmd('property.setKeyframe', { layer, property, time, value, ...extra });
  }

  get doc(): Project {
    return this.engine.document;
  }
}

/** Every layer kind: solid, text, shapes with fill/stroke/gradients, footage, null parent, precomp, adjustment. */
export async function kindsScene(footagePath: string): Promise<Scene> {
  const s = new Scene();
  const inner = await s.cmd('comp.new', { name: 'Inner', width: 200, height: 120, duration: 4 });
  await s.cmd('layer.addSolid', { color: '#3060c0', name: 'Inner BG' });
  await s.cmd('layer.addText', { text: 'PRE', fontSize: 48, fontWeight: 700, fill: '#ffe040' });
  const main = await s.cmd('comp.new', {
    name: 'Kinds',
    width: 640,
    height: 360,
    duration: 4,
    backgroundColor: '#202830',
  });
  const solid = await s.cmd('layer.addSolid', { color: '#c03040', width: 120, height: 80, name: 'Solid' });
  await s.cmd('property.set', { layer: solid.id, property: 'transform.position', value: [90, 70] });
  await s.cmd('property.set', { layer: solid.id, property: 'transform.rotation', value: 20 });
  const rect = await s.cmd('layer.addShape', {
    shape: { type: 'rectangle', size: [120, 80], roundness: 16 },
    fill: '#40c080',
    strokeColor: '#ffffff',
    strokeWidth: 6,
    name: 'Rounded',
  });
  await s.cmd('property.set', { layer: rect.id, property: 'transform.position', value: [240, 70] });
  const ell = await s.cmd('layer.addShape', {
    shape: { type: 'ellipse', size: [120, 90] },
    gradient: {
      type: 'radial',
      start: [0, 0],
      end: [60, 0],
      stops: [
        { offset: 0, color: '#ffffff' },
        { offset: 1, color: '#ff6000' },
      ],
    },
    name: 'Ellipse',
  });
  await s.cmd('property.set', { layer: ell.id, property: 'transform.position', value: [390, 70] });
  const star = await s.cmd('layer.addShape', {
    shape: { type: 'star', points: 5, outerRadius: 50, innerRadius: 22 },
    fill: '#ffd000',
    strokeColor: '#804000',
    strokeWidth: 3,
    name: 'Star',
  });
  await s.cmd('property.set', { layer: star.id, property: 'transform.position', value: [540, 70] });
  const hex = await s.cmd('layer.addShape', {
    shape: { type: 'polygon', points: 6, outerRadius: 45 },
    gradient: {
      type: 'linear',
      start: [-45, 0],
      end: [45, 0],
      stops: [
        { offset: 0, color: '#00c0ff' },
        { offset: 1, color: '#8000ff' },
      ],
    },
    name: 'Hexagon',
  });
  await s.cmd('property.set', { layer: hex.id, property: 'transform.position', value: [90, 200] });
  const path = await s.cmd('layer.addShape', {
    shape: {
      type: 'path',
      points: [
        [-60, 30],
        [-20, -30],
        [20, 30],
        [60, -30],
      ],
      closed: false,
    },
    fill: null,
    strokeColor: '#ff80c0',
    strokeWidth: 8,
    name: 'Zigzag',
  });
  await s.cmd('property.set', { layer: path.id, property: 'transform.position', value: [240, 200] });
  const nul = await s.cmd('layer.addNull', { name: 'Parent' });
  await s.cmd('property.set', { layer: nul.id, property: 'transform.position', value: [390, 200] });
  await s.cmd('property.set', { layer: nul.id, property: 'transform.rotation', value: 45 });
  const child = await s.cmd('layer.addShape', {
    shape: { type: 'rectangle', size: [60, 60] },
    fill: '#ffffff',
    name: 'Child',
  });
  await s.cmd('layer.setParent', { layer: child.id, parent: nul.id });
  await s.cmd('property.set', { layer: child.id, property: 'transform.position', value: [0, 0] });
  const fid = await s.cmd('file.import', { path: footagePath, name: 'Checker' });
  const foot = await s.cmd('layer.addFootage', { footage: fid.id, name: 'Footage' });
  await s.cmd('property.set', { layer: foot.id, property: 'transform.position', value: [540, 200] });
  await s.cmd('property.set', { layer: foot.id, property: 'transform.scale', value: [75, 75] });
  const pre = await s.cmd('layer.addPrecomp', { source: inner.id, name: 'Nested' });
  await s.cmd('property.set', { layer: pre.id, property: 'transform.position', value: [140, 305] });
  await s.cmd('property.set', { layer: pre.id, property: 'transform.scale', value: [70, 70] });
  await s.cmd('property.set', { layer: pre.id, property: 'transform.rotation', value: -8 });
  const text = await s.cmd('layer.addText', {
    text: 'EffectCraft\nGolden 2',
    fontSize: 34,
    fontWeight: 700,
    fill: '#ffffff',
    strokeColor: '#000000',
    strokeWidth: 2,
    name: 'Title',
  });
  await s.cmd('property.set', { layer: text.id, property: 'transform.position', value: [390, 305] });
  const left = await s.cmd('layer.addText', {
    text: 'left',
    fontSize: 24,
    align: 'left',
    fill: '#a0ffa0',
    name: 'Left',
  });
  await s.cmd('property.set', { layer: left.id, property: 'transform.position', value: [520, 290] });
  const right = await s.cmd('layer.addText', {
    text: 'right',
    fontSize: 24,
    align: 'right',
    fill: '#a0a0ff',
    name: 'Right',
  });
  await s.cmd('property.set', { layer: right.id, property: 'transform.position', value: [630, 330] });
  const adj = await s.cmd('layer.addAdjustment', { name: 'Invert right half' });
  await s.cmd('effect.add', { layer: adj.id, effect: 'invert' });
  await s.cmd('property.set', { layer: adj.id, property: 'transform.scale', value: [20, 100] });
  await s.cmd('property.set', { layer: adj.id, property: 'transform.position', value: [576, 180] });
  await s.cmd('property.set', { layer: adj.id, property: 'transform.opacity', value: 60 });
  await s.cmd('comp.setActive', { comp: main.id });
  return s;
}

const BLENDS = BLEND_MODES;

/** Every blend mode: a square of one colour blended over a rainbow/grey background, one cell per mode. */
export async function blendScene(): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', {
    name: 'Blend',
    width: 540,
    height: 300,
    duration: 1,
    backgroundColor: '#000000',
  });
  await s.cmd('layer.addShape', {
    name: 'Rainbow',
    shape: { type: 'rectangle', size: [540, 300] },
    gradient: {
      type: 'linear',
      start: [-270, 0],
      end: [270, 0],
      stops: [
        { offset: 0, color: '#ff0000' },
        { offset: 0.33, color: '#ffff00' },
        { offset: 0.5, color: '#00ff80' },
        { offset: 0.75, color: '#0040ff' },
        { offset: 1, color: '#ff00ff' },
      ],
    },
  });
  const shade = await s.cmd('layer.addShape', {
    name: 'Shade',
    shape: { type: 'rectangle', size: [540, 150] },
    gradient: {
      type: 'linear',
      start: [0, -75],
      end: [0, 75],
      stops: [
        { offset: 0, color: '#ffffff80' },
        { offset: 1, color: '#00000080' },
      ],
    },
  });
  await s.cmd('property.set', { layer: shade.id, property: 'transform.position', value: [270, 225] });
  for (const [i, mode] of BLENDS.entries()) {
    const col = i % 6;
    const row = Math.floor(i / 6);
    const sq = await s.cmd('layer.addShape', {
      name: mode,
      shape: { type: 'rectangle', size: [70, 80] },
      fill: '#c06030',
    });
    await s.cmd('property.set', {
      layer: sq.id,
      property: 'transform.position',
      value: [50 + col * 88, 55 + row * 95],
    });
    await s.cmd('layer.setBlendMode', { layer: sq.id, mode });
  }
  return s;
}

/** The four track matte modes, each in a quadrant: content (gradient) through a matte (ellipse/gradient). */
export async function mattesScene(): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', {
    name: 'Mattes',
    width: 480,
    height: 320,
    duration: 1,
    backgroundColor: '#303030',
  });
  const modes = ['alpha', 'alphaInverted', 'luma', 'lumaInverted'] as const;
  for (const [i, mode] of modes.entries()) {
    const cx = 120 + (i % 2) * 240;
    const cy = 80 + Math.floor(i / 2) * 160;
    const content = await s.cmd('layer.addShape', {
      name: `Content ${mode}`,
      shape: { type: 'rectangle', size: [200, 130] },
      gradient: {
        type: 'linear',
        start: [-100, 0],
        end: [100, 0],
        stops: [
          { offset: 0, color: '#ff4000' },
          { offset: 1, color: '#00a0ff' },
        ],
      },
    });
    await s.cmd('property.set', { layer: content.id, property: 'transform.position', value: [cx, cy] });
    const luma = mode.startsWith('luma');
    const matte = await s.cmd('layer.addShape', {
      name: `Matte ${mode}`,
      shape: { type: 'ellipse', size: [150, 110] },
      gradient: luma
        ? {
            type: 'radial',
            start: [0, 0],
            end: [75, 0],
            stops: [
              { offset: 0, color: '#ffffff' },
              { offset: 1, color: '#000000' },
            ],
          }
        : {
            type: 'linear',
            start: [-75, 0],
            end: [75, 0],
            stops: [
              { offset: 0, color: '#ffffffff' },
              { offset: 1, color: '#ffffff20' },
            ],
          },
    });
    await s.cmd('property.set', { layer: matte.id, property: 'transform.position', value: [cx, cy] });
    await s.cmd('layer.setTrackMatte', { layer: content.id, matte: matte.id, mode });
  }
  return s;
}

const EFFECTS: [string, Record<string, unknown>][] = [
  ['gaussianBlur', { radius: 8 }],
  ['dropShadow', { distance: 8, softness: 6, opacity: 80 }],
  ['fill', { color: '#00ff80', opacity: 70 }],
  ['tint', { mapBlackTo: '#200040', mapWhiteTo: '#ffd080' }],
  ['brightnessContrast', { brightness: 40, contrast: 50 }],
  ['hueSaturation', { hue: 120, saturation: 30, lightness: -10 }],
  ['invert', { amount: 100 }],
  ['glow', { threshold: 50, radius: 12, intensity: 1.5 }],
];

/** Every effect, each on its own shape+text pair; the blur radius is keyframed (checked at two times). */
export async function effectsScene(): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', {
    name: 'Effects',
    width: 640,
    height: 320,
    duration: 2,
    backgroundColor: '#406080',
  });
  for (const [i, [effect, params]] of EFFECTS.entries()) {
    const x = 80 + (i % 4) * 160;
    const y = 80 + Math.floor(i / 4) * 160;
    const shape = await s.cmd('layer.addShape', {
      name: `${effect} shape`,
      shape: { type: 'rectangle', size: [110, 70], roundness: 10 },
      gradient: {
        type: 'linear',
        start: [-55, 0],
        end: [55, 0],
        stops: [
          { offset: 0, color: '#ffffff' },
          { offset: 0.5, color: '#ff8000' },
          { offset: 1, color: '#202020' },
        ],
      },
    });
    await s.cmd('property.set', { layer: shape.id, property: 'transform.position', value: [x, y] });
    const fx = await s.cmd('effect.add', { layer: shape.id, effect, params });
    if (effect === 'gaussianBlur') {
      await s.key(shape.id, `effects.${fx.id}.radius`, 0, 0);
      await s.key(shape.id, `effects.${fx.id}.radius`, 1, 16);
    }
    const text = await s.cmd('layer.addText', {
      name: `${effect} text`,
      text: effect,
      fontSize: 18,
      fontWeight: 700,
      fill: '#ffffff',
    });
    await s.cmd('property.set', { layer: text.id, property: 'transform.position', value: [x, y + 58] });
    await s.cmd('effect.add', { layer: text.id, effect, params });
  }
  return s;
}

/** Keyframes (linear, hold, bezier), start time offset, in/out points and a parent chain. */
export async function animationScene(): Promise<Scene> {
  const s = new Scene();
  await s.cmd('comp.new', {
    name: 'Animation',
    width: 400,
    height: 240,
    duration: 4,
    frameRate: 25,
    backgroundColor: '#101010',
  });
  const lin = await s.cmd('layer.addShape', {
    name: 'Linear',
    shape: { type: 'rectangle', size: [40, 40] },
    fill: '#ff4040',
  });
  await s.key(lin.id, 'transform.position', 0, [40, 40]);
  await s.key(lin.id, 'transform.position', 2, [360, 40]);
  await s.key(lin.id, 'transform.rotation', 0, 0);
  await s.key(lin.id, 'transform.rotation', 2, 180);
  const hold = await s.cmd('layer.addShape', {
    name: 'Hold',
    shape: { type: 'ellipse', size: [40, 40] },
    fill: '#40ff40',
  });
  await s.key(hold.id, 'transform.position', 0, [40, 100], { interpolation: 'hold' });
  await s.key(hold.id, 'transform.position', 2, [360, 100], { interpolation: 'hold' });
  const ease = await s.cmd('layer.addShape', {
    name: 'Bezier',
    shape: { type: 'rectangle', size: [40, 40] },
    fill: '#4080ff',
  });
  await s.key(ease.id, 'transform.position', 0, [40, 160], { interpolation: 'bezier' });
  await s.key(ease.id, 'transform.position', 2, [360, 160], { interpolation: 'bezier' });
  await s.key(ease.id, 'transform.opacity', 0, 100);
  await s.key(ease.id, 'transform.opacity', 2, 40);
  const late = await s.cmd('layer.addText', { name: 'Late', text: 'late', fontSize: 28, fill: '#ffff00' });
  await s.cmd('layer.setTiming', { layer: late.id, inPoint: 1, outPoint: 3, startTime: 1 });
  await s.key(late.id, 'transform.scale', 0, [50, 50]);
  await s.key(late.id, 'transform.scale', 1, [150, 150]);
  await s.cmd('property.set', { layer: late.id, property: 'transform.position', value: [200, 215] });
  const arm = await s.cmd('layer.addNull', { name: 'Arm' });
  await s.cmd('property.set', { layer: arm.id, property: 'transform.position', value: [330, 200] });
  await s.key(arm.id, 'transform.rotation', 0, 0);
  await s.key(arm.id, 'transform.rotation', 4, 360);
  const moon = await s.cmd('layer.addShape', {
    name: 'Moon',
    shape: { type: 'ellipse', size: [16, 16] },
    fill: '#ffffff',
  });
  await s.cmd('layer.setParent', { layer: moon.id, parent: arm.id });
  await s.cmd('property.set', { layer: moon.id, property: 'transform.position', value: [30, 0] });
  return s;
}
