import { describe, expect, it } from 'vitest';
import {
  itemFormSchema,
  itemSchema,
  itemUpdateSchema,
  LISTING_VALUE_MAX,
  listingIdParamsSchema,
  wantFormSchema,
  wantUpdateSchema,
} from './listings';

const validItem = {
  title: '  Cordless drill ',
  description: 'Works well, two batteries.',
  category: 'tools',
};

/** The first message of a failed parse for each field path (the one the form and the server show). */
function messages(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  expect(result.success).toBe(false);
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byField[issue.path.join('.')] ??= issue.message;
  return byField;
}

describe('itemFormSchema', () => {
  it('trims, applies defaults and treats a missing value and photo as none', () => {
    expect(itemFormSchema.parse(validItem)).toEqual({
      title: 'Cordless drill',
      description: 'Works well, two batteries.',
      category: 'tools',
      isService: false,
      estimatedValue: null,
      isActive: true,
      condition: null,
    });
  });

  it('shows every required-field message at once, in human sentences', () => {
    expect(messages(itemFormSchema.safeParse({}))).toEqual({
      title: 'Title is required',
      description: 'Description is required',
      category: 'Category is required',
    });
    expect(messages(itemFormSchema.safeParse({ title: '   ', description: ' ', category: '' }))).toEqual({
      title: 'Title is required',
      description: 'Description is required',
      category: 'Category is required',
    });
  });

  it('takes the category from the list that applies: goods or services', () => {
    expect(itemFormSchema.safeParse({ ...validItem, category: 'lessons', isService: true }).success).toBe(
      true,
    );
    expect(messages(itemFormSchema.safeParse({ ...validItem, category: 'lessons' }))).toEqual({
      category: 'Choose a category from the list',
    });
    expect(messages(itemFormSchema.safeParse({ ...validItem, category: 'tools', isService: true }))).toEqual({
      category: 'Choose a category from the list',
    });
    // Reported together with other problems, so the form shows both.
    expect(messages(itemFormSchema.safeParse({ ...validItem, title: '', category: 'nonsense' }))).toEqual({
      title: 'Title is required',
      category: 'Choose a category from the list',
    });
  });

  it('accepts values as numbers or input text; blank, null and NaN mean none', () => {
    const value = (estimatedValue: unknown) =>
      itemFormSchema.parse({ ...validItem, estimatedValue }).estimatedValue;
    expect(value(12.5)).toBe(12.5);
    expect(value('12.50')).toBe(12.5);
    expect(value(' 7 ')).toBe(7);
    expect(value(0)).toBe(0);
    expect(value(LISTING_VALUE_MAX)).toBe(LISTING_VALUE_MAX);
    expect(value('')).toBeNull();
    expect(value(null)).toBeNull();
    expect(value(undefined)).toBeNull();
    expect(value(Number.NaN)).toBeNull();
  });

  it.each([
    [-1, 'Estimated value must be a positive number'],
    ['-0.01', 'Estimated value must be a positive number'],
    ['abc', 'Estimated value must be a positive number'],
    [true, 'Estimated value must be a positive number'],
    [12.345, 'Estimated value can have at most two decimal places'],
    ['0.001', 'Estimated value can have at most two decimal places'],
    [100_000_000, 'Estimated value must be less than 100,000,000'],
    [Number.POSITIVE_INFINITY, 'Estimated value must be a positive number'],
  ])('refuses the value %s', (estimatedValue, message) => {
    expect(messages(itemFormSchema.safeParse({ ...validItem, estimatedValue }))).toEqual({
      estimatedValue: message,
    });
  });

  it('caps title and description length', () => {
    expect(messages(itemFormSchema.safeParse({ ...validItem, title: 'x'.repeat(121) }))).toEqual({
      title: 'Title must be at most 120 characters',
    });
    expect(messages(itemFormSchema.safeParse({ ...validItem, description: 'x'.repeat(2001) }))).toEqual({
      description: 'Description must be at most 2000 characters',
    });
  });

  it('takes the photo as a data URL or a served photo URL, or null', () => {
    expect(itemFormSchema.parse({ ...validItem, imageUrl: 'data:image/png;base64,AAAA' }).imageUrl).toBe(
      'data:image/png;base64,AAAA',
    );
    expect(itemFormSchema.parse({ ...validItem, imageUrl: '/photos/abc.webp' }).imageUrl).toBe(
      '/photos/abc.webp',
    );
    expect(itemFormSchema.parse({ ...validItem, imageUrl: null }).imageUrl).toBeNull();
    expect(
      messages(itemFormSchema.safeParse({ ...validItem, imageUrl: 'https://evil.example/x.jpg' })),
    ).toEqual({
      imageUrl: 'Choose a photo (JPEG, PNG or WebP)',
    });
  });

  it('refuses unknown fields', () => {
    const result = itemFormSchema.safeParse({ ...validItem, userId: 'someone-else', viewCount: 99 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['userId', 'viewCount'],
    });
  });
});

