import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { analyzeImageRequestSchema } from './analyze';
import { demoLoginSchema, loginSchema, registerFormSchema, registerSchema } from './auth';
import { feedParamsSchema, feedQuerySchema } from './feed';
import { verifyPasswordSchema } from './gate';
import { itemFormSchema, itemUpdateSchema, wantFormSchema, wantUpdateSchema } from './listings';
import { placeSearchQuerySchema } from './places';
import { PROFILE_MESSAGES, profileFormSchema } from './profile';
import { hasDisallowedCharacters, textField } from './text';

/** The first issue's field path and message, or null when the value is valid. */
function firstIssue(schema: z.ZodType, value: unknown): { path: string; message: string } | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return { path: issue?.path.join('.') ?? '', message: issue?.message ?? '' };
}

/** Characters refused everywhere, each inside otherwise ordinary text. */
const REFUSED = {
  NUL: 'a\u0000b',
  'another C0 control (ESC)': 'a\u001bb',
  DEL: 'a\u007fb',
  'a C1 control (NEL)': 'a\u0085b',
  'a lone high surrogate': 'a\ud800b',
  'a lone low surrogate': 'a\udc00b',
  'a high surrogate at the end': 'ab\ud83d',
  'a right-to-left override': 'a\u202eb',
  'a left-to-right embedding': 'a\u202ab',
  'a first-strong isolate': 'a\u2068b',
  'a pop directional isolate': 'a\u2069b',
};

/** Text that looks unusual but is ordinary writing, accepted everywhere. */
const ACCEPTED = {
  emoji: 'Bike 🚲 with 👍🏽',
  Arabic: 'دراجة هوائية',
  'Hebrew with a right-to-left mark': 'אופניים\u200f 2',
  'accents and CJK': 'Crème brûlée 焼き菓子',
  'a zero-width joiner': '👩\u200d💻',
  'a non-breaking space': 'a\u00a0b',
};

describe('textField', () => {
  const title = textField('Title').min(1, 'Title is required');
  const description = textField('Description', { multiline: true });

  it.each(Object.entries(REFUSED))('refuses %s with a message naming the field', (_name, text) => {
    expect(firstIssue(title, text)).toEqual({
      path: '',
      message: 'Title contains characters that are not allowed',
    });
    expect(firstIssue(description, text)?.message).toBe(
      'Description contains characters that are not allowed',
    );
  });

  it.each(Object.entries(ACCEPTED))('accepts %s', (_name, text) => {
    expect(title.parse(text)).toBe(text);
  });

  it('allows tab, line feed and carriage return in multi-line fields only', () => {
    const text = 'Line one\r\n\tLine two\nLine three';
    expect(description.parse(text)).toBe(text);
    expect(firstIssue(title, text)?.message).toBe('Title contains characters that are not allowed');
  });

  it('trims first, so surrounding white space is not refused and blank text keeps its own message', () => {
    expect(title.parse('\n\t Drill \r\n')).toBe('Drill');
    expect(firstIssue(title, ' \t\n ')?.message).toBe('Title is required');
  });

  it('keeps text as typed with trim: false, and still refuses control characters', () => {
    const password = textField('Password', { trim: false });
    expect(password.parse('  spaced  ')).toBe('  spaced  ');
    expect(firstIssue(password, 'secret\u0000')?.message).toBe(
      'Password contains characters that are not allowed',
    );
  });

  it('reports the character check before the length check', () => {
    const short = textField('Name').max(5, 'Name is too long');
    expect(firstIssue(short, `${'a'.repeat(10)}\u0000`)?.message).toBe(
      'Name contains characters that are not allowed',
    );
  });

  it('checks only the header of a data URL in photo fields, and any other text whole', () => {
    const photo = textField('Photo', { trim: false, dataUrl: true });
    expect(firstIssue(photo, 'data:image/png\u202e;base64,AAAA')?.message).toBe(
      'Photo contains characters that are not allowed',
    );
    expect(firstIssue(photo, '/photos/a\u0000.webp')?.message).toBe(
      'Photo contains characters that are not allowed',
    );
    expect(firstIssue(photo, 'data:\u0000')?.message).toBe('Photo contains characters that are not allowed');
    // The payload is the photo decoder's to refuse (strict base64), not scanned here.
    expect(photo.parse('data:image/png;base64,AA\u0000A')).toBe('data:image/png;base64,AA\u0000A');
  });

  it('uses the given message for a value that is not text', () => {
    expect(firstIssue(textField('Title', { error: 'Title is required' }), 42)?.message).toBe(
      'Title is required',
    );
  });
});

