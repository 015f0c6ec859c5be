// Every parameter's JSON Schema says its unit, range and default in words: an agent over MCP reads only the
// schemas. The words come from the catalog's tables, so the schemas of different commands agree.
import { describe, expect, it } from 'vitest';
import { EFFECT_TYPES, paramWords } from '../../../src/engine/effect-types.js';
import { createSession } from '../../../src/session.js';

type Schema = { properties: Record<string, { description?: string }>; required?: string[] };

function schemaOf(id: string): Schema {
  const [entry] = createSession({}).engine.list({ ids: [id], schemas: true });
  if (!entry) throw new Error(`no command ${id}`);
  return entry.params as Schema;
}

const describe_ = (id: string, param: string) => schemaOf(id).properties[param]?.description ?? '';

describe('parameter words in the JSON Schemas', () => {
  it.each(['property.set', 'property.setKeyframe'])('%s value says unit, range and default', (id) => {
    const value = describe_(id, 'value');
    expect(value).toContain('transform.opacity: percent, 0 to 100 (default 100)');
    expect(value).toContain('transform.rotation: degrees clockwise (default 0)');
    expect(value).toContain('transform.scale: [x, y] in percent');
    expect(value).toContain('text.fontSize: pixels, 1 to 2000 (default 72)');
    expect(value).toContain('solid.color: colour, hex "#rrggbb"');
    expect(value).toContain('audio.level: decibels');
    // Effect parameters, angles included: 0 = up.
    expect(value).toContain('angle: Direction in degrees (0 = up, clockwise), default 135');
  });

  it('property.setKeyframe time is in seconds', () => {
    expect(describe_('property.setKeyframe', 'time')).toMatch(/^Seconds, in layer time/);
  });

  it('layer.addText fontSize, comp.new duration and frameRate', () => {
    expect(describe_('layer.addText', 'fontSize')).toBe('Font size in pixels, 1 to 2000 (default 72)');
    expect(describe_('layer.addText', 'fill')).toContain('hex');
    expect(describe_('comp.new', 'duration')).toMatch(/^Seconds, .*86400.*\(default 10\)$/);
    expect(describe_('comp.new', 'frameRate')).toMatch(/^Frames per second, .*240.*\(default 30\)$/);
    expect(describe_('comp.setSettings', 'duration')).toMatch(/^Seconds/);
  });

  it('times are seconds; a shared param says the same words on every command', () => {
    for (const p of ['inPoint', 'outPoint', 'startTime'])
      expect(describe_('layer.setTiming', p)).toMatch(/^Seconds/);
    expect(describe_('property.clearKeyframes', 'keepValueAt')).toMatch(/^Seconds/);
    expect(describe_('layer.addShape', 'strokeWidth')).toContain('pixels, 0 to 500');
    expect(describe_('layer.addShape', 'strokeWidth')).toBe(describe_('layer.addText', 'strokeWidth'));
  });

  it('a required composition is not said to default to the active one', () => {
    // comp.setActive and comp.delete require "comp", but their docs said it "defaults to the active composition".
    const ids = createSession({})
      .engine.commands()
      .map((c) => c.id);
    const wrong = ids.filter((id) => {
      const schema = schemaOf(id);
      return schema.required?.includes('comp') && /defaults to the active/.test(describe_(id, 'comp'));
    });
    expect(wrong).toEqual([]);
  });

  it('effect.add params name every parameter of every effect with its words, as property.set does', () => {
    const params = describe_('effect.add', 'params');
    const value = describe_('property.set', 'value');
    for (const [type, spec] of Object.entries(EFFECT_TYPES)) {
      expect(params).toContain(`${type} {`);
      for (const [name, p] of Object.entries(spec.params)) {
        expect(params).toContain(`${name}: ${paramWords(p)}`);
        expect(value).toContain(`${name}: ${paramWords(p)}`);
        expect(paramWords(p)).toContain(`default ${p.default}`);
      }
    }
    expect(params).toContain('opacity: Shadow opacity in percent, 0 to 100, default 50');
  });
});
