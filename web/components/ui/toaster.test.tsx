import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Toaster } from './toaster';
import { dismissToast, toast, toastWhenQuiet } from './use-toast';

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

describe('toasts that give way (issue 17)', () => {
  it('the safety tip waits while another toast is on show, then shows for its time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      render(<Toaster />);
      act(() => {
        toast({ title: 'AI Analysis Complete' });
      });
      let tip: { cancel: () => void } | undefined;
      act(() => {
        tip = toastWhenQuiet({ title: 'Safety Tip' }, 5000);
      });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
      expect(screen.getByText('AI Analysis Complete')).toBeInTheDocument();
      expect(screen.queryByText('Safety Tip')).not.toBeInTheDocument();
      act(() => dismissToast());
      expect(await screen.findByText('Safety Tip')).toBeInTheDocument();
      // A toast of the member's own replaces the tip at once.
      act(() => {
        toast({ title: 'Item Added' });
      });
      expect(await screen.findByText('Item Added')).toBeInTheDocument();
      expect(screen.queryByText('Safety Tip')).not.toBeInTheDocument();
      tip?.cancel();
      act(() => dismissToast());
    } finally {
      vi.useRealTimers();
    }
  });

  it('a tip cancelled while waiting never shows', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Saved' });
    });
    const tip = toastWhenQuiet({ title: 'Late tip' }, 5000);
    tip.cancel();
    act(() => dismissToast());
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.queryByText('Late tip')).not.toBeInTheDocument();
  });

  it('moving to another screen closes an error toast but keeps a success toast', async () => {
    const location = memoryLocation({ path: '/profile' });
    render(
      <Router hook={location.hook}>
        <Toaster />
      </Router>,
    );
    act(() => {
      toast({ title: 'Error', description: 'Failed to update profile.', variant: 'destructive' });
    });
    expect(await screen.findByText('Failed to update profile.')).toBeInTheDocument();
    act(() => location.navigate('/barters'));
    await vi.waitFor(() => expect(screen.queryByText('Failed to update profile.')).not.toBeInTheDocument());
    act(() => {
      toast({ title: 'Saved', description: 'Your profile has been updated.' });
    });
    act(() => location.navigate('/'));
    expect(screen.getByText('Your profile has been updated.')).toBeInTheDocument();
    act(() => dismissToast());
  });
});
