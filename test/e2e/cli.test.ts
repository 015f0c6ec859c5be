import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/spawn.js';

describe('effectcraft-cli (built binary)', () => {
  it('--version prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('--help lists the subcommands', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('commands');
    expect(r.stdout).toContain('Usage: effectcraft-cli');
  });

  it('commands prints the catalog; --json and --filter narrow it', async () => {
    const text = await runCli(['commands']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('comp.new');
    const json = await runCli(['commands', '--json', '--filter', 'renderQueue']);
    const list = JSON.parse(json.stdout) as { id: string }[];
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect(
      list.every(
        (c) =>
          c.id.toLowerCase().includes('renderqueue') ||
          JSON.stringify(c).toLowerCase().includes('renderqueue'),
      ),
    ).toBe(true);
    const schemas = JSON.parse((await runCli(['commands', '--schemas', '--filter', 'comp.new'])).stdout) as {
      id: string;
      params: { properties: object };
    }[];
    expect(schemas.find((c) => c.id === 'comp.new')?.params.properties).toHaveProperty('width');
  });

  it('unknown commands, unknown flags and missing values exit 2 with a message and no stack trace', async () => {
    // Names every object inherits are unknown commands too.
    const inherited = [['constructor'], ['toString'], ['__proto__']];
    for (const args of [['frobnicate'], ...inherited, ['commands', '--bogus'], ['commands', '--filter']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const none = await runCli([]);
    expect(none.code).toBe(2);
  });

  it('never echoes terminal control characters from arguments', async () => {
    const r = await runCli(['render', '/tmp/evil\u001b[31mRED\u001b[0m.ecproj']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('RED');
    expect(r.stderr).not.toContain('\u001b');
  });
});
