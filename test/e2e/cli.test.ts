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

  it('words flag errors as ours: an unknown option in one sentence, a dash value with its = form; help columns apart', async () => {
    const unknown = await runCli(['render', 'x.ecproj', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "effectcraft-cli render: Unknown option '--bogus'.\nSee: effectcraft-cli render --help\n",
    );
    const dash = await runCli(['still', 'x.ecproj', '--comp', 'C', '--time', '-1', '-o', '/tmp/x.png']);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain(
      `Option '--time' takes a value; one that starts with "-" is written --time=-VALUE.`,
    );
    // inspect has one short flag: "-h, --help" still gets a gap before its text.
    expect((await runCli(['inspect', '--help'])).stdout).toMatch(/\n {2}-h, --help {2,}show this help/);
  });

  it('names the flag or command a typo meant: render and still flags differ by one letter', async () => {
    const render = await runCli(['render', 'x.ecproj', '--frame', '3']);
    expect(render.code).toBe(2);
    expect(render.stderr).toContain("Unknown option '--frame'. Did you mean --frames?");
    const still = await runCli(['still', 'x.ecproj', '--frames', '3', '--json']);
    expect(still.code).toBe(2);
    expect(JSON.parse(still.stdout)).toMatchObject({
      error: { code: 'bad_argument', message: "Unknown option '--frames'. Did you mean --frame?" },
      exitCode: 2,
    });
    // An unknown subcommand: the near one named, and with --json the failure on stdout as a subcommand's.
    const command = await runCli(['rendr', 'x.ecproj', '--json']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('Unknown command "rendr". Did you mean render?');
    expect(JSON.parse(command.stdout)).toMatchObject({ error: { code: 'bad_argument' }, exitCode: 2 });
  });

  it('never echoes terminal control characters from arguments', async () => {
    const r = await runCli(['render', '/tmp/evil\u001b[31mRED\u001b[0m.ecproj']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('RED');
    expect(r.stderr).not.toContain('\u001b');
  });
});
