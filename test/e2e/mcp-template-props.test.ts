/**
 * Template props over MCP (official client, real stdio): renderQueue.add {props} renders the prop's value,
 * wrong props are refused naming the input before anything renders, and the document keeps its default.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import sharp from 'sharp';
import { connectClient } from './mcp-helpers.js';
import { tempDir } from '../helpers/tmp.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const command = (c: Client, id: string, params: Record<string, unknown>) =>
  c.callTool({ name: 'command_run', arguments: { id, params } });

describe('template props over MCP', () => {
  it('renderQueue.add {props} renders the value; a wrong type or unknown input is bad_argument naming it', async () => {
    const dir = await tempDir();
    const c = await connectClient('legacy');
    clients.push(c);
    const setup = await c.callTool({
      name: 'command_batch',
      arguments: {
        steps: [
          { id: 'comp.new', params: { name: 'Card', width: 16, height: 16, frameRate: 10, duration: 1 } },
          { id: 'layer.addSolid', params: { name: 'Bar', color: '#008080' } },
          {
            id: 'input.define',
            params: { name: 'accent', type: 'color', bind: [{ layer: 'Bar', property: 'solid.color' }] },
          },
        ],
      },
    });
    expect(setup.isError).toBeFalsy();
    const inspect = await c.callTool({ name: 'doc_inspect', arguments: {} });
    expect(inspect.structuredContent).toMatchObject({
      activeComposition: { inputs: [{ name: 'accent', type: 'color', default: '#008080' }] },
    });

    const wrong = await command(c, 'renderQueue.add', {
      comp: 'Card',
      output: join(dir, 'x_[#].png'),
      props: { accent: 12 },
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toMatchObject({
      code: 'bad_argument',
      message: expect.stringContaining('"accent"'),
    });
    const unknown = await command(c, 'renderQueue.add', {
      comp: 'Card',
      output: join(dir, 'x_[#].png'),
      props: { colour: 'red' },
    });
    expect(unknown.structuredContent).toMatchObject({
      code: 'bad_argument',
      message: expect.stringContaining('"colour"'),
    });

    const added = await command(c, 'renderQueue.add', {
      comp: 'Card',
      output: join(dir, 'card_[#].png'),
      frameRange: { start: 0, end: 0 },
      props: { accent: 'red' },
    });
    expect(added.isError).toBeFalsy();
    const rendered = await command(c, 'renderQueue.render', {});
    expect(rendered.structuredContent).toMatchObject({ completed: 1, failed: 0 });
    const { data } = await sharp(join(dir, 'card_0.png')).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);
    // The document still holds the default: props went to the render's snapshot only.
    const after = await c.callTool({ name: 'doc_inspect', arguments: {} });
    expect(after.structuredContent).toMatchObject({
      activeComposition: { layers: [{ name: 'Bar', source: { color: '#008080' } }] },
    });
  });
});
