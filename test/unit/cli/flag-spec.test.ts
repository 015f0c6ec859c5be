import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLI_WORDS } from '../../../src/cli/cli-words.js';
import { defineSubcommand, helpText, parseFlags } from '../../../src/cli/flag-spec.js';
import { cliMarkdown, SUBCOMMAND_SPECS } from '../../../src/cli/specs/index.js';

describe('subcommand flag definitions', () => {
  it('docs/cli.md is what the definitions generate (run `npm run docs:cli` after changing a flag)', async () => {
    const onDisk = await readFile(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
    expect(onDisk).toBe(cliMarkdown());
  });

  it('every documented flag is in its help and its docs section; test knobs are in neither', () => {
    const docs = cliMarkdown();
    for (const spec of SUBCOMMAND_SPECS) {
      const help = helpText(spec);
      for (const [name, flag] of Object.entries(spec.flags)) {
        const label = `--${name}${flag.value ? ` ${flag.value}` : ''}`;
        if (flag.hidden) {
          expect(help, `${spec.name} ${name}`).not.toContain(`--${name}`);
          expect(docs).not.toContain(`--${name}`);
        } else {
          expect(help, `${spec.name} ${name}`).toContain(label);
          if (flag.default) expect(help.replace(/\s+/g, ' ')).toContain(`default: ${flag.default}`);
          expect(docs).toContain(`\`${flag.short ? `-${flag.short}, ` : ''}${label}\``);
        }
      }
    }
  });

  it('parses exactly the defined flags, with their types', () => {
    const spec = defineSubcommand({
      name: 'demo',
      summary: 's',
      usage: ['demo X'],
      description: 'd',
      positionals: true,
      flags: {
        n: { type: 'string', value: 'N', help: 'a number' },
        on: { type: 'boolean', help: 'a switch' },
        tag: { type: 'string', value: 'T', multiple: true, short: 't', help: 'tags' },
      },
    });
    const { values, positionals } = parseFlags(spec, ['x', '--n', '3', '--on', '-t', 'a', '--tag', 'b']);
    expect(values).toEqual({ n: '3', on: true, tag: ['a', 'b'] });
    expect(positionals).toEqual(['x']);
    expect(() => parseFlags(spec, ['--bogus'])).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }),
    );
    expect(parseFlags(spec, ['-h']).values.help).toBe(true);
  });

  it('remedies in the CLI name the flag that sets a param', () => {
    expect(CLI_WORDS.param('encoding.crf')).toBe('--crf');
    expect(CLI_WORDS.param('encoding.proresProfile')).toBe('--prores-profile');
    expect(CLI_WORDS.param('frameRange')).toBe('--frames');
    expect(CLI_WORDS.param('transparent')).toBe('--alpha');
    expect(CLI_WORDS.param('overflow')).toBe('"overflow"');
    expect(CLI_WORDS.inspect).toBe('effectcraft-cli inspect PROJECT');
  });
});