describe('itemUpdateSchema', () => {
  it('keeps left-out fields out, with no defaults (a PATCH changes only what it names)', () => {
    expect(itemUpdateSchema.parse({})).toEqual({});
    expect(itemUpdateSchema.parse({ isActive: false })).toEqual({ isActive: false });
    expect(itemUpdateSchema.parse({ estimatedValue: '' })).toEqual({ estimatedValue: null });
  });

  it('checks the category against isService when both are sent', () => {
    expect(itemUpdateSchema.safeParse({ category: 'lessons', isService: true }).success).toBe(true);
    expect(messages(itemUpdateSchema.safeParse({ category: 'lessons', isService: false }))).toEqual({
      category: 'Choose a category from the list',
    });
    // Against the stored item when only one is sent: the server's job.
    expect(itemUpdateSchema.safeParse({ category: 'lessons' }).success).toBe(true);
  });
});

describe('wantFormSchema', () => {
  it('needs a title and category; description and max value are optional', () => {
    expect(wantFormSchema.parse({ title: 'Ladder', category: 'tools' })).toEqual({
      title: 'Ladder',
      description: null,
      category: 'tools',
      isService: false,
      maxValue: null,
      isActive: true,
    });
    expect(
      wantFormSchema.parse({ title: 'Ladder', category: 'tools', description: '  ', maxValue: '' }),
    ).toMatchObject({ description: null, maxValue: null });
    expect(messages(wantFormSchema.safeParse({ description: 'x' }))).toEqual({
      title: 'Title is required',
      category: 'Category is required',
    });
  });

  it('checks the category list and the max value', () => {
    expect(
      messages(wantFormSchema.safeParse({ title: 'Ladder', category: 'tools', isService: true })),
    ).toEqual({
      category: 'Choose a category from the list',
    });
    expect(messages(wantFormSchema.safeParse({ title: 'Ladder', category: 'tools', maxValue: -5 }))).toEqual({
      maxValue: 'Max value must be a positive number',
    });
    expect(
      messages(wantFormSchema.safeParse({ title: 'Ladder', category: 'tools', maxValue: 1.005 })),
    ).toEqual({
      maxValue: 'Max value can have at most two decimal places',
    });
  });

  it('update: left-out fields stay out, blank description clears it', () => {
    expect(wantUpdateSchema.parse({})).toEqual({});
    expect(wantUpdateSchema.parse({ description: '' })).toEqual({ description: null });
  });
});

describe('listingIdParamsSchema', () => {
  it('takes positive 32-bit integers only', () => {
    expect(listingIdParamsSchema.parse({ id: '42' })).toEqual({ id: 42 });
    for (const id of ['0', '-1', '1.5', 'abc', '1e3', '0x10', ' 1', '2147483648', '99999999999']) {
      expect(listingIdParamsSchema.safeParse({ id }).success, id).toBe(false);
    }
  });
});

describe('itemSchema', () => {
  it('describes what the server sends', () => {
    const item = {
      id: 1,
      title: 'Drill',
      description: 'd',
      category: 'tools',
      isService: false,
      imageUrl: null,
      thumbnailUrl: null,
      estimatedValue: null,
      isActive: true,
      moderation: null,
      isReserved: false,
      traded: null,
      allowedActions: ['edit', 'hide', 'delete'],
      viewCount: 0,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    expect(itemSchema.parse(item)).toEqual(item);
  });

  it('says where a traded item went: to a member, or at a swap day', () => {
    const at = new Date().toISOString();
    const traded = {
      id: 2,
      title: 'Board games',
      description: 'd',
      category: 'toys+games',
      isService: false,
      imageUrl: null,
      thumbnailUrl: null,
      estimatedValue: null,
      isActive: false,
      moderation: null,
      isReserved: false,
      traded: { at, barterRequestId: 7, to: { id: null, displayName: 'Former member' }, swapDay: null },
      allowedActions: ['delete'],
      viewCount: 3,
      createdAt: at,
      updatedAt: at,
    };
    expect(itemSchema.parse(traded)).toEqual(traded);
    const missing = { ...traded, traded: undefined };
    expect(itemSchema.safeParse(missing).error?.issues[0]?.path).toEqual(['traded']);
  });
});
