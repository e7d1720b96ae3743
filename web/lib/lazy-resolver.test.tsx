import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type Resolver, useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ChunkLoadError } from './import-chunk';
import { lazyResolver } from './lazy-resolver';

const schema = z.object({ name: z.string().min(1, 'Name is required') });
type Values = z.input<typeof schema>;

function NameForm({
  resolver,
  onValid,
}: {
  resolver: ReturnType<typeof lazyResolver<Values>>;
  onValid: (values: Values) => void;
}) {
  const form = useForm<Values>({ resolver, defaultValues: { name: '' } });
  return (
    <form onSubmit={form.handleSubmit(onValid)} onFocus={resolver.preload} noValidate>
      <label>
        Name
        <input {...form.register('name')} />
      </label>
      <p role="alert">{form.formState.errors.name?.message}</p>
      <button type="submit">Save</button>
    </form>
  );
}

describe('a form resolver loaded on first use', () => {
  it('loads nothing with the form, once on its first focus, and validates with the loaded schema', async () => {
    const load = vi.fn(async () => zodResolver(schema));
    const resolver = lazyResolver(load);
    const onValid = vi.fn();
    render(<NameForm resolver={resolver} onValid={onValid} />);
    expect(load).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(onValid).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText('Name'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'Ada' }, expect.anything()));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed load (the network gone mid-way) instead of keeping the failure', async () => {
    const load = vi
      .fn<() => Promise<ReturnType<typeof zodResolver<Values, unknown, Values>>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(zodResolver(schema) as never);
    const resolver = lazyResolver(load);
    resolver.preload();
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    // The failed preload is not kept: the first validation loads again and validates.
    const result = await resolver({ name: '' }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.errors).toMatchObject({ name: { message: 'Name is required' } });
  });

  it('whose code did not arrive, twice, holds the form back and keeps what was typed (ADR 052)', async () => {
    const load = vi
      .fn<() => Promise<Resolver<Values>>>()
      .mockRejectedValue(
        new ChunkLoadError('http://localhost/assets/x.js', new TypeError('Failed to fetch')),
      );
    const resolver = lazyResolver(load);
    const onValid = vi.fn();
    render(<NameForm resolver={resolver} onValid={onValid} />);
    await userEvent.type(screen.getByLabelText('Name'), 'Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // Asked for at the field's focus, at the button's and at Save: all failed, and nothing was sent.
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(3));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name')).toHaveValue('Ada');

    load.mockResolvedValue(zodResolver(schema));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onValid).toHaveBeenCalledWith({ name: 'Ada' }, expect.anything()));
  });
});
