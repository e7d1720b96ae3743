import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster } from './toaster';
import { dismissToast, toast } from './use-toast';

describe('toasts (spec section 9)', () => {
  it('shows one toast at a time: a new one replaces the visible one', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First' });
    });
    expect(await screen.findByText('First')).toBeInTheDocument();
    act(() => {
      toast({ title: 'Second', description: 'Details' });
    });
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    act(() => dismissToast());
  });

  it('lives in a region F8 focuses, at most 420 px wide', () => {
    render(<Toaster />);
    const region = screen.getByRole('region', { name: /Notifications \(F8\)/ });
    expect(region.querySelector('ol')?.className).toContain('md:max-w-[420px]');
  });
});
