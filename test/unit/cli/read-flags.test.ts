import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/cli/args.js';
import { READ_SWITCHES, choiceFlags, readOptionsBodyOf } from '../../../src/cli/read-flags.js';
import { readOptionProperties } from '../../../src/http/schemas.js';

const body = (...argv: string[]) => readOptionsBodyOf(parseArgs(['read', 'https://example.com/', ...argv]));

describe('pith read flags come from the read options schema', () => {
  it('one flag per enum field, taking exactly the schema values', () => {
    const enumFields = Object.entries(readOptionProperties).filter(([, s]) => 'enum' in s);
    expect(choiceFlags().map((c) => c.field)).toEqual(enumFields.map(([f]) => f));
    for (const { flag, field, values } of choiceFlags()) {
      for (const value of values) expect(body(`--${flag}`, value)).toEqual({ [field]: value });
      expect(() => body(`--${flag}`, 'nope')).toThrow(`--${flag} takes ${values.join('|')}`);
    }
    expect(body('--format', 'text', '--link-mode', 'references', '--image-mode', 'drop')).toEqual({
      format: 'text',
      link_mode: 'references',
      image_mode: 'drop',
    });
  });

  it('a value added to the schema is taken without editing the CLI (planted)', () => {
    const planted = { ...readOptionProperties, format: { ...readOptionProperties.format, enum: ['markdown', 'html', 'text', 'json'] } };
    const args = parseArgs(['read', 'https://example.com/', '--format', 'json']);
    expect(() => readOptionsBodyOf(args)).toThrow('markdown|html|text');
    expect(readOptionsBodyOf(args, planted)).toEqual({ format: 'json' });
  });

  it('every boolean option has a switch that sets its non-default value, --keep-hidden included', () => {
    const booleans = Object.entries(readOptionProperties).filter(([, s]) => 'type' in s && s.type === 'boolean');
    const switched = new Map(Object.values(READ_SWITCHES).map((s) => [s.field as string, s.value as boolean]));
    for (const [field, schema] of booleans) {
      expect(switched.has(field), `${field} has a flag`).toBe(true);
      expect(switched.get(field), field).toBe(!(schema as { default: boolean }).default);
    }
    expect(body('--keep-hidden')).toEqual({ keep_hidden: true });
    expect(body('--no-clean-urls', '--whole-page', '--links', '--images')).toEqual({
      clean_urls: false,
      main_content: false,
      links: true,
      images: true,
    });
  });

  it('selectors: taken as given, refused when empty or over the schema bound', () => {
    expect(body('--target', 'article, .post', '--remove', '.ads')).toEqual({ target_selector: 'article, .post', remove_selector: '.ads' });
    const max = readOptionProperties.target_selector.anyOf[0].maxLength;
    expect(() => body('--target', `.${'a'.repeat(max)}`)).toThrow(`at most ${max} characters`);
    expect(() => body('--remove', ' ')).toThrow('CSS selector');
  });
});
