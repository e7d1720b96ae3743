import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  currentUserSchema,
  demoLoginSchema,
  loginSchema,
  normalizeEmail,
  registerFormSchema,
  registerSchema,
} from './auth';

/** The first issue's field path and message, or null when the value is valid. */
function firstIssue(schema: z.ZodType, value: unknown): { path: string; message: string } | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return { path: issue?.path.join('.') ?? '', message: issue?.message ?? '' };
}

const validForm = {
  firstName: 'Ada',
  lastName: '',
  email: 'ada@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
};

describe('registerFormSchema (spec section 5)', () => {
  it('accepts a complete form, with or without a last name', () => {
    expect(firstIssue(registerFormSchema, validForm)).toBeNull();
    const { lastName: _omit, ...withoutLastName } = validForm;
    expect(firstIssue(registerFormSchema, withoutLastName)).toBeNull();
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ firstName: '   ' }, 'firstName', 'First name is required'],
    [{ email: 'ada' }, 'email', 'Please enter a valid email address'],
    [{ email: '' }, 'email', 'Please enter a valid email address'],
    [{ password: '12345', confirmPassword: '12345' }, 'password', 'Password must be at least 6 characters'],
    [{ confirmPassword: 'secret2' }, 'confirmPassword', "Passwords don't match"],
  ])('%j -> %s: %s', (change, path, message) => {
    expect(firstIssue(registerFormSchema, { ...validForm, ...change })).toEqual({ path, message });
  });

  it('trims names and the e-mail', () => {
    const parsed = registerFormSchema.parse({ ...validForm, firstName: ' Ada ', email: ' ada@example.com ' });
    expect(parsed.firstName).toBe('Ada');
    expect(parsed.email).toBe('ada@example.com');
  });

  it('accepts a password of exactly the minimum length', () => {
    expect(
      firstIssue(registerFormSchema, { ...validForm, password: '123456', confirmPassword: '123456' }),
    ).toBeNull();
  });
});

describe('registerSchema (the request body)', () => {
  it('is the form without the confirmation, which it refuses', () => {
    const { confirmPassword: _omit, ...body } = validForm;
    expect(firstIssue(registerSchema, body)).toBeNull();
    expect(firstIssue(registerSchema, validForm)?.message).toMatch(/confirmPassword/);
  });
});

describe('loginSchema', () => {
  it('needs a valid e-mail and a password of at least 6 characters', () => {
    expect(firstIssue(loginSchema, { email: 'a@example.com', password: 'secret1' })).toBeNull();
    expect(firstIssue(loginSchema, { email: 'a@', password: 'secret1' })).toEqual({
      path: 'email',
      message: 'Please enter a valid email address',
    });
    expect(firstIssue(loginSchema, { email: 'a@example.com', password: '12345' })).toEqual({
      path: 'password',
      message: 'Password must be at least 6 characters',
    });
  });

  it('refuses unknown fields', () => {
    expect(
      firstIssue(loginSchema, { email: 'a@example.com', password: 'secret1', admin: true }),
    ).not.toBeNull();
  });
});

describe('demoLoginSchema', () => {
  it('refuses a name that is blank after trimming', () => {
    for (const name of ['', '   ', '\t\n']) {
      expect(firstIssue(demoLoginSchema, { name })).toEqual({
        path: 'name',
        message: 'Please enter your name to continue',
      });
    }
  });

  it('trims a real name', () => {
    expect(demoLoginSchema.parse({ name: '  Sam ' })).toEqual({ name: 'Sam' });
  });
});

describe('currentUserSchema', () => {
  it('allows the nullable columns to be null', () => {
    const user = {
      id: '0e8a4f2c-7d0a-4d89-9a53-8d3b2f7c1a11',
      firstName: null,
      lastName: null,
      email: null,
      location: null,
      latitude: null,
      longitude: null,
      maxTravelDistance: 25,
      profileImageUrl: null,
      isDemo: false,
      emailVerified: false,
      hasPassword: false,
      role: 'member',
      suspendedUntil: null,
    };
    expect(currentUserSchema.parse(user)).toEqual(user);
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});