describe('hasDisallowedCharacters', () => {
  it('finds only unpaired surrogates, never halves of a pair', () => {
    expect(hasDisallowedCharacters('\ud83d\ude00')).toBe(false);
    expect(hasDisallowedCharacters('\ude00\ud83d')).toBe(true);
  });
});

const validItem = { title: 'Drill', description: 'Works.', category: 'tools' };
const validWant = { title: 'Ladder', category: 'tools' };
const validRegister = { firstName: 'Ada', lastName: 'L', email: 'ada@example.com', password: 'secret1' };

/** Every string field of every request schema: [schema, a valid value, the field, its label]. */
const FIELDS: Array<[string, z.ZodType, Record<string, unknown>, string, string]> = [
  ['item', itemFormSchema, validItem, 'title', 'Title'],
  ['item', itemFormSchema, validItem, 'description', 'Description'],
  ['item', itemFormSchema, validItem, 'category', 'Category'],
  ['item', itemFormSchema, validItem, 'imageUrl', 'Photo'],
  ['item edit', itemUpdateSchema, {}, 'title', 'Title'],
  ['item edit', itemUpdateSchema, {}, 'description', 'Description'],
  ['item edit', itemUpdateSchema, {}, 'category', 'Category'],
  ['want', wantFormSchema, validWant, 'title', 'Title'],
  ['want', wantFormSchema, validWant, 'description', 'Description'],
  ['want', wantFormSchema, validWant, 'category', 'Category'],
  ['want edit', wantUpdateSchema, {}, 'title', 'Title'],
  ['want edit', wantUpdateSchema, {}, 'description', 'Description'],
  ['register', registerSchema, validRegister, 'firstName', 'First name'],
  ['register', registerSchema, validRegister, 'lastName', 'Last name'],
  ['register', registerSchema, validRegister, 'email', 'Email'],
  ['register', registerSchema, validRegister, 'password', 'Password'],
  [
    'register form',
    registerFormSchema,
    { ...validRegister, confirmPassword: 'secret1' },
    'firstName',
    'First name',
  ],
  ['login', loginSchema, { email: 'ada@example.com', password: 'secret1' }, 'password', 'Password'],
  ['login', loginSchema, { email: 'ada@example.com', password: 'secret1' }, 'email', 'Email'],
  ['demo login', demoLoginSchema, { name: 'Sam' }, 'name', 'Name'],
  ['site gate', verifyPasswordSchema, { password: 'open sesame' }, 'password', 'Password'],
  ['profile', profileFormSchema, { location: 'Portland', maxTravelDistance: 10 }, 'location', 'Location'],
  ['feed query', feedQuerySchema, {}, 'q', 'Search text'],
  ['feed params', feedParamsSchema, { feedName: 'everything' }, 'feedName', 'Feed name'],
  ['place search', placeSearchQuerySchema, { q: 'Portland' }, 'q', 'Search text'],
  ['photo analysis', analyzeImageRequestSchema, { image: 'data:image/png;base64,AAAA' }, 'image', 'Photo'],
];

describe('every request schema checks its text fields', () => {
  it.each(FIELDS)('%s: %s', (_name, schema, valid, field, label) => {
    expect(schema.safeParse(valid).success).toBe(true);
    // Long enough for every minimum, and starting as a photo field wants.
    for (const text of ['data:abc\u0000def', 'data:abc\ud800def', 'data:abc\u202edef']) {
      expect(firstIssue(schema, { ...valid, [field]: text })).toEqual({
        path: field,
        message: `${label} contains characters that are not allowed`,
      });
    }
  });

  it('keeps the profile message the form already showed', () => {
    expect(PROFILE_MESSAGES.locationInvalid).toBe('Location contains characters that are not allowed');
  });

  it('accepts line breaks in descriptions but not in titles', () => {
    expect(itemFormSchema.parse({ ...validItem, description: 'One\nTwo' }).description).toBe('One\nTwo');
    expect(firstIssue(itemFormSchema, { ...validItem, title: 'One\nTwo' })).toEqual({
      path: 'title',
      message: 'Title contains characters that are not allowed',
    });
  });
});
