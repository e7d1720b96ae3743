import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { MemberProfile } from '#common/schemas/members.ts';
import { memberKeys } from '#web/lib/query-keys.ts';
import { AnswerMarker, renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { BioCard } from './bio-card';

const MEMBER: MemberProfile = {
  id: 'u1',
  displayName: 'Hugo H.',
  profileImageUrl: null,
  area: null,
  approximateArea: null,
  memberSince: '2026-11-01T10:00:00.000Z',
  stats: { totalTrades: 0, rating: null, thisMonth: 0, tradingPartners: 0, handOvers: { kept: 0, due: 0 } },
  trustedTrader: false,
  bio: null,
};

/** The member's page as the server has it, and the bio's save, which changes it. */
function stubMember() {
  const saved: string[] = [];
  let reads = 0;
  let bio: string | null = null;
  let profileImageUrl: string | null = null;
  server.use(
    http.get('/api/members/u1', () => {
      reads++;
      return HttpResponse.json({ ...MEMBER, bio, profileImageUrl });
    }),
    http.put('/api/user/bio', async ({ request }) => {
      const body = (await request.json()) as { bio: string };
      saved.push(body.bio);
      bio = body.bio.trim() || null;
      return HttpResponse.json({ bio });
    }),
  );
  return {
    saved,
    reads: () => reads,
    /** A profile photo saved meanwhile (in another card of the same page). */
    photoSaved: () => {
      profileImageUrl = '/photos/me.webp';
    },
  };
}

describe('BioCard', () => {
  it('keeps what the member typed when their page is read again meanwhile, and saves it', async () => {
    const stub = stubMember();
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(
      <>
        <BioCard userId="u1" />
        <AnswerMarker queryKey={memberKeys.profile('u1')} />
      </>,
    );
    await screen.findByTestId('answered');
    const box = screen.getByLabelText('About you');
    await user.type(box, 'I fix bikes and bake sourdough.');
    // Their page is read again after a profile photo was saved: a new answer, still without a bio.
    stub.photoSaved();
    await queryClient.refetchQueries({ queryKey: memberKeys.profile('u1') });
    expect(stub.reads()).toBe(2);
    expect(box).toHaveValue('I fix bikes and bake sourdough.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your page shows your new words.')).toBeInTheDocument();
    expect(stub.saved).toEqual(['I fix bikes and bake sourdough.']);
    expect(box).toHaveValue('I fix bikes and bake sourdough.');
  });
});
