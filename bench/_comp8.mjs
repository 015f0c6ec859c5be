// The 8-layer 1080p benchmark composition (the same comp as bench/compose.mjs builds): solid background,
// three rotated/scaled semi-transparent layers, a blurred layer, a multiply layer and two text layers.
// `ok(id, params)` runs an engine command and returns its result. Returns the comp id.
export async function buildComp8(ok, { duration = 10 } = {}) {
  const set = (layer, property, value) => ok('property.set', { layer, property, value });
  const key = (layer, property, time, value) => ok('property.setKeyframe', { layer, property, time, value });
  const comp = await ok('comp.new', { name: 'Bench', width: 1920, height: 1080, duration, frameRate: 30 });
  await ok('layer.addSolid', { color: '#1d2b3a', name: 'Background' });
  const a = await ok('layer.addSolid', { color: '#e04050', width: 600, height: 400, name: 'A' });
  await set(a.id, 'transform.rotation', 15);
  await set(a.id, 'transform.opacity', 70);
  await key(a.id, 'transform.position', 0, [500, 400]);
  await key(a.id, 'transform.position', 10, [1400, 600]);
  const b = await ok('layer.addShape', {
    shape: { type: 'rectangle', size: [500, 300], roundness: 40 },
    fill: '#40c0a0',
    name: 'B',
  });
  await set(b.id, 'transform.scale', [140, 80]);
  await set(b.id, 'transform.opacity', 60);
  await key(b.id, 'transform.rotation', 0, -30);
  await key(b.id, 'transform.rotation', 10, 330);
  const c = await ok('layer.addShape', {
    shape: { type: 'ellipse', size: [700, 500] },
    fill: '#f0c040',
    name: 'C',
  });
  await set(c.id, 'transform.position', [1300, 300]);
  await set(c.id, 'transform.scale', [80, 120]);
  await set(c.id, 'transform.rotation', 40);
  await set(c.id, 'transform.opacity', 50);
  const blur = await ok('layer.addShape', {
    shape: { type: 'star', points: 5, outerRadius: 200, innerRadius: 90 },
    fill: '#8060ff',
    name: 'Blurred',
  });
  await set(blur.id, 'transform.position', [400, 800]);
  await ok('effect.add', { layer: blur.id, effect: 'gaussianBlur', params: { radius: 12 } });
  const mul = await ok('layer.addSolid', { color: '#a0a0ff', width: 900, height: 400, name: 'Multiply' });
  await set(mul.id, 'transform.position', [1200, 800]);
  await ok('layer.setBlendMode', { layer: mul.id, mode: 'multiply' });
  const t1 = await ok('layer.addText', {
    text: 'EffectCraft',
    fontSize: 160,
    fontWeight: 700,
    name: 'Title',
  });
  await key(t1.id, 'transform.position', 0, [960, 200]);
  await key(t1.id, 'transform.position', 10, [960, 260]);
  const t2 = await ok('layer.addText', {
    text: 'Skia compositor benchmark\n1920 x 1080, 8 layers',
    fontSize: 56,
    strokeColor: '#000000',
    strokeWidth: 3,
    name: 'Subtitle',
  });
  await set(t2.id, 'transform.position', [960, 960]);
  return comp.id;
}

/**
 * The star layer as SVG (5 points, radii 200/90, first point up, #8060ff), 400x400 plus room for the blur:
 * ffmpeg draws no stars, so the baseline overlays this picture (rasterized once by sharp) and blurs it.
 */
export function starSvg(pad = 40) {
  const side = 400 + 2 * pad;
  const c = side / 2;
  const points = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? 90 : 200;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${(c + r * Math.cos(a)).toFixed(2)},${(c + r * Math.sin(a)).toFixed(2)}`;
  });
  return {
    side,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><polygon points="${points.join(' ')}" fill="#8060ff"/></svg>`,
  };
}

/**
 * ffmpeg filter-graph arguments for the same comp (same layers, sizes, opacities, blend and text), rendering
 * `frames` frames at 30 fps to PNGs in `outPattern`. `starPng` is starSvg() rasterized, `side` its size;
 * `fontFile` the title's (bold) font, `textFont` the subtitle's (regular). The engine's blur radius 12 is a
 * Gaussian of sigma 6 (src/render/effects.ts).
 * Rotating layers are drawn on a transparent fill (c=none would leave a trail of earlier frames).
 */
export function ffmpegComp8Args(frames, outPattern, fontFile, pngLevel, starPng, side, textFont = fontFile) {
  const d = frames / 30;
  const src = (c, s) => `color=c=${c}:s=${s}:r=30:d=${d}`;
  const clear = 'c=black@0';
  const graph = [
    `${src('0x1d2b3a', '1920x1080')}[bg]`,
    `${src('0xe04050@0.7', '600x400')},format=rgba,rotate=15*PI/180:${clear}:ow=rotw(15*PI/180):oh=roth(15*PI/180)[a]`,
    `${src('0x40c0a0@0.6', '500x300')},format=rgba,scale=700:240,rotate=(-30+36*t)*PI/180:${clear}:ow=760:oh=760[b]`,
    `${src('0xf0c040@0.5', '560x600')},format=rgba,geq=r=240:g=192:b=64:a='if(lte(pow((X-280)/280,2)+pow((Y-300)/300,2),1),128,0)',trim=end_frame=1,loop=loop=-1:size=1,rotate=40*PI/180:${clear}:ow=800:oh=800[c]`,
    // Static layers are computed once and looped, as a fair baseline (the engine draws them every frame).
    `[0:v]format=rgba,gblur=sigma=6,trim=end_frame=1,loop=loop=-1:size=1[blur]`,
    `${src('0xa0a0ff', '900x400')},format=gbrp[mulsrc]`,
    // Layer A's position keys (500,400) at 0 s and (1400,600) at 10 s place its centre.
    `[bg][a]overlay=x='500+90*t-overlay_w/2':y='400+20*t-overlay_h/2'[l1]`,
    `[l1][b]overlay=x=580:y=160[l2]`,
    `[l2][c]overlay=x=900:y=-100[l3]`,
    `[l3][blur]overlay=x=${400 - side / 2}:y=${800 - side / 2}[l4]`,
    `[l4]split[l4a][l4b]`,
    `[l4b]crop=900:400:750:600,format=gbrp[under]`,
    // Multiply in RGB (blend works per plane; in YUV it would not be a multiply).
    `[under][mulsrc]blend=all_mode=multiply[mul]`,
    `[l4a][mul]overlay=x=750:y=600[l5]`,
    `[l5]drawtext=fontfile=${fontFile}:text=EffectCraft:fontsize=160:fontcolor=white:x=(w-tw)/2:y=200+6*t-th/2[l6]`,
    // The subtitle's two lines, as the engine sets them (Inter's contextual alternate makes "x" a "×").
    `[l6]drawtext=fontfile=${textFont}:text='Skia compositor benchmark':fontsize=56:fontcolor=white:borderw=3:bordercolor=black:x=(w-tw)/2:y=905[l7]`,
    `[l7]drawtext=fontfile=${textFont}:text='1920 × 1080, 8 layers':fontsize=56:fontcolor=white:borderw=3:bordercolor=black:x=(w-tw)/2:y=972[out]`,
  ].join(';');
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-loop',
    '1',
    '-i',
    starPng,
    '-filter_complex',
    graph,
    '-map',
    '[out]',
    '-frames:v',
    String(frames),
    '-compression_level',
    String(pngLevel),
    '-y',
    outPattern,
  ];
}
